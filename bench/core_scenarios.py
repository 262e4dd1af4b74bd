"""Benchmark scenarios for the queue core, as plain functions another script can import
and run (the page's benchmark runs the same ones in Pyodide to compare).

Standard library only. Each function returns raw measurements; bench_core.py prints them.
"""
import os
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from simulations import LiveQueue  # noqa: E402
from simulations.engine.capstone import tinyq  # noqa: E402


def live_queue_step_times(steps=300, workers=16, jobs=1000, seed=0, warmup=20):
    """Seconds per live-queue step(), one figure per step, with `workers` workers and
    `jobs` jobs waiting at the start (leases of 5 s, jobs of 2 s, no crashes)."""
    sim = LiveQueue({"workers": workers, "jobs": jobs, "lease": 5, "duration": 2}, seed=seed)
    for _ in range(warmup):
        sim.step()
    times = []
    for _ in range(steps):
        started = time.perf_counter()
        sim.step()
        times.append(time.perf_counter() - started)
    return times


def live_queue_frame_times(frames=100, workers=16, jobs=1000, seed=0):
    """Seconds per animation frame as the page spends it: one step() and one snapshot()."""
    sim = LiveQueue({"workers": workers, "jobs": jobs, "lease": 5, "duration": 2}, seed=seed)
    times = []
    for _ in range(frames):
        started = time.perf_counter()
        sim.step()
        sim.snapshot()
        times.append(time.perf_counter() - started)
    return times


def claim_ack_seconds(path=":memory:", jobs=1000):
    """Seconds for `jobs` claim+ack round trips on tinyq (jobs enqueued beforehand)."""
    queue = tinyq.Queue(path, rng=random.Random(0))
    queue.db.execute("BEGIN")
    for n in range(jobs):
        queue.enqueue("bench", {"n": n})
    queue.db.execute("COMMIT")
    started = time.perf_counter()
    for _ in range(jobs):
        queue.ack(queue.claim())
    elapsed = time.perf_counter() - started
    queue.close()
    return elapsed


def claim_ack_on_file(jobs=1000):
    """claim_ack_seconds on a fresh SQLite file in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        return claim_ack_seconds(os.path.join(folder, "bench.db"), jobs)


def median_microseconds(times):
    return statistics.median(times) * 1e6
