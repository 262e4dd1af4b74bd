"""Print what one judged run costs: python3 bench/bench_judge.py [--pyodide]

- one audit at the defaults (shop-handlers: 20 customers, 3 workers, chaos 0.1; race-claim: 5
  jobs, 3 workers), for the chapter's starting and fixed code: milliseconds of CPU time
  (time.process_time: less swayed by a busy machine than the wall clock), median of 5 runs;
- the step budget's cost: the fixed shop with and without the line tracer, and a shop whose
  handlers each run a 200-line loop of the reader's (where the tracer works hardest), and how
  long `while True: pass` runs before the default budget (200,000 lines) stops it.
--pyodide runs the same figures in Pyodide under Node (tests/core/pyodide_run.mjs).
Figures from one run on one machine: compare them as ratios, not against fixed limits.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from simulations.judge import EXERCISES, judge  # noqa: E402

BUSY = EXERCISES["shop-handlers"]["fixed"].replace(
    '    email = job.args["email"]\n    world.charge',
    '    email = job.args["email"]\n    total = 0\n    for n in range(200):\n        total += n\n'
    '    world.charge')


def milliseconds(exercise, code, runs=5, **options):
    times = []
    for _ in range(runs):
        started = time.process_time()
        judge(exercise, code, seed=1, **options)
        times.append(time.process_time() - started)
    return statistics.median(times) * 1000


def figures():
    print(f"python {sys.version.split()[0]} ({sys.platform})")
    milliseconds("shop-handlers", EXERCISES["shop-handlers"]["start"], runs=1)  # warm up
    for name, exercise in EXERCISES.items():
        for version in ("start", "fixed"):
            print(f"{name:16s} {version:5s} one audit:           "
                  f"{milliseconds(name, exercise[version]):8.1f} ms")
    fixed = EXERCISES["shop-handlers"]["fixed"]
    plain, traced = milliseconds("shop-handlers", fixed, budget=None), milliseconds(
        "shop-handlers", fixed)
    print(f"shop fixed, no line tracer / with:       {plain:8.1f} / {traced:.1f} ms "
          f"(x{traced / plain:.2f})")
    plain, traced = milliseconds("shop-handlers", BUSY, budget=None), milliseconds(
        "shop-handlers", BUSY, budget=10**7)
    print(f"shop + 200-line loop per fee, no / with: {plain:8.1f} / {traced:.1f} ms "
          f"(x{traced / plain:.2f})")
    print(f"an endless loop, stopped at 200,000 lines: "
          f"{milliseconds('shop-handlers', 'while True:' + chr(10) + '    pass' + chr(10)):8.1f} ms")


def in_pyodide():
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write("import bench_judge\nbench_judge.figures()\n")
    try:
        subprocess.run(["node", os.path.join(ROOT, "tests", "core", "pyodide_run.mjs"), ROOT,
                        script.name], check=True)
    finally:
        os.unlink(script.name)


if __name__ == "__main__":
    in_pyodide() if "--pyodide" in sys.argv[1:] else figures()
