"""How tinyq scales with workers: jobs per second and claim latency, SQLite against PostgreSQL,
each at the same durability.

    pg_virtualenv -t -o fsync=on .venv/bin/python bench/bench_scaling.py   # a server that syncs

For each engine, each durability and each number of worker processes (1, 2, 4, 8, 16, 32), it
queues JOBS_PER_WORKER jobs per worker (at least MIN_JOBS), starts the processes, lets them all go
at once, and each worker claims, "works" (sleeps WORK seconds, standing for a call to a mail
provider or a bank) and acks until the queue is empty. It records the wall time from "go" to the
last ack, and how long every claim() call took. SQLite runs in WAL mode with a 60 s busy timeout,
so a worker that meets the write lock waits for it rather than failing.

Durability, matched (DURABILITY below): "durable" waits for the disk at every commit on both
engines (SQLite synchronous=FULL; PostgreSQL fsync=on, synchronous_commit=on), so a commit that
returned survives a power cut; "relaxed" does not wait (SQLite synchronous=NORMAL, which in WAL
mode syncs only at checkpoints; PostgreSQL synchronous_commit=off, which may lose the last
moments of commits in a crash but never corrupts). pg_virtualenv starts its server with
fsync=off unless told otherwise, so the run refuses a server without fsync=on.
Sources: https://www.sqlite.org/pragma.html#pragma_synchronous,
https://www.postgresql.org/docs/15/wal-async-commit.html

It writes bench/results/scaling.csv (the table), bench/results/scaling-machine.txt (the
machine) and content/figures/scaling.svg (the chart, drawn here with no plotting library), which
chapter 10 shows beside the table; `--redraw` draws the chart again from the committed table
without measuring. One run, one machine: compare the engines and the shapes of the curves, not
the absolute numbers.
"""
import csv
import html
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
CAPSTONE = ROOT / "code" / "capstone"
TABLE = ROOT / "bench" / "results" / "scaling.csv"
CHART = ROOT / "content" / "figures" / "scaling.svg"   # chapter 10's figure
WORKERS = (1, 2, 4, 8, 16, 32)
WORK = 0.01            # seconds each job "works"
JOBS_PER_WORKER = 40
MIN_JOBS = 200
DURABILITY = {   # (SQLite's PRAGMA synchronous, PostgreSQL's synchronous_commit) for each
    "durable": ("FULL", "on"),
    "relaxed": ("NORMAL", "off"),
}


def worker_main(engine, where, durability):
    """One worker: connect, say ready, wait for go, then claim/work/ack until the queue is empty."""
    sys.path.insert(0, str(CAPSTONE))
    synchronous, synchronous_commit = DURABILITY[durability]
    if engine == "sqlite":
        import tinyq
        queue = tinyq.Queue(where)
        queue.db.execute("PRAGMA busy_timeout = 60000")
        queue.db.execute(f"PRAGMA synchronous = {synchronous}")
    else:
        import tinyq_pg
        queue = tinyq_pg.Queue(where)
        queue.db.execute(f"SET synchronous_commit = {synchronous_commit}")
    print("ready", flush=True)
    sys.stdin.readline()
    claims, done = [], 0
    while True:
        started = time.perf_counter()
        job = queue.claim()
        claims.append(time.perf_counter() - started)
        if job is None:
            break
        time.sleep(WORK)
        queue.ack(job)
        done += 1
    print(json.dumps({"done": done, "claims": claims[:-1], "finished": time.time()}), flush=True)


def fill(engine, where, jobs):
    sys.path.insert(0, str(CAPSTONE))
    if engine == "sqlite":
        import tinyq
        for suffix in ("", "-wal", "-shm"):
            Path(where + suffix).unlink(missing_ok=True)
        queue = tinyq.Queue(where)       # tinyq puts a file in WAL mode itself
    else:
        import tinyq_pg
        tinyq_pg.migrate(where)
        queue = tinyq_pg.Queue(where)
        queue.db.execute("TRUNCATE jobs")
    with queue.transaction(queue.db):
        for n in range(jobs):
            queue.enqueue("work", {"n": n})
    queue.close()


def run_workers(command, workers, timeout):
    """Start `workers` processes of `command`, wait until each says "ready" (connected, its
    queue open), tell them all "go" at once, and return (the wall-clock start in seconds, each
    one's JSON report). Raises AssertionError if a worker does not start as expected."""
    procs = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(workers)]
    for proc in procs:
        assert proc.stdout.readline().strip() == "ready"
    go = time.time()
    for proc in procs:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    return go, [json.loads(proc.communicate(timeout=timeout)[0]) for proc in procs]


def measure(engine, durability, where, workers):
    """Run `workers` processes over a full queue; return a row of the table."""
    jobs = max(MIN_JOBS, JOBS_PER_WORKER * workers)
    fill(engine, where, jobs)
    go, results = run_workers([sys.executable, __file__, "--worker", engine, where, durability],
                              workers, timeout=600)
    seconds = max(r["finished"] for r in results) - go
    claims = sorted(c for r in results for c in r["claims"])
    assert sum(r["done"] for r in results) == jobs, "a job was lost or done twice"
    setting = DURABILITY[durability][engine == "postgres"]
    setting = (f"synchronous={setting}" if engine == "sqlite"
               else f"fsync=on synchronous_commit={setting}")
    return {"engine": engine, "durability": durability, "setting": setting,
            "workers": workers, "jobs": jobs,
            "jobs_per_second": round(jobs / seconds, 1),
            "claim_median_ms": round(1000 * statistics.median(claims), 2),
            "claim_p95_ms": round(1000 * claims[int(0.95 * (len(claims) - 1))], 2)}


from scaling_chart import chart, read_table  # noqa: E402 (the chart, drawn from the table)


def machine():
    """A few lines that say what the run ran on."""
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    memory = next((line.split(":", 1)[1].strip() for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal")), "?")
    disk = subprocess.run(["df", "-T", str(TABLE.parent)], capture_output=True, text=True).stdout
    load = os.getloadavg()
    return (f"date (UTC): {time.strftime('%Y-%m-%d %H:%M', time.gmtime())}\n"
            f"system: {platform.platform()}\ncpu: {model}, {os.cpu_count()} cores\n"
            f"memory: {memory}\nload average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n"
            f"python: {platform.python_version()}, sqlite {sqlite3.sqlite_version}\n"
            f"the SQLite file's disk (df -T):\n{disk}")


def main():
    CHART.parent.mkdir(parents=True, exist_ok=True)
    if sys.argv[1:2] == ["--redraw"]:             # the chart again, from the committed table
        CHART.write_text(chart(read_table(TABLE)), encoding="utf-8")
        return
    if "PGHOST" not in os.environ and "PGPORT" not in os.environ:
        sys.exit("bench_scaling.py needs a PostgreSQL server: run it under "
                 "pg_virtualenv -t (see the docstring), or set the PG* variables")
    import psycopg
    with psycopg.connect() as db:
        server = {name: db.execute(f"SHOW {name}").fetchone()[0]
                  for name in ("server_version", "fsync", "synchronous_commit", "wal_sync_method")}
    if server["fsync"] != "on":
        sys.exit("the server runs with fsync=off (pg_virtualenv's default): start it with "
                 "pg_virtualenv -t -o fsync=on, so that 'durable' means the same on both engines")
    sqlite_path = str(ROOT / "bench" / "results" / "scaling.db")
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    described = machine() + "postgresql: " + ", ".join(f"{k}={v}" for k, v in server.items()) + "\n"
    print(described)
    rows = []
    for engine, where in (("sqlite", sqlite_path), ("postgres", "")):
        for durability in DURABILITY:
            for workers in WORKERS:
                row = measure(engine, durability, where, workers)
                print(row, flush=True)
                rows.append(row)
    (TABLE.parent / "scaling-machine.txt").write_text(described, encoding="utf-8")
    for suffix in ("", "-wal", "-shm"):
        Path(sqlite_path + suffix).unlink(missing_ok=True)
    with TABLE.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    CHART.write_text(chart(rows), encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)} and {CHART.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker_main(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        main()
