"""UNFINISHED_JOBS, the question every step of live-queue and payments asks ("is any job left to
do?"): the same answer as reading every row, found through tinyq's partial indexes instead."""
import pytest

from simulations import LiveQueue, Payments
from simulations.engine.simulation import UNFINISHED_JOBS

EVERY_ROW = "SELECT 1 FROM jobs WHERE status IN ('queued', 'running') LIMIT 1"


def test_it_reads_the_partial_indexes_not_every_row():
    db = LiveQueue({"jobs": 100}).queue.db
    plan = " | ".join(row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + UNFINISHED_JOBS))
    assert "USING INDEX jobs_due" in plan and "USING INDEX jobs_leased" in plan, plan
    assert "SCAN jobs\n" not in plan + "\n" and not plan.endswith("SCAN jobs"), plan
    every_row = " | ".join(row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + EVERY_ROW))
    assert "SCAN jobs" in every_row          # what it replaces: this test can tell them apart


@pytest.mark.parametrize("sim", [
    LiveQueue({"workers": 3, "jobs": 12, "lease": 2, "duration": 1, "crash": 0.3, "supervisor": True}, seed=4),
    Payments({"charges": 8, "max_attempts": 2}, seed=11),
], ids=["live-queue", "payments"])
def test_it_answers_as_reading_every_row_would(sim):
    db = sim.queue.db
    answers = []
    for _ in range(2000):
        expected = db.execute(EVERY_ROW).fetchone() is not None
        assert bool(db.execute(UNFINISHED_JOBS).fetchone()[0]) is expected
        answers.append(expected)
        if not sim.step():
            break
    assert True in answers and answers[-1] is False    # it saw work left, and then none
