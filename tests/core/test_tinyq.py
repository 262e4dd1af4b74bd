"""Unit tests for tinyq: one test (or a few) per rule of the capstone's queue.

Each test that takes `backend` runs twice: on SQLite (tinyq.py) and on PostgreSQL (tinyq_pg.py,
on a real server): one contract for both engines (tests/core/conftest.py).
"""
import random
import re
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from tests.core.jobs_table import count, in_transaction, row, run
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


def test_the_sql_never_reads_a_clock(backend):
    statements = [value for name, value in vars(backend.sql_module).items() if name.isupper()
                  and isinstance(value, str)]
    assert len(statements) >= 10
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


# --- ack and fail -------------------------------------------------------------------------

def test_ack_marks_done_once(make_queue):
    queue = make_queue()
    queue.enqueue("email", {})
    job = queue.claim()
    queue.ack(job)
    assert row(queue, job.id)["status"] == "done" and job.outcome == "done"
    assert row(queue, job.id)["locked_until"] is None
    with pytest.raises(tinyq.LeaseLost):
        queue.ack(job)


def test_a_stale_claim_cannot_finish_the_job(make_queue, clock):
    queue = make_queue(lease=5)
    queue.enqueue("email", {})
    slow = queue.claim()
    clock.now += 6
    fast = queue.claim()
    before = row(queue, slow.id)
    for finish in (lambda: queue.ack(slow), lambda: queue.fail(slow, "TimeoutError")):
        with pytest.raises(tinyq.LeaseLost, match=f"job {slow.id} .*token {slow.token}"):
            finish()
        assert row(queue, slow.id) == before  # nothing written
    queue.ack(fast)
    assert row(queue, fast.id)["status"] == "done"


def test_a_slow_worker_may_still_ack_if_nobody_took_its_job(make_queue, clock):
    """The token fences out other claims, not the clock: an expired but unclaimed lease still acks."""
    queue = make_queue(lease=5)
    queue.enqueue("email", {})
    job = queue.claim()
    clock.now += 60
    queue.ack(job)
    assert row(queue, job.id)["status"] == "done"


def test_fail_schedules_a_retry_with_backoff_and_jitter(make_queue, clock):
    queue = make_queue(backoff_base=2.0, backoff_cap=100.0, rng=random.Random(3))
    queue.enqueue("charge", {})
    job = queue.claim()
    assert queue.fail(job, "ConnectionError: bank unreachable") == "queued"
    stored = row(queue, job.id)
    expected = clock.now + tinyq.jitter(tinyq.backoff(1, 2.0, 100.0), random.Random(3))
    assert stored["run_at"] == pytest.approx(expected)
    assert clock.now + 1.0 <= stored["run_at"] <= clock.now + 2.0
    assert stored["status"] == "queued" and stored["locked_until"] is None
    assert stored["last_error"] == "ConnectionError: bank unreachable"
    assert queue.claim() is None  # not before its run_at


def test_retries_wait_longer_each_time_then_the_job_is_dead(make_queue, clock):
    queue = make_queue(max_attempts=4, backoff_base=1.0, backoff_cap=3.0)
    queue.enqueue("charge", {})
    waits = []
    for attempt in range(1, 5):
        job = queue.claim()
        assert job.attempts == attempt
        state = queue.fail(job, f"TimeoutError: attempt {attempt}")
        if state == "queued":
            waits.append(row(queue, job.id)["run_at"] - clock.now)
            clock.now = row(queue, job.id)["run_at"]
    assert state == "dead"
    # equal jitter keeps each wait within [delay/2, delay] of 1, 2, 4 capped at 3 seconds
    for wait, delay in zip(waits, [1.0, 2.0, 3.0]):
        assert delay / 2 <= wait <= delay
    stored = row(queue, 1)
    assert stored["status"] == "dead" and stored["attempts"] == 4
    assert stored["last_error"] == "TimeoutError: attempt 4"


def test_max_attempts_one_means_no_retry(make_queue):
    queue = make_queue(max_attempts=1)
    queue.enqueue("charge", {})
    assert queue.fail(queue.claim(), "boom") == "dead"


def test_backoff_doubles_up_to_the_cap():
    assert [tinyq.backoff(n, 1.0, 300.0) for n in range(1, 8)] == [1, 2, 4, 8, 16, 32, 64]
    assert tinyq.backoff(20, 1.0, 300.0) == 300.0
    assert tinyq.backoff(3, 0.2, 5.0) == pytest.approx(0.8)
    assert tinyq.backoff(3, 0.2, 5.0) == tinyq.backoff(3, 0.2, 5.0)


def test_jitter_spreads_a_delay_over_its_upper_half_reproducibly():
    spread = [tinyq.jitter(8.0, random.Random(seed)) for seed in range(200)]
    assert all(4.0 <= value <= 8.0 for value in spread)
    assert max(spread) - min(spread) > 3.0  # really spread, not a constant
    assert tinyq.jitter(8.0, random.Random(5)) == tinyq.jitter(8.0, random.Random(5))
    assert tinyq.jitter(0.0, random.Random(5)) == 0.0


# --- complete(): the effect and the ack in one transaction ------------------------------

def points_queue(make_queue, **settings):
    queue = make_queue(**settings)
    run(queue, "CREATE TABLE customers (email TEXT PRIMARY KEY, points INTEGER NOT NULL)")
    run(queue, "INSERT INTO customers VALUES ('ada', 0)")
    queue.enqueue("points", {"email": "ada"})
    return queue


def points(queue):
    return run(queue, "SELECT points FROM customers WHERE email = 'ada'").fetchone()[0]


def add_points(db):
    db.execute("UPDATE customers SET points = points + 10 WHERE email = 'ada'")


def test_complete_commits_the_handlers_writes_with_the_done_mark(make_queue):
    queue = points_queue(make_queue)
    job = queue.claim()
    with job.complete() as db:
        assert db is queue.db and in_transaction(db)
        add_points(db)
    assert points(queue) == 10 and row(queue, job.id)["status"] == "done"
    assert job.outcome == "done" and not in_transaction(queue.db)


def test_complete_rolls_everything_back_when_the_lease_was_lost(make_queue, clock):
    queue = points_queue(make_queue, lease=5)
    slow = queue.claim()
    clock.now += 6
    fast = queue.claim()
    with pytest.raises(tinyq.LeaseLost):
        with slow.complete() as db:
            add_points(db)
    assert points(queue) == 0 and row(queue, slow.id)["token"] == fast.token
    assert row(queue, slow.id)["status"] == "running" and not in_transaction(queue.db)
    with fast.complete() as db:
        add_points(db)
    assert points(queue) == 10


def test_complete_rolls_back_when_the_block_raises(make_queue):
    queue = points_queue(make_queue)
    job = queue.claim()
    with pytest.raises(ZeroDivisionError):
        with job.complete() as db:
            add_points(db)
            1 / 0
    assert points(queue) == 0 and row(queue, job.id)["status"] == "running"
    assert job.outcome is None and not in_transaction(queue.db)


def test_a_crash_inside_complete_leaves_no_trace(make_queue):
    """A BaseException (the process dying) rolls back as well: the retry starts clean."""
    queue = points_queue(make_queue)
    job = queue.claim()
    with pytest.raises(KeyboardInterrupt):
        with job.complete() as db:
            add_points(db)
            raise KeyboardInterrupt
    assert points(queue) == 0 and not in_transaction(queue.db)


# --- work_one --------------------------------------------------------------------------------

def test_work_one_with_nothing_to_do_returns_none(make_queue):
    assert make_queue().work_one() is None


def test_work_one_runs_the_handler_and_acks(make_queue):
    queue = make_queue()
    seen = []

    @queue.handler("email")
    def send(job):
        seen.append((job.args["to"], job.attempts))

    queue.enqueue("email", {"to": "ada"})
    job = queue.work_one()
    assert seen == [("ada", 1)] and job.outcome == "done"
    assert row(queue, job.id)["status"] == "done"


def test_work_one_fails_a_job_whose_handler_raises(make_queue):
    queue = make_queue(max_attempts=2)

    @queue.handler("charge")
    def charge(job):
        raise TimeoutError("no reply from the bank")

    queue.enqueue("charge", {})
    assert queue.work_one().outcome == "queued"
    stored = row(queue, 1)
    assert stored["status"] == "queued"
    assert stored["last_error"] == "TimeoutError: no reply from the bank"


def test_work_one_fails_a_job_nobody_can_handle(make_queue):
    queue = make_queue(max_attempts=1)
    queue.enqueue("mystery", {})
    assert queue.work_one().outcome == "dead"
    assert row(queue, 1)["last_error"] == "LookupError: no handler registered for kind 'mystery'"


def test_work_one_does_not_ack_twice_after_complete(make_queue):
    queue = points_queue(make_queue)

    @queue.handler("points")
    def award(job):
        with job.complete() as db:
            add_points(db)

    job = queue.work_one()
    assert job.outcome == "done" and points(queue) == 10


def test_work_one_reports_a_lost_lease_instead_of_raising(make_queue, clock):
    queue = points_queue(make_queue, lease=5)
    rival = []

    @queue.handler("points")
    def award(job):
        clock.now += 6  # this worker is slow: its lease runs out
        rival.append(queue.claim())  # and another worker takes the job
        with job.complete() as db:
            add_points(db)

    job = queue.work_one()
    assert job.outcome == "lease lost" and points(queue) == 0
    assert row(queue, job.id)["token"] == rival[0].token
    assert row(queue, job.id)["status"] == "running"


def test_work_one_reports_a_lost_lease_on_a_plain_ack(make_queue, clock):
    queue = make_queue(lease=5)

    @queue.handler("email")
    def send(job):
        clock.now += 6
        queue.claim()

    queue.enqueue("email", {})
    assert queue.work_one().outcome == "lease lost"


def test_a_crash_in_a_handler_passes_through_and_the_lease_recovers_the_job(make_queue, clock):
    queue = make_queue(lease=5)
    crash = [True]

    @queue.handler("email")
    def send(job):
        if crash.pop():
            raise KeyboardInterrupt  # stands for the process dying

    queue.enqueue("email", {})
    with pytest.raises(KeyboardInterrupt):
        queue.work_one()
    assert row(queue, 1)["status"] == "running"
    assert queue.work_one() is None
    crash.append(False)
    clock.now += 5.5
    job = queue.work_one()
    assert (job.outcome, job.attempts) == ("done", 2)


def test_an_error_after_complete_committed_is_logged_and_the_job_stays_done(make_queue, caplog):
    """Issue 20, defect 4: it used to be re-raised, killing the worker over a job that was done."""
    queue = points_queue(make_queue)

    @queue.handler("points")
    def award(job):
        with job.complete() as db:
            add_points(db)
        raise RuntimeError("a bug after the commit")

    queue.enqueue("points", {"email": "ada"})
    jobs = [queue.work_one(), queue.work_one()]   # the worker carries on to the next job
    assert [job.outcome for job in jobs] == ["done", "done"]
    assert row(queue, 1)["status"] == "done" and points(queue) == 20
    assert [r.exc_info[0] for r in caplog.records] == [RuntimeError, RuntimeError]
    assert "job 1 is done" in caplog.records[0].getMessage()


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
