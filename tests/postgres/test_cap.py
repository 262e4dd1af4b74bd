"""The delivery cap holds on PostgreSQL even when the burial of expired jobs skips a locked row.

The claim first buries the jobs whose lease ran out on their last attempt, stepping over rows
another session has locked (SKIP LOCKED); then it claims. If the lock is gone between the two,
a claim that does not check the cap itself takes the job once past max_attempts. Here a second
connection holds the job's row (SELECT ... FOR UPDATE) during the burial and lets go right after.
"""
import psycopg
import pytest

from tests.support.clock import FakeClock


def held_during_the_burial(queue, conninfo, job_id):
    """Lock the job's row from another connection, and unlock it just after the claim's burial."""
    holder = psycopg.connect(conninfo)
    holder.execute("SELECT id FROM jobs WHERE id = %s FOR UPDATE", (job_id,))
    execute = queue.db.execute

    def then_let_go(query, params=None):
        cursor = execute(query, params)
        if query == queue.BURY_EXPIRED:
            holder.commit()
            del queue.db.execute          # once only
        return cursor
    queue.db.execute = then_let_go
    return holder


def expire_on_its_last_attempt(queue, clock):
    queue.enqueue("email", {})
    for _ in range(queue.max_attempts):
        job = queue.claim()
        clock.now += queue.lease + 1
    return job


def test_a_job_locked_during_the_burial_is_not_claimed_past_its_cap(tinyq_pg, migrated):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, lease=5, max_attempts=2, clock=clock)
    job = expire_on_its_last_attempt(queue, clock)
    assert job.attempts == 2
    holder = held_during_the_burial(queue, migrated, job.id)
    assert queue.claim() is None                  # skipped by the burial, refused by the claim
    holder.close()
    assert queue.claim() is None                  # the next claim buries it
    status, attempts, error = queue.db.execute(
        "SELECT status, attempts, last_error FROM jobs WHERE id = %s", (job.id,)).fetchone()
    assert (status, attempts, error) == ("dead", 2, "lease expired on attempt 2 of 2")


def test_without_the_cap_in_the_claim_the_same_history_hands_out_a_third_attempt(
        tinyq_pg, migrated, monkeypatch):
    """The control: the claim as it was, with no cap of its own, takes the job a third time
    (so the test above can fail)."""
    uncapped = tinyq_pg.CLAIM_JOB.replace("AND attempts < %(max_attempts)s", "")
    assert "attempts <" not in uncapped
    monkeypatch.setattr(tinyq_pg.Queue, "CLAIM_JOB", uncapped)
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, lease=5, max_attempts=2, clock=clock)
    job = expire_on_its_last_attempt(queue, clock)
    holder = held_during_the_burial(queue, migrated, job.id)
    again = queue.claim()
    holder.close()
    assert again is not None and again.attempts == 3


@pytest.mark.parametrize("max_attempts", [1, 3])
def test_the_claim_never_returns_a_job_past_its_cap_with_the_row_held_throughout(
        tinyq_pg, migrated, max_attempts):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, lease=5, max_attempts=max_attempts, clock=clock)
    job = expire_on_its_last_attempt(queue, clock)
    with psycopg.connect(migrated) as holder:
        holder.execute("SELECT id FROM jobs WHERE id = %s FOR UPDATE", (job.id,))
        assert queue.claim() is None
    assert queue.db.execute("SELECT max(attempts) FROM jobs").fetchone()[0] == max_attempts
