"""Batch claims beside single claims on PostgreSQL: jobs per second, measured in one run.

    pg_virtualenv -t -o fsync=on .venv/bin/python bench/bench_batch.py   # a server that syncs

For each number of worker processes (WORKERS) and each way of claiming (MODES: claim(), one
job a statement, or claim_batch(n), n jobs a statement), it fills the queue with JOBS jobs,
lets the workers go at once, and each worker claims, "works" (sleeps WORK seconds) and acks
each job on its own until the queue is empty. A batch saves claim statements, not acks: every
job still ends with its own guarded, committed ack (a disk sync each, at this durability).
The modes take turns within each round and the rounds repeat (ROUNDS), so a busy moment on
the machine falls on every mode alike; each row is the median of its rounds, and `vs_single`
divides it by claim()'s median at the same number of workers and the same work.

Durability as bench_scaling.py's "durable": fsync=on, synchronous_commit=on (the run refuses
a server with fsync=off, pg_virtualenv's default). It writes bench/results/batch.csv and the
machine in bench/results/batch-machine.txt. One run, one machine: read the ratios, not the
absolute numbers.
"""
import csv
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scaling import CAPSTONE, fill, machine, run_workers  # noqa: E402 (one fill, one start, one machine description)

TABLE = ROOT / "bench" / "results" / "batch.csv"
WORKERS = (1, 4, 8)
MODES = ("single", "10", "50")       # claim(), claim_batch(10), claim_batch(50)
WORK = (0.0, 0.01)                   # seconds each job "works": none (the queue's own cost), 10 ms
JOBS = 1500
ROUNDS = 3
LEASE = 60.0                         # seconds: far more than 50 jobs' work, so no lease runs out


def worker_main(mode, work):
    """One worker: connect, say ready, wait for go, then claim/work/ack until the queue is empty."""
    sys.path.insert(0, str(CAPSTONE))
    import tinyq_pg
    queue = tinyq_pg.Queue("", lease=LEASE)
    queue.db.execute("SET synchronous_commit = on")
    claim = (lambda: [job] if (job := queue.claim()) else []) if mode == "single" else (
        lambda: queue.claim_batch(int(mode)))
    print("ready", flush=True)
    sys.stdin.readline()
    done, claiming, statements = 0, 0.0, 0
    while True:
        started = time.perf_counter()
        jobs = claim()
        claiming += time.perf_counter() - started
        statements += 1
        if not jobs:
            break
        for job in jobs:
            if work:
                time.sleep(work)
            queue.ack(job)
            done += 1
    print(json.dumps({"done": done, "claiming": claiming, "statements": statements,
                      "finished": time.time()}), flush=True)


def measure(mode, workers, work):
    """One run of `workers` processes over a full queue: (jobs/s, claim seconds per job)."""
    fill("postgres", "", JOBS)
    go, results = run_workers([sys.executable, __file__, "--worker", mode, str(work)], workers, timeout=900)
    assert sum(r["done"] for r in results) == JOBS, "a job was lost or done twice"
    seconds = max(r["finished"] for r in results) - go
    return JOBS / seconds, sum(r["claiming"] for r in results) / JOBS


def main():
    if "PGHOST" not in os.environ and "PGPORT" not in os.environ:
        sys.exit("bench_batch.py needs a PostgreSQL server: run it under pg_virtualenv -t -o "
                 "fsync=on (see the docstring), or set the PG* variables")
    import psycopg
    with psycopg.connect() as db:
        server = {name: db.execute(f"SHOW {name}").fetchone()[0]
                  for name in ("server_version", "fsync", "synchronous_commit")}
    if server["fsync"] != "on":
        sys.exit("the server runs with fsync=off (pg_virtualenv's default): start it with "
                 "pg_virtualenv -t -o fsync=on")
    described = machine() + "postgresql: " + ", ".join(f"{k}={v}" for k, v in server.items())
    print(described, flush=True)
    rows = []
    for work in WORK:
        for workers in WORKERS:
            runs = {mode: [] for mode in MODES}
            for _ in range(ROUNDS):
                for mode in MODES:
                    runs[mode].append(measure(mode, workers, work))
            single = statistics.median(rate for rate, _ in runs["single"])
            for mode in MODES:
                rate = statistics.median(rate for rate, _ in runs[mode])
                row = {"work_ms": round(1000 * work), "workers": workers,
                       "claim": "claim()" if mode == "single" else f"claim_batch({mode})",
                       "jobs": JOBS, "rounds": ROUNDS, "jobs_per_second": round(rate, 1),
                       "vs_single": round(rate / single, 2),
                       "claim_ms_per_job": round(1000 * statistics.median(
                           per_job for _, per_job in runs[mode]), 3)}
                print(row, flush=True)
                rows.append(row)
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.with_name("batch-machine.txt").write_text(described + "\n", encoding="utf-8")
    with TABLE.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {TABLE.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker_main(sys.argv[2], float(sys.argv[3]))
    else:
        main()
