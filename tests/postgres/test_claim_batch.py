"""Batch claims on PostgreSQL: Queue.claim_batch(n) takes up to n jobs in one statement.

Each job of a batch is claimed as claim() claims one: running, attempts + 1, a lease of its
own and a fencing token of its own, never past the cap. Two batch claimers at once never take
the same job: each pick locks its rows and steps over rows another claim holds (SKIP LOCKED).
The controls run the same histories with a guard taken out of the SQL, to show each test can
fail.
"""
import threading
import time
from collections import Counter

import psycopg
import pytest

from tests.postgres.test_cap import expire_on_its_last_attempt, held_during_the_burial
from tests.postgres.test_clock import FAST_WORKER, run_fast_worker
from tests.postgres.test_migrate import PROMPT
from tests.support.clock import FakeClock


def rows(queue):
    return queue.db.execute("SELECT id, status, attempts, token, locked_until, claimed_by "
                            "FROM jobs ORDER BY id").fetchall()


def test_a_batch_takes_up_to_n_jobs_each_with_its_own_lease_and_token(tinyq_pg, migrated):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, lease=5, clock=clock)
    for n in range(5):
        queue.enqueue("email", {"n": n})
    batch = queue.claim_batch(3, worker="w1")
    assert sorted(job.args["n"] for job in batch) == [0, 1, 2]       # the three due longest
    assert len({job.token for job in batch}) == 3
    by_id = {job.id: job for job in batch}
    for job_id, status, attempts, token, until, worker in rows(queue)[:3]:
        assert (status, attempts, until, worker) == ("running", 1, 1005.0, "w1")
        assert token == by_id[job_id].token and by_id[job_id].attempts == 1
    assert [job.args["n"] for job in queue.claim_batch(10)] == [3, 4]  # what is left
    assert queue.claim_batch(10) == []
    for job in batch:                                 # each ack is guarded by its own token
        queue.ack(job)
    assert Counter(row[1] for row in rows(queue)) == {"done": 3, "running": 2}


def test_expired_leases_come_first_and_a_job_out_of_attempts_is_buried_not_claimed(
        tinyq_pg, migrated):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, lease=5, max_attempts=2, clock=clock)
    queue.enqueue("report", {})
    first = queue.claim()
    queue.enqueue("email", {"n": 1})
    queue.enqueue("email", {"n": 2})
    clock.now += 6                                    # the report's lease ran out
    [again] = queue.claim_batch(1)
    assert (again.id, again.attempts) == (first.id, 2)
    assert again.token > first.token
    clock.now += 6                                    # and ran out on its last attempt
    batch = queue.claim_batch(5)
    assert sorted(job.args.get("n") for job in batch) == [1, 2]
    status, error = queue.db.execute("SELECT status, last_error FROM jobs WHERE id = %s",
                                     (first.id,)).fetchone()
    assert (status, error) == ("dead", "lease expired on attempt 2 of 2")


def test_the_cap_holds_in_a_batch_when_the_job_was_locked_during_the_burial(tinyq_pg, migrated):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, lease=5, max_attempts=2, clock=clock)
    job = expire_on_its_last_attempt(queue, clock)
    holder = held_during_the_burial(queue, migrated, job.id)
    assert queue.claim_batch(5) == []                 # skipped by the burial, refused here
    holder.close()
    assert queue.db.execute("SELECT max(attempts) FROM jobs").fetchone()[0] == 2


def test_the_control_a_batch_with_no_cap_of_its_own_hands_out_a_third_attempt(
        tinyq_pg, migrated, monkeypatch):
    uncapped = tinyq_pg.CLAIM_BATCH.replace("AND attempts < %(max_attempts)s", "")
    assert "attempts <" not in uncapped
    monkeypatch.setattr(tinyq_pg, "CLAIM_BATCH", uncapped)
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, lease=5, max_attempts=2, clock=clock)
    job = expire_on_its_last_attempt(queue, clock)
    holder = held_during_the_burial(queue, migrated, job.id)
    batch = queue.claim_batch(5)
    holder.close()
    assert [j.attempts for j in batch] == [3]


def waits_for_a_lock(conninfo, pid):
    with psycopg.connect(conninfo) as db:
        return db.execute("SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = %s",
                          (pid,)).fetchone()[0]


def claim_while_another_batch_is_uncommitted(tinyq_pg, migrated):
    """The first claimer's batch is claimed but not committed (its row locks held) while a
    second claimer asks for as many; the first commits once the second has answered or is
    waiting for a lock. Returns (first's jobs, second's jobs)."""
    first = tinyq_pg.Queue(migrated, lease=30)
    second = tinyq_pg.Queue(migrated, lease=30)
    for n in range(6):
        first.enqueue("email", {"n": n})
    pid = second.db.raw.info.backend_pid
    with first.transaction(first.db):
        mine = first.claim_batch(3)
        outcome = {}
        thread = threading.Thread(target=lambda: outcome.update(jobs=second.claim_batch(3)))
        thread.start()
        give_up = time.monotonic() + PROMPT
        while (thread.is_alive() and not waits_for_a_lock(migrated, pid)
               and time.monotonic() < give_up):
            thread.join(0.01)
    thread.join(PROMPT)
    assert not thread.is_alive()
    return mine, outcome["jobs"]


def test_two_batch_claimers_at_once_never_take_the_same_job(tinyq_pg, migrated):
    mine, theirs = claim_while_another_batch_is_uncommitted(tinyq_pg, migrated)
    assert len(mine) == len(theirs) == 3
    assert not {job.id for job in mine} & {job.id for job in theirs}
    assert {job.token for job in mine}.isdisjoint(job.token for job in theirs)


def test_the_control_without_locks_or_guards_the_second_claimer_takes_the_same_jobs(
        tinyq_pg, migrated, monkeypatch):
    sql = tinyq_pg.CLAIM_BATCH
    unguarded = sql.replace(" FOR UPDATE SKIP LOCKED", "").split("   AND (status = 'queued'")[0]
    assert "SKIP LOCKED" not in unguarded and unguarded.count("AND (status") == 0
    monkeypatch.setattr(tinyq_pg, "CLAIM_BATCH", unguarded + "\nRETURNING id, kind, args, "
                        "attempts, token")
    mine, theirs = claim_while_another_batch_is_uncommitted(tinyq_pg, migrated)
    assert {job.id for job in mine} == {job.id for job in theirs}
    assert {job.attempts for job in theirs} == {2}


def test_four_batch_claimers_on_their_own_connections_claim_each_job_once(tinyq_pg, migrated):
    queue = tinyq_pg.Queue(migrated)
    with queue.transaction(queue.db):
        for n in range(400):
            queue.enqueue("email", {"n": n})
    claimed, errors = [], []

    def claimer(name):
        try:
            mine = tinyq_pg.Queue(migrated)
            while batch := mine.claim_batch(7, worker=name):
                for job in batch:
                    mine.ack(job)
                claimed.extend((job.id, job.token, job.attempts) for job in batch)
        except Exception as error:        # handed to the test, which shows it
            errors.append(error)
    threads = [threading.Thread(target=claimer, args=(f"w{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    ids = Counter(job_id for job_id, _, _ in claimed)
    assert len(ids) == 400 and set(ids.values()) == {1}
    assert len({token for _, token, _ in claimed}) == 400
    assert {attempts for _, _, attempts in claimed} == {1}
    done, workers = queue.db.execute("SELECT count(*) FILTER (WHERE status = 'done'), "
                                     "count(DISTINCT claimed_by) FROM jobs").fetchone()
    assert done == 400 and workers >= 2


@pytest.mark.parametrize("n", [0, -1, 2.5, True, "3"])
def test_a_batch_size_that_is_not_a_whole_number_from_1_is_refused(tinyq_pg, migrated, n):
    with pytest.raises(ValueError, match="n must be a whole number of jobs from 1"):
        tinyq_pg.Queue(migrated).claim_batch(n)


@pytest.mark.parametrize("skew", [3, 40])
def test_a_batch_claimer_whose_clock_runs_fast_takes_over_no_live_job(tinyq_pg, migrated, skew):
    holder = tinyq_pg.Queue(migrated, lease=2, max_attempts=1)
    holder.enqueue("email", {})
    job = holder.claim(worker="holder")
    program = FAST_WORKER.replace('queue.claim(worker="fast")',
                                  'next(iter(queue.claim_batch(5, worker="fast")), None)')
    assert program != FAST_WORKER
    assert run_fast_worker(migrated, skew, program=program) == "none"
    holder.ack(job)                                  # still this claim's: the ack counts
    assert holder.db.execute("SELECT status, claimed_by FROM jobs").fetchone() == ("done", "holder")
