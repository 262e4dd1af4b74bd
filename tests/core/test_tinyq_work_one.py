"""Unit tests for tinyq's worker loop, work_one(): claim, run the handler, then ack, fail or
release, and a lost lease or a crash handled as tinyq promises. Each runs on SQLite and on
PostgreSQL, as tests/core/test_tinyq.py's do (tests/core/conftest.py).
"""
import pytest

from tests.core.jobs_table import row
from tests.core.points_table import add_points, points, points_queue


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
    """It used to be re-raised, killing the worker over a job that was done."""
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
