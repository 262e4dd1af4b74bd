"""Print what crash-timing's modes cost per step: python3 bench/bench_crash_timing.py
(in Pyodide: node tests/core/pyodide_run.mjs . bench/bench_crash_timing.py).

For each setting, a whole run from its start to its end, `RUNS` times on fresh simulations (the
median is kept): microseconds per step() and per frame (step() + snapshot()), the steps a run
takes and the run() calls it needs (each at most MAX_RUN_STEPS steps, so every call is bounded). The batch of 100 is the widest setting (100 sends, each one step). Figures from one run
on one machine: read them as ratios against the first line (the chapter 7 setting).
"""
import os
import statistics
import sys
import time

HERE = globals().get("__file__")   # not set when Pyodide runs this text (pyodide_run.mjs)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(HERE))) if HERE else "/app"
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)   # CPython from the checkout; Pyodide has /app on its path

from simulations import CrashTiming  # noqa: E402

SETTINGS = {
    "ack after work, crash after the email": {"crash": "after-effect"},
    "auto-commit 0.5 s, crash after the commit": {"policy": "auto-commit", "commit_interval": 0.5,
                                                  "crash": "after-ack"},
    "batch of 50, no record": {"batch": 50, "crash": "after-effect"},
    "batch of 50, a record per send": {"batch": 50, "crash": "after-effect", "marker": True},
    "batch of 100, a record per send, key": {"batch": 100, "crash": "after-effect", "marker": True,
                                             "policy": "idempotency-key"},
    "producer, enqueue before the commit": {"scenario": "producer", "enqueue": "before-commit"},
    "producer, outbox, crash": {"scenario": "producer", "enqueue": "same-transaction",
                                "fault": "crash"},
}
RUNS = 15


def one_run(params, frames):
    sim = CrashTiming(params)
    steps, started = 0, time.perf_counter()
    while True:
        moved = sim.step()
        if frames:
            sim.snapshot()
        if not moved:
            break
        steps += 1
    return (time.perf_counter() - started) / max(steps, 1), steps


def run_calls(params):
    """How many run() calls (each at most MAX_RUN_STEPS steps) take a run to its end."""
    sim, calls = CrashTiming(params), 0
    while not sim.finished:
        sim.run(until=sim.clock.now + 1000)
        calls += 1
    return calls


def main():
    print(f"python {sys.version.split()[0]}; median of {RUNS} runs; MAX_RUN_STEPS {CrashTiming.MAX_RUN_STEPS}")
    for params in SETTINGS.values():   # one uncounted pass: imports, SQLite and caches warm up
        one_run(params, True)
    print(f"{'setting':44} {'us/step':>9} {'us/frame':>9} {'steps':>6} {'run() calls':>11}")
    for name, params in SETTINGS.items():
        per_step = statistics.median(one_run(params, False)[0] for _ in range(RUNS))
        per_frame = statistics.median(one_run(params, True)[0] for _ in range(RUNS))
        steps = one_run(params, False)[1]
        print(f"{name:44} {per_step * 1e6:9.1f} {per_frame * 1e6:9.1f} {steps:6d} {run_calls(params):11d}")


if __name__ == "__main__":
    main()
