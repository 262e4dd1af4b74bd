"""Migrations apart from work: a worker's start reads the schema's version and changes nothing.

A worker that ran DDL when it started (CREATE INDEX IF NOT EXISTS takes a SHARE lock on jobs
before it looks) waited behind any transaction still open on jobs, and every claim after it
queued behind that. Here one worker holds a complete() open while another starts and a third
claims: neither may wait. migrate() changes the schema, with lock_timeout, apart from work.
"""
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from tests.support.capstone import CAPSTONE_TINYQ

PROMPT = 5.0     # seconds: far more than a start or a claim takes, far less than "stalled"


def within(seconds, action):
    """Run action() in a thread; return (finished in time?, its result or its error)."""
    outcome = {}
    thread = threading.Thread(target=lambda: outcome.setdefault("value", _call(action)), daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive(), outcome.get("value")


def _call(action):
    try:
        return action()
    except Exception as error:          # handed back to the test, which shows it
        return error


def test_starting_a_worker_while_another_holds_a_claim_open_stalls_nothing(tinyq_pg, migrated):
    first = tinyq_pg.Queue(migrated)
    for n in range(3):
        first.enqueue("email", {"n": n})
    job = first.claim()
    block = job.complete()
    block.__enter__()                        # a complete() left open, having written to jobs
    first.enqueue("follow-up", {"after": job.id})
    try:
        started = time.monotonic()
        ok, second = within(PROMPT, lambda: tinyq_pg.Queue(migrated))
        assert ok and isinstance(second, tinyq_pg.Queue), f"the start waited: {second!r}"
        ok, third_job = within(PROMPT, lambda: tinyq_pg.Queue(migrated).claim())
        assert ok and third_job is not None and third_job.id != job.id, third_job
        assert time.monotonic() - started < PROMPT
    finally:
        block.__exit__(None, None, None)
    assert job.outcome == "done"


def test_a_worker_on_a_database_that_was_never_migrated_is_told_what_to_run(tinyq_pg, pg_server):
    conninfo = pg_server.fresh_schema()
    with pytest.raises(tinyq_pg.SchemaBehind, match=r"version 0.*needs version 2.*"
                       r"python3 tinyq_pg\.py migrate"):
        tinyq_pg.Queue(conninfo)
    with psycopg.connect(conninfo) as db:     # and it made nothing
        assert db.execute("SELECT to_regclass('jobs')").fetchone()[0] is None


def test_the_migrate_command_brings_the_schema_up_and_says_so(pg_server):
    conninfo = pg_server.fresh_schema()
    command = [sys.executable, "tinyq_pg.py", "migrate", "--dsn", conninfo]
    first = subprocess.run(command, cwd=CAPSTONE_TINYQ.parent, capture_output=True, text=True,
                           timeout=60)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[-1] == "tinyq schema: version 2 (was 0)"
    again = subprocess.run(command, cwd=CAPSTONE_TINYQ.parent, capture_output=True, text=True,
                           timeout=60)
    assert again.stdout == "tinyq schema: version 2\n"


def test_a_table_the_old_tinyq_pg_made_is_migrated_with_its_jobs(tinyq_pg, pg_server):
    conninfo = pg_server.fresh_schema()
    schema = sys.modules["tinyq_pg_schema"]
    with psycopg.connect(conninfo, autocommit=True) as db:
        db.execute(schema.CREATE_JOBS)       # what every worker ran at its start before
        db.execute("INSERT INTO jobs (kind, args, run_at, created_at) VALUES ('email', '{}', 0, 0)")
    assert tinyq_pg.migrate(conninfo) == (0, 2)
    queue = tinyq_pg.Queue(conninfo)
    job = queue.claim()
    assert job.kind == "email"
    queue.ack(job)
    finished = queue.db.execute("SELECT finished_at FROM jobs").fetchone()[0]
    assert finished is not None


def test_a_migration_that_cannot_have_its_lock_gives_up_after_lock_timeout(tinyq_pg, pg_server):
    conninfo = pg_server.fresh_schema()
    schema = sys.modules["tinyq_pg_schema"]
    with psycopg.connect(conninfo, autocommit=True) as db:
        db.execute(schema.CREATE_JOBS)
        db.execute("INSERT INTO jobs (kind, args, run_at, created_at) VALUES ('email', '{}', 0, 0)")
    with psycopg.connect(conninfo) as holder:
        holder.execute("UPDATE jobs SET attempts = 1")      # an open transaction on jobs
        started = time.monotonic()
        with pytest.raises(tinyq_pg.MigrationBlocked, match=r"migration 1 .*waited 0\.5 s"):
            tinyq_pg.migrate(conninfo, lock_timeout=0.5)
        assert time.monotonic() - started < PROMPT
    with psycopg.connect(conninfo) as db:                  # and left nothing behind
        columns = {row[0] for row in db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'jobs' "
            "AND table_schema = current_schema()")}
        assert "finished_at" not in columns
    assert tinyq_pg.migrate(conninfo) == (0, 2)              # it goes once the way is clear
