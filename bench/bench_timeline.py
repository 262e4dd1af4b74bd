"""Time travel's figures: python3 bench/bench_timeline.py
(in Pyodide: node tests/core/pyodide_run.mjs . bench/bench_timeline.py; with compressed
checkpoints: python3 bench/bench_timeline.py compress)

A live-queue run of 10,000 steps with many jobs (16 workers, 1,000 waiting, 4 more a second:
5,000 in all), then:
- back(): one step back from a random position (after going there), median and 95th percentile;
- seek(k): to a random position from wherever the previous seek left it;
- the checkpoints: how many, their spacing, and the bytes of their databases.
Times are CPU time (time.process_time: the machine is shared). Figures from one run on one
machine: compare them as ratios, not against fixed limits.
"""
import random
import statistics
import sys
import time

sys.path[:0] = [".", "/app"]

from simulations.engine.timeline import Timeline  # noqa: E402

STEPS = 10_000
PARAMS = {"workers": 16, "jobs": 1000, "rate": 4, "crash": 0.05, "supervisor": True}


def milliseconds(samples):
    ordered = sorted(samples)
    return (f"min {ordered[0] * 1e3:6.1f} ms   median {statistics.median(ordered) * 1e3:6.1f} ms   "
            f"p95 {ordered[int(len(ordered) * 0.95) - 1] * 1e3:6.1f} ms   "
            f"max {ordered[-1] * 1e3:6.1f} ms")


def main(every=16, keep=96, compress=False, samples=40):
    line = Timeline("live-queue", PARAMS, seed=1, every=every, keep=keep, compress=compress)
    started = time.process_time()
    for n in range(STEPS):
        if n == 3000:
            line.act("kill", worker=3)
        line.step()
    built = time.process_time() - started
    r = random.Random(2)
    backs, seeks, drags = [], [], []
    for _ in range(samples):
        line.seek(r.randint(1, len(line.moves)))
        started = time.process_time()
        line.back()
        line.snapshot()
        backs.append(time.process_time() - started)
    for _ in range(samples):
        k = r.randint(0, len(line.moves))
        started = time.process_time()
        line.seek(k)
        line.snapshot()
        seeks.append(time.process_time() - started)
    line.seek(len(line.moves))
    for _ in range(samples):  # holding the back key: one step back after another
        started = time.process_time()
        line.back()
        line.snapshot()
        drags.append(time.process_time() - started)
    memory = sum(checkpoint.size() for checkpoint in line.checkpoints.values())
    stats = line.snapshot()["stats"]
    print(f"python {sys.version.split()[0]}; live-queue {PARAMS}, {len(line.moves):,} moves, "
          f"{stats['jobs_total']:,} jobs; every={every} keep={keep} compress={compress}")
    print(f"recording the run (steps + checkpoints): {built:6.2f} s "
          f"({built / STEPS * 1e6:.0f} us per step)")
    print(f"back() + snapshot from a random position:   {milliseconds(backs)}")
    print(f"back() + snapshot, again and again:         {milliseconds(drags)}")
    print(f"seek(random) + snapshot:                    {milliseconds(seeks)}")
    print(f"checkpoints: {len(line.checkpoints)} of at most {keep}, every {line.interval} moves, "
          f"{memory / 1e6:.1f} MB (databases and pickled objects)")


if __name__ == "__main__":
    main(compress="compress" in sys.argv[1:])
