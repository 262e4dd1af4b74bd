"""Unit tests for tinyq: one test (or a few) per rule of the capstone's queue. Here its states,
enqueue and claim; finishing a claim is in test_tinyq_finish.py, the worker loop in
test_tinyq_work_one.py, the review's defects in test_tinyq_defects.py.

Each test that takes `backend` runs twice: on SQLite (tinyq.py) and on PostgreSQL (tinyq_pg.py,
on a real server): one contract for both engines (tests/core/conftest.py).
"""
import re
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from tests.core.jobs_table import count, row, run
from tests.support.capstone import CAPSTONE_TINYQ, tinyq


# --- states ---------------------------------------------------------------------------------

def test_states_are_named_once_and_checked_by_sql(make_queue, backend):
    queue = make_queue()
    assert backend.module.STATES == tinyq.STATES == ("queued", "running", "done", "dead")
    checks = backend.table_sql(queue).replace("ARRAY[", "(").replace("::text", "")
    for state in tinyq.STATES:
        assert f"'{state}'" in checks
    job_id = queue.enqueue("email", {})
    with pytest.raises(backend.integrity_error, match="(?i)check"):
        run(queue, "UPDATE jobs SET status = 'waiting' WHERE id = ?", (job_id,))
    assert row(queue, job_id)["status"] == "queued"


def test_the_sql_never_reads_a_clock_but_through_its_one_time_expression(backend):
    """SQLite's SQL takes the time only as :now. PostgreSQL's reads it only through NOW: the
    `now` parameter when the queue passes one, else the server's clock (one for every worker)."""
    statements = [value for name, value in vars(backend.sql_module).items() if name.isupper()
                  and isinstance(value, str)]
    assert len(statements) >= 10
    if backend.name == "postgres":
        now = backend.sql_module.NOW
        assert now.startswith("coalesce(%(now)s::float8, ") and "statement_timestamp()" in now
        statements = [sql.replace(now, "") for sql in statements if sql != now]
    for sql in statements:
        lowered = sql.lower()
        for clock_reader in ("julianday", "strftime", "unixepoch", "current_time",
                             "current_date", "datetime(", "'now'", "now()", "clock_timestamp",
                             "statement_timestamp", "transaction_timestamp", "localtime"):
            assert clock_reader not in lowered, (clock_reader, sql)


def test_an_old_sqlite_is_refused_with_a_clear_message(monkeypatch):
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 31, 1))
    monkeypatch.setattr(sqlite3, "sqlite_version", "3.31.1")
    with pytest.raises(RuntimeError, match=r"SQLite 3\.35 or newer.*3\.31\.1"):
        tinyq.Queue()


@pytest.mark.parametrize("settings, field", [
    ({"lease": 0}, "lease"), ({"lease": -1.0}, "lease"), ({"lease": "30"}, "lease"),
    ({"max_attempts": 0}, "max_attempts"), ({"max_attempts": 2.5}, "max_attempts"),
    ({"backoff_base": -1.0}, "backoff_base"), ({"backoff_base": 10, "backoff_cap": 5}, "backoff_base"),
])
def test_bad_settings_name_the_field(settings, field, backend):
    with pytest.raises(ValueError, match=field):
        backend.module.Queue(backend.default, **settings)


# --- enqueue --------------------------------------------------------------------------------

def test_enqueue_writes_a_queued_job_due_now(make_queue, clock):
    queue = make_queue()
    first = queue.enqueue("email", {"to": "ada@example.com"})
    second = queue.enqueue("email", {"to": "alan@example.com"})
    assert (first, second) == (1, 2)
    job = row(queue, first)
    assert job["kind"] == "email" and job["status"] == "queued" and job["attempts"] == 0
    assert job["args"] == '{"to": "ada@example.com"}'
    assert job["run_at"] == clock.now and job["locked_until"] is None and job["token"] is None


def test_a_second_job_with_the_same_unique_key_is_refused(make_queue):
    queue = make_queue()
    assert queue.enqueue("email", {"to": "ada"}, unique_key="welcome:ada") == 1
    assert queue.enqueue("email", {"to": "ada"}, unique_key="welcome:ada") is None
    # ids never repeat; PostgreSQL's identity sequence even spends one on the refused insert
    assert queue.enqueue("email", {"to": "alan"}, unique_key="welcome:alan") > 1
    assert queue.enqueue("email", {}) is not None and queue.enqueue("email", {}) is not None
    assert count(queue) == 4  # the refused insert left nothing behind


def test_the_key_is_refused_even_after_the_first_job_is_done(make_queue):
    queue = make_queue()
    queue.enqueue("email", {}, unique_key="k")
    queue.ack(queue.claim())
    assert queue.enqueue("email", {}, unique_key="k") is None


def test_enqueue_joins_the_callers_transaction(make_queue):
    """The shop's signup: data change and jobs commit together, or not at all."""
    queue = make_queue()
    run(queue, "CREATE TABLE customers (email TEXT PRIMARY KEY)")
    with pytest.raises(RuntimeError, match="after its jobs"):
        with queue.transaction(queue.db):
            run(queue, "INSERT INTO customers VALUES ('ada@example.com')")
            queue.enqueue("email", {"email": "ada@example.com"}, unique_key="email:ada")
            queue.enqueue("points", {"email": "ada@example.com"}, unique_key="points:ada")
            raise RuntimeError("the signup fails after its jobs were written")
    assert count(queue) == 0
    assert run(queue, "SELECT count(*) FROM customers").fetchone()[0] == 0


@pytest.mark.parametrize("args, error, words", [
    (["ada"], TypeError, "args must be a dict"),
    ({"when": {1, 2}}, TypeError, "args must hold only JSON values"),
    ({"x": float("nan")}, TypeError, "args must hold only JSON values"),
])
def test_bad_args_are_refused_and_nothing_is_written(make_queue, args, error, words):
    queue = make_queue()
    with pytest.raises(error, match=words):
        queue.enqueue("email", args)
    assert count(queue) == 0


@pytest.mark.parametrize("delay", [-1, "5", None])
def test_a_bad_delay_is_refused(make_queue, delay):
    queue = make_queue()
    with pytest.raises(ValueError, match="delay"):
        queue.enqueue("email", {}, delay=delay)
    assert count(queue) == 0


def test_a_delayed_job_waits_for_its_run_at(make_queue, clock):
    queue = make_queue()
    queue.enqueue("reminder", {}, delay=60)
    clock.now += 59.9
    assert queue.claim() is None
    clock.now += 0.1
    assert queue.claim().kind == "reminder"


# --- claim ----------------------------------------------------------------------------------

def test_claim_takes_the_job_due_longest_and_leases_it(make_queue, clock):
    queue = make_queue(lease=30)
    queue.enqueue("later", {}, delay=5)
    queue.enqueue("first", {"n": 1})
    queue.enqueue("second", {"n": 2})
    clock.now += 10
    job = queue.claim()
    assert (job.id, job.kind, job.args, job.attempts) == (2, "first", {"n": 1}, 1)
    stored = row(queue, 2)
    assert stored["status"] == "running" and stored["attempts"] == 1
    assert stored["locked_until"] == clock.now + 30 and stored["token"] == job.token
    assert [queue.claim().id, queue.claim().id] == [3, 1]  # run_at order, then id
    assert queue.claim() is None


def test_equal_run_at_is_broken_by_id(make_queue):
    queue = make_queue()
    for n in range(5):
        queue.enqueue("email", {"n": n})
    assert [queue.claim().id for _ in range(5)] == [1, 2, 3, 4, 5]


def test_each_claim_gets_a_larger_fencing_token(make_queue, clock):
    queue = make_queue(lease=1)
    queue.enqueue("a", {})
    queue.enqueue("b", {})
    tokens = [queue.claim().token, queue.claim().token]
    clock.now += 1.5
    tokens.append(queue.claim().token)  # job 1 again: its lease ran out
    assert tokens == [1, 2, 3]


def test_tokens_keep_growing_after_jobs_finish(make_queue):
    """max(token) must never go down, or a stale claim could meet its own number again."""
    queue = make_queue()
    for _ in range(3):
        queue.enqueue("a", {})
    tokens = []
    for _ in range(3):
        job = queue.claim()
        tokens.append(job.token)
        queue.ack(job)
    assert tokens == [1, 2, 3]


def test_a_running_job_is_not_claimed_again_while_its_lease_holds(make_queue, clock):
    queue = make_queue(lease=5)
    queue.enqueue("email", {})
    first = queue.claim()
    clock.now += 5
    assert queue.claim() is None  # the lease covers [claim, claim + 5 s], both ends included
    clock.now += 0.01  # now > locked_until: the lease has run out
    again = queue.claim()
    assert (again.id, again.attempts) == (first.id, 2)
    assert again.token > first.token
    assert row(queue, first.id)["locked_until"] == clock.now + 5


def test_an_expired_lease_is_taken_before_waiting_jobs(make_queue, clock):
    queue = make_queue(lease=5)
    queue.enqueue("old", {})
    queue.claim()
    clock.now += 10
    queue.enqueue("new", {})
    assert queue.claim().kind == "old"


def test_done_and_dead_jobs_are_never_claimed(make_queue, clock):
    queue = make_queue(max_attempts=1, lease=1)
    queue.enqueue("ok", {})
    queue.enqueue("bad", {})
    queue.ack(queue.claim())
    queue.fail(queue.claim(), "ValueError: no")
    clock.now += 10_000
    assert queue.claim() is None


def test_two_connections_to_one_database_never_claim_the_same_job(make_queue, backend):
    left, right = make_queue(backend.place), make_queue(backend.place)
    for n in range(6):
        left.enqueue("email", {"n": n})
    claimed = []
    for _ in range(3):
        claimed += [left.claim(), right.claim()]
    assert sorted(job.id for job in claimed) == [1, 2, 3, 4, 5, 6]
    assert len({job.token for job in claimed}) == 6
    assert left.claim() is None and right.claim() is None


def test_concurrent_processes_never_claim_the_same_job(backend):
    """Real processes, real races: every job is claimed exactly once in all."""
    seed = backend.module.Queue(backend.place)
    for n in range(300):
        seed.enqueue("email", {"n": n})
    seed.close()
    wait = 'queue.db.execute("PRAGMA busy_timeout = 20000")' if backend.name == "sqlite" else ""
    program = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(CAPSTONE_TINYQ.parent)!r})
        import {backend.module.__name__} as engine
        queue = engine.Queue({backend.place!r})
        {wait}
        while (job := queue.claim()) is not None:
            print(job.id, flush=True)
    """)
    workers = [subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True)
               for _ in range(3)]
    outputs = [worker.communicate(timeout=120)[0] for worker in workers]
    assert all(worker.returncode == 0 for worker in workers)
    claimed = [int(line) for output in outputs for line in output.split()]
    assert sorted(claimed) == list(range(1, 301))


# --- the queue as a whole ---------------------------------------------------------------------

def test_a_stored_queue_survives_reopening(make_queue, backend, clock):
    path = backend.place
    first = make_queue(path)
    first.enqueue("email", {"to": "ada"}, unique_key="welcome:ada")
    first.claim()
    first.close()
    again = make_queue(path)
    assert again.enqueue("email", {"to": "ada"}, unique_key="welcome:ada") is None
    clock.now += 60
    job = again.claim()
    assert (job.args, job.attempts, job.token) == ({"to": "ada"}, 2, 2)


def test_the_module_stays_short_enough_to_type():
    lines = CAPSTONE_TINYQ.read_text().splitlines()
    assert len(lines) <= 300, len(lines)   # the brief: no module over ~300 lines
    assert not re.search(r"^import (threading|uuid)|^from (threading|uuid)", "\n".join(lines), re.M)
