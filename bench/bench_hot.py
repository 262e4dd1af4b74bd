"""HOT updates and claim latency over many jobs: tinyq_pg's table before and after migration 2.

    pg_virtualenv -t -o fsync=on .venv/bin/python bench/bench_hot.py [--jobs 100000]

For each design it makes a fresh schema, queues --jobs jobs, and has one worker claim, renew the
lease once (a heartbeat) and ack each job, timing every claim(); the two designs run at the
same time, side by side. Then it reads the table's
counters, pg_stat_user_tables.n_tup_upd and n_tup_hot_upd: the share of updates that were HOT
(heap-only tuples: no new index entries, and the old row version can be pruned from its page
without VACUUM; https://www.postgresql.org/docs/15/storage-hot.html).
- before: migration 1's indexes (jobs_leased on (locked_until, id)), fillfactor 100;
- after: migration 2 (jobs_running on (id) only, fillfactor 80), what tinyq_pg uses now.
Claims and acks change `status`, which both designs' partial indexes name, so neither can make
them HOT in PostgreSQL 15; the heartbeat changes only locked_until, which only "before" indexes.
It writes bench/results/hot.csv and prints the table.
"""
import argparse
import csv
import os
import statistics
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "code" / "capstone"))
import tinyq_pg            # noqa: E402
import tinyq_pg_schema     # noqa: E402

TABLE = ROOT / "bench" / "results" / "hot.csv"
BEFORE = """
ALTER TABLE jobs SET (fillfactor = 100);
DROP INDEX jobs_running;
DROP INDEX jobs_done;
CREATE INDEX jobs_leased ON jobs (locked_until, id) WHERE status = 'running';
"""


def fresh(design):
    schema = "hot_" + uuid.uuid4().hex[:10]
    with psycopg.connect(autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    conninfo = f"options='-c search_path={schema}'"
    tinyq_pg.migrate(conninfo)
    if design == "before":
        with psycopg.connect(conninfo, autocommit=True) as db:
            db.execute(BEFORE)
    return conninfo, schema


def run(design, jobs):
    conninfo, schema = fresh(design)
    queue = tinyq_pg.Queue(conninfo, lease=30)
    queue.db.execute("INSERT INTO jobs (kind, args, run_at, created_at) "
                     "SELECT 'work', '{}', 0, 0 FROM generate_series(1, %s)", (jobs,))
    queue.db.execute("ANALYZE jobs")
    queue.db.execute("SELECT pg_stat_reset_single_table_counters('jobs'::regclass)")
    claims = []
    started = time.perf_counter()
    while True:
        before = time.perf_counter()
        job = queue.claim()
        claims.append(time.perf_counter() - before)
        if job is None:
            break
        queue.extend(job)
        queue.ack(job)
    seconds = time.perf_counter() - started
    queue.db.execute("SELECT pg_stat_force_next_flush()")
    queue.close()
    time.sleep(1.5)                        # the counters reach pg_stat_user_tables in a moment
    with psycopg.connect(conninfo) as db:
        updates, hot, dead = db.execute(
            "SELECT n_tup_upd, n_tup_hot_upd, n_dead_tup FROM pg_stat_user_tables "
            "WHERE relname = 'jobs' AND schemaname = %s", (schema,)).fetchone()
        size = db.execute("SELECT pg_total_relation_size('jobs')").fetchone()[0]
    claims = claims[:-1]                   # the last claim found the queue empty
    tenth = len(claims) // 10
    first, last = statistics.median(claims[:tenth]), statistics.median(claims[-tenth:])
    claims.sort()
    return {"design": design, "jobs": jobs, "updates": updates, "hot_updates": hot,
            "hot_share": round(hot / updates, 3) if updates else 0.0,
            "claim_p50_ms": round(1000 * statistics.median(claims), 3),
            "claim_p99_ms": round(1000 * claims[int(0.99 * (len(claims) - 1))], 3),
            "first_tenth_claim_p50_ms": round(1000 * first, 3),
            "last_tenth_claim_p50_ms": round(1000 * last, 3),
            "seconds": round(seconds, 1), "table_and_indexes_mb": round(size / 2**20, 1),
            "dead_row_versions": dead}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=100_000)
    options = parser.parse_args()
    if "PGHOST" not in os.environ and "PGPORT" not in os.environ:
        sys.exit("bench_hot.py needs a PostgreSQL server: run it under pg_virtualenv (see above)")
    # The two designs run side by side, each on a thread and a connection of its own, so that
    # whatever else the machine is doing weighs on both alike.
    with ThreadPoolExecutor(2) as pool:
        rows = list(pool.map(lambda design: run(design, options.jobs), ("before", "after")))
    for row in rows:
        print(row, flush=True)
    with psycopg.connect() as db:
        settings = {name: db.execute(f"SHOW {name}").fetchone()[0]
                    for name in ("server_version", "fsync", "synchronous_commit")}
    print(settings)
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    with TABLE.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=[*rows[0], *settings])
        writer.writeheader()
        writer.writerows({**row, **settings} for row in rows)
    print(f"wrote {TABLE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
