"""tinyq under load: jobs per second and worker deaths for 1, 4, 8 and 16 worker PROCESSES
sharing one SQLite file, for the tinyq before its load fixes (git a9dec96: rollback journal, no retry
when the database is busy) and the tinyq of today, in one run.

    .venv/bin/python bench/bench_load.py [--jobs 1000] [--workers 1 4 8 16]

Each configuration gets a fresh file with `--jobs` jobs whose handler does nothing, and that many
worker processes, set going together once all of them have opened the queue. A worker runs
work_one() until no job is queued or running, then prints how many jobs it did; one that exits
with an error is a death, and its last line of error is its cause. jobs/s is the done jobs over
the time from the start to the last ack. The machine is shared and noisy: compare the two rows
of one run, never figures from different runs. Goal: no deaths at 16 workers.
"""
import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAPSTONE = ROOT / "code" / "capstone"
BEFORE = "a9dec96"   # the last commit before the WAL, busy-retry and load fixes

WORKER = """
import sys, time
sys.path.insert(0, sys.argv[1])
import tinyq
queue = tinyq.Queue(sys.argv[2], lease=60)
queue.handler("noop")(lambda job: None)
UNFINISHED = "SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')"
print("ready", flush=True)
sys.stdin.readline()                    # wait for "go", sent to every worker at once
done, last = 0, time.time()
while True:
    if queue.work_one() is not None:
        done, last = done + 1, time.time()
    elif queue.db.execute(UNFINISHED).fetchone()[0] == 0:
        break
    else:
        time.sleep(0.001)
print(done, last)
"""


def old_tinyq(folder):
    """Write the tinyq of commit BEFORE into `folder`; return the folder."""
    source = subprocess.run(["git", "show", f"{BEFORE}:code/capstone/tinyq.py"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    (folder / "tinyq.py").write_text(source, encoding="utf-8")
    return folder


def fill(code_dir, path, jobs):
    """Create the queue file with `jobs` jobs, using the tinyq in code_dir."""
    program = ("import sys; sys.path.insert(0, sys.argv[1]); import tinyq;"
               "q = tinyq.Queue(sys.argv[2]); q.db.execute('BEGIN IMMEDIATE');"
               "[q.enqueue('noop', {'n': n}) for n in range(int(sys.argv[3]))];"
               "q.db.execute('COMMIT')")
    subprocess.run([sys.executable, "-c", program, str(code_dir), str(path), str(jobs)],
                   check=True)


def one_run(code_dir, folder, workers, jobs):
    """Returns (jobs done, jobs/s, Counter of causes of death)."""
    path = folder / f"load-{code_dir.name}-{workers}.db"
    fill(code_dir, path, jobs)
    processes = [subprocess.Popen([sys.executable, "-c", WORKER, str(code_dir), str(path)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(workers)]
    for process in processes:           # a worker that dies while opening the queue says nothing
        process.stdout.readline()
    start = time.time()
    for process in processes:
        try:
            process.stdin.write("go\n")
            process.stdin.flush()
        except BrokenPipeError:
            pass
    done, last, deaths = 0, start, Counter()
    for process in processes:
        out, err = process.communicate(timeout=600)
        if process.returncode == 0:
            count, finished = out.split()
            done, last = done + int(count), max(last, float(finished))
        else:
            lines = [line for line in err.splitlines() if line.strip()]
            deaths[lines[-1] if lines else f"exit status {process.returncode}"] += 1
    return done, done / max(last - start, 1e-9), deaths


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 4, 8, 16])
    options = parser.parse_args(argv)
    import sqlite3
    print(f"python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}; "
          f"{options.jobs} jobs with a handler that does nothing, on one file")
    print(f"{'tinyq':<22}{'workers':>8}{'jobs/s':>10}{'deaths':>8}{'done':>12}")
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        Path(tmp, "before").mkdir()
        before = old_tinyq(Path(tmp, "before"))
        versions = [(f"before ({BEFORE})", before), ("after (today)", CAPSTONE)]
        rates, causes = {}, Counter()
        for workers in options.workers:
            for name, code_dir in versions:
                done, rate, deaths = one_run(code_dir, Path(tmp), workers, options.jobs)
                rates[name, workers] = rate
                causes.update({f"{name}: {cause}": n for cause, n in deaths.items()})
                print(f"{name:<22}{workers:>8}{rate:>10.0f}{sum(deaths.values()):>8}"
                      f"{f'{done}/{options.jobs}':>12}", flush=True)
    for workers in options.workers:
        ratio = rates["after (today)", workers] / max(rates[versions[0][0], workers], 1e-9)
        print(f"after / before, {workers:>2} workers: {ratio:5.2f}x jobs/s")
    for cause, count in causes.most_common():
        print(f"died: {count} x {cause}")


if __name__ == "__main__":
    main(sys.argv[1:])
