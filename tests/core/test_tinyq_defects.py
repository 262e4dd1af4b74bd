"""The defects an expert review of tinyq found, one test (or a few) each, and the gains
that came with their fixes (extend, release, Permanent, the new columns, the lease rule, the CHECK,
one transaction helper). Each defect test fails on the tinyq before the fix (a9dec96).

A test that takes `make_queue` runs on both engines, SQLite (tinyq.py) and PostgreSQL
(tinyq_pg.py on a real server), as tests/core/test_tinyq.py does (tests/core/conftest.py). The
first defect, workers dying of lock contention, is SQLite's alone: tests/core/test_tinyq_busy.py.
"""
import sqlite3

import pytest

from tests.core.jobs_table import in_transaction, row
from tests.support.capstone import tinyq


# --- defect 2: a job whose work outlives its lease was redelivered for ever -------------------

def test_the_delivery_cap_makes_a_job_dead_when_its_last_lease_runs_out(make_queue, clock):
    queue = make_queue(lease=1, max_attempts=3)
    queue.enqueue("slow", {})
    tokens = []
    for attempt in range(1, 4):
        job = queue.claim()
        assert job.attempts == attempt
        tokens.append(job.token)
        clock.now += 1.5                # the work outlives the lease; nobody acks
    assert queue.claim() is None
    got = row(queue, 1)
    assert got["status"] == "dead" and got["locked_until"] is None
    assert got["last_error"] == "lease expired on attempt 3 of 3"
    clock.now += 1000
    assert queue.claim() is None


def test_the_cap_only_buries_a_job_whose_lease_ran_out(make_queue, clock):
    queue = make_queue(lease=1, max_attempts=1)
    queue.enqueue("a", {})
    queue.enqueue("b", {})
    first = queue.claim()
    clock.now += 1                      # exactly at the end of the lease: it still holds
    second = queue.claim()
    assert second.id != first.id and row(queue, first.id)["status"] == "running"
    queue.ack(first)
    assert row(queue, first.id)["status"] == "done"


# --- defect 3: fencing tokens (and ids) repeated after a delete -------------------------------

def test_after_a_retention_delete_a_stale_claim_cannot_finish_a_new_job(make_queue, clock):
    queue = make_queue(lease=5)
    queue.enqueue("report", {})
    stale = queue.claim()               # worker A, which then stalls
    clock.now += 6
    queue.ack(queue.claim())            # worker B takes over and finishes
    queue.db.execute("DELETE FROM jobs WHERE status = 'done'")   # the retention everyone adds
    queue.enqueue("charge", {})
    fresh = queue.claim()
    assert (fresh.id, fresh.token) != (stale.id, stale.token)
    assert fresh.id > stale.id and fresh.token > 2
    with pytest.raises(tinyq.LeaseLost):
        queue.ack(stale)                # A's late ack must not finish a job that never ran
    assert row(queue, fresh.id)["status"] == "running"


def test_the_token_counter_survives_reopening_and_starts_above_old_tokens(make_queue):
    path = make_queue.backend.place
    first = make_queue(path)
    first.enqueue("a", {})
    first.ack(first.claim())
    first.db.execute("DELETE FROM jobs")
    first.close()
    again = make_queue(path)
    again.enqueue("a", {})
    assert again.claim().token == 2


# --- the lease rule, decided once -----------------------------------------------------------

def test_a_lease_covers_both_ends_and_is_taken_over_only_after_it(make_queue, clock):
    """A lease of L seconds claimed at t covers [t, t + L]; a takeover needs now > t + L."""
    queue = make_queue(lease=5)
    queue.enqueue("email", {})
    holder = queue.claim()
    assert row(queue, holder.id)["locked_until"] == clock.now + 5
    clock.now += 5
    assert queue.claim() is None        # at exactly t + L nobody may take it
    queue.ack(holder)                   # and the holder's ack still counts
    assert row(queue, holder.id)["status"] == "done"


def test_the_claim_sql_says_the_rule(backend):
    now = ":now" if backend.name == "sqlite" else backend.sql_module.NOW
    sql = backend.sql_module
    assert f"locked_until < {now}" in sql.CLAIM_JOB and "locked_until <=" not in sql.CLAIM_JOB
    assert f"locked_until < {now}" in sql.BURY_EXPIRED
    assert "now > " in tinyq.__doc__ and "[t, t + L]" in tinyq.__doc__


# --- the schema guards its invariant: running if, and only if, leased -------------------------

@pytest.mark.parametrize("status, locked_until", [("running", None), ("queued", 5.0),
                                                  ("done", 5.0), ("dead", 5.0)])
def test_the_check_refuses_a_lease_that_does_not_match_the_status(make_queue, status, locked_until):
    queue = make_queue()
    queue.enqueue("a", {})
    with pytest.raises(make_queue.backend.integrity_error, match="(?i)check"):
        queue.db.execute("UPDATE jobs SET status = ?, locked_until = ?", (status, locked_until))


# --- extend, release, Permanent, and the new columns ------------------------------------------

def test_extend_renews_the_lease_while_the_token_holds(make_queue, clock):
    queue = make_queue(lease=5)
    queue.enqueue("long", {})
    job = queue.claim()
    clock.now += 4
    assert queue.extend(job) == clock.now + 5
    clock.now += 4                      # past the first lease, inside the renewed one
    assert queue.claim() is None
    assert queue.extend(job, lease=60) == clock.now + 60
    assert row(queue, job.id)["locked_until"] == clock.now + 60


def test_extend_says_the_lease_is_lost_once_another_claim_holds_the_job(make_queue, clock):
    queue = make_queue(lease=5)
    queue.enqueue("long", {})
    job = queue.claim()
    clock.now += 6
    other = queue.claim()
    with pytest.raises(tinyq.LeaseLost):
        queue.extend(job)
    assert row(queue, job.id)["token"] == other.token
    assert row(queue, job.id)["locked_until"] == clock.now + 5


def test_release_hands_the_job_back_at_once_without_counting_the_attempt(make_queue, clock):
    queue = make_queue(lease=60)
    queue.enqueue("email", {})
    job = queue.claim()
    queue.release(job)
    assert job.outcome == "queued"
    got = row(queue, job.id)
    assert (got["status"], got["attempts"], got["locked_until"]) == ("queued", 0, None)
    again = queue.claim()               # no wait for the lease
    assert (again.id, again.attempts) == (job.id, 1) and again.token > job.token
    with pytest.raises(tinyq.LeaseLost):
        queue.release(job)              # fenced: the old claim cannot hand back the new one


def test_a_permanent_error_makes_the_job_dead_at_once(make_queue):
    queue = make_queue(max_attempts=5)

    @queue.handler("charge")
    def charge(job):
        raise tinyq.Permanent("card declined")

    queue.enqueue("charge", {})
    job = queue.work_one()
    got = row(queue, job.id)
    assert (job.outcome, got["status"], got["attempts"]) == ("dead", "dead", 1)
    assert got["last_error"] == "Permanent: card declined"


def test_the_new_columns_say_when_and_by_whom(make_queue, clock):
    queue = make_queue()
    queue.enqueue("email", {}, delay=30)
    assert row(queue, 1)["created_at"] == clock.now and row(queue, 1)["run_at"] == clock.now + 30
    clock.now += 40
    queue.claim("worker-7")
    got = row(queue, 1)
    assert (got["claimed_at"], got["claimed_by"]) == (clock.now, "worker-7")


def test_a_file_from_an_older_tinyq_is_refused_with_a_clear_message(tmp_path):   # SQLite: a file
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE jobs (id INTEGER PRIMARY KEY, kind TEXT, args TEXT, status TEXT, "
                "attempts INTEGER, run_at REAL, locked_until REAL, token INTEGER, "
                "unique_key TEXT UNIQUE, last_error TEXT)")
    old.close()
    with pytest.raises(RuntimeError, match="older tinyq: delete the file"):
        tinyq.Queue(str(path))


# --- one transaction helper -----------------------------------------------------------------

def test_transaction_commits_the_block_or_rolls_it_all_back(make_queue):
    queue = make_queue()
    queue.db.execute("CREATE TABLE t (n INTEGER)")
    transaction = make_queue.backend.module.transaction
    with transaction(queue.db) as db:
        db.execute("INSERT INTO t VALUES (1)")
        queue.enqueue("a", {})
    for failure in (ValueError, KeyboardInterrupt):
        with pytest.raises(failure):
            with transaction(queue.db) as db:
                db.execute("INSERT INTO t VALUES (2)")
                queue.enqueue("b", {})
                raise failure
    assert queue.db.execute("SELECT count(*) FROM t").fetchone()[0] == 1
    assert queue.db.execute("SELECT count(*) FROM jobs").fetchone()[0] == 1
    assert not in_transaction(queue.db)


# --- the simulations use it: chapter 5's lease of 1 s for a job of 3 s -------------------------

def test_chapter_5s_too_short_lease_ends_in_dead_jobs_not_endless_duplicates():
    """Before the cap, this ran on: 588 attempts and 592 duplicate emails in 600 s."""
    from simulations.live_queue import LiveQueue
    sim = LiveQueue({"workers": 3, "jobs": 6, "lease": 1, "duration": 3})
    while not sim.run(until=600):
        pass
    snap = sim.snapshot()
    assert snap["finished"] and snap["time"] < 60
    statuses = [row["status"] for row in snap["jobs"]]
    assert "dead" in statuses and set(statuses) <= {"done", "dead"}
    assert all(row["attempts"] <= 5 for row in snap["jobs"])
    assert "dead (the lease ran out on the last of 5 attempts)" in snap["outcome"]
    assert any("on its last attempt (5 of 5): the next claim marks it dead" in event["text"]
               for event in snap["events"])
