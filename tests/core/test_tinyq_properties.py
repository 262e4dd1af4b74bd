"""Property-based tests: tests/core/queue_machine.py drives tinyq through random histories and
checks its promises after every step (no job lost, no two live claims on one job, none finished
twice, complete()'s effect exactly once, the delivery cap, a healthy worker can drain the queue).

The machine runs on SQLite (tinyq.py) and on PostgreSQL (tinyq_pg.py, on the session's real
server, as many examples as SQLite's, not the same ones each run; TINYQ_PG_EXAMPLES sets more).

The negative controls run the same machine against two broken doubles (a finish without
the token check, a look-then-grab claim) and require hypothesis to find a violation: the
properties are able to fail.
"""
import os

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from tests.core.conftest import load_tinyq_pg
from tests.core.queue_machine import HUNT, SETTINGS, PropertyViolated, QueueMachine
from tests.support.capstone import tinyq


def test_tinyq_keeps_its_promises_in_random_histories():
    run_state_machine_as_test(QueueMachine, settings=SETTINGS)


# As many examples as SQLite's, and new ones each run (a failure prints the seed that replays
# it); a nightly run can ask for more: TINYQ_PG_EXAMPLES=3000.
PG_SETTINGS = settings(SETTINGS, max_examples=int(os.environ.get("TINYQ_PG_EXAMPLES", "300")),
                       derandomize=False, print_blob=True)


def test_tinyq_on_postgresql_keeps_the_same_promises(pg_server):
    import psycopg
    conninfo = pg_server.migrated_schema()

    class PostgresMachine(QueueMachine):
        queue_class = load_tinyq_pg().Queue

        def place(self):
            # One migrated schema, emptied for each example (the last example's queue is
            # closed): ids and tokens start again from 1, as in a fresh database, at a small
            # part of the cost of a new schema and its migrations each time.
            with psycopg.connect(conninfo, autocommit=True) as db:
                db.execute("TRUNCATE jobs RESTART IDENTITY; ALTER SEQUENCE jobs_token RESTART; "
                           "DROP TABLE IF EXISTS effects")
            return conninfo

    run_state_machine_as_test(PostgresMachine, settings=PG_SETTINGS)


# --- negative controls: the same properties catch broken queues -----------------------------

class UnfencedQueue(tinyq.Queue):
    """A test double of the finish: every finishing UPDATE matches on the id alone."""

    UNFENCED = {
        tinyq.MARK_DONE: "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = :id",
        tinyq.MARK_RETRY: "UPDATE jobs SET status = 'queued', run_at = :run_at, "
                          "locked_until = NULL, last_error = :error WHERE id = :id",
        tinyq.MARK_DEAD: "UPDATE jobs SET status = 'dead', locked_until = NULL, "
                         "last_error = :error WHERE id = :id",
        tinyq.EXTEND_LEASE: "UPDATE jobs SET locked_until = :until WHERE id = :id "
                            "AND status = 'running'",
        tinyq.RELEASE_JOB: "UPDATE jobs SET status = 'queued', run_at = :now, locked_until = NULL, "
                           "attempts = attempts - 1 WHERE id = :id",
    }

    def _guarded(self, job, statement, params):
        cursor = self.db.execute(self.UNFENCED[statement], {"id": job.id, **params})
        if cursor.rowcount != 1:
            raise tinyq.LeaseLost(f"job {job.id} is gone")


class LookThenGrab:
    """The two-statement claim: look for a claimable job, then take it by id, unconditionally."""

    def look(self, queue):
        found = queue.db.execute(
            "SELECT id FROM jobs WHERE (status = 'queued' AND run_at <= :now) "
            "OR (status = 'running' AND locked_until < :now) ORDER BY run_at, id LIMIT 1",
            {"now": queue.clock()}).fetchone()
        return None if found is None else found[0]

    def grab(self, queue, looked):
        if looked is None:
            return None
        rows = queue.db.execute(
            "UPDATE jobs SET status = 'running', attempts = attempts + 1, "
            "locked_until = :now + :lease, token = (SELECT last_token + 1 FROM tokens) "
            "WHERE id = :id RETURNING id, kind, args, attempts, token",
            {"now": queue.clock(), "lease": queue.lease, "id": looked}).fetchall()
        queue.db.execute(tinyq.TOKEN_TAKEN)
        job_id, kind, args, attempts, token = rows[0]
        return tinyq.Job(job_id, kind, {}, attempts, token, queue)


class UnfencedMachine(QueueMachine):
    queue_class = UnfencedQueue


class LookThenGrabMachine(QueueMachine):
    claim_method = LookThenGrab()


@pytest.mark.parametrize("machine", [UnfencedMachine, LookThenGrabMachine])
def test_the_properties_catch_a_broken_queue(machine):
    with pytest.raises(PropertyViolated):
        run_state_machine_as_test(machine, settings=HUNT)


def test_the_properties_catch_a_queue_without_the_delivery_cap(monkeypatch):
    """The claim's first statement is the cap; make it do nothing, and a job whose lease keeps
    running out is handed out a fourth time."""
    monkeypatch.setattr(tinyq.Queue, "BURY_EXPIRED", "SELECT :now, :max_attempts")
    with pytest.raises(PropertyViolated, match="attempt 4 of 3"):
        run_state_machine_as_test(QueueMachine, settings=HUNT)
