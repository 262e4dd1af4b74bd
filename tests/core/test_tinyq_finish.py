"""Unit tests for tinyq, finishing a claim: ack, fail (backoff and jitter, dead letters) and
complete(), which commits the handler's own writes with the ack. Each runs on SQLite and on
PostgreSQL, as tests/core/test_tinyq.py's do (tests/core/conftest.py).
"""
import random

import pytest

from tests.core.jobs_table import in_transaction, row, run
from tests.core.points_table import add_points, points, points_queue
from tests.support.capstone import tinyq


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
