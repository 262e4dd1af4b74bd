"""The checks of stage 4, for check.py: complete() commits the handler's own writes with
the ack, or neither, and a worker that lost its lease or a handler that raised after the
commit leaves the job as it should. Times are seconds.
"""
import logging

from check_stages import SETTINGS, check, claim_one, expect, expect_status, queues, rows_in


# --- stage 4: complete() ---------------------------------------------------------------------

def points_queue(tinyq, path, rng, count=1):
    made = queues(tinyq, path, rng, count=count)
    made[0].db.execute("CREATE TABLE IF NOT EXISTS points (email TEXT, points INTEGER)")
    made[0].enqueue("award", {"email": "ada@example.com"})
    return made


def award(job):
    with job.complete() as db:
        db.execute("INSERT INTO points VALUES (?, 10)", (job.args["email"],))


@check(4, "complete() commits the handler's writes together with the ack")
def complete_commits(tinyq, path, rng):
    q, _ = points_queue(tinyq, path, rng)
    q.handler("award")(award)
    job = q.work_one()
    expect_status(path, 1, "done", "a handler that finished with complete()", q)
    outcome = getattr(job, "outcome", None)
    expect(outcome == "done", f"job 1 was acked again after complete() had finished it (its "
                              f"outcome is {outcome!r}; it should be 'done'): work_one() must "
                              "not ack a job whose outcome the handler already set")
    points = rows_in(path, "points")
    expect(points == 1, f"after complete(), the points table has {points} rows; the handler's "
                        "one INSERT should be committed")
    expect(not q.db.in_transaction, "complete() left a transaction open on queue.db")


@check(4, "a handler that raises inside complete() leaves nothing behind")
def complete_rolls_back(tinyq, path, rng):
    q, _ = points_queue(tinyq, path, rng)

    @q.handler("award")
    def award_then_fail(job):
        with job.complete() as db:
            db.execute("INSERT INTO points VALUES (?, 10)", (job.args["email"],))
            raise ValueError("customer not found")
    q.work_one()
    expect(rows_in(path, "points") == 0, "the handler raised inside complete(), yet its INSERT "
                                         "was committed: complete() must roll it back")
    expect_status(path, 1, "queued", "a handler that raised inside complete()", q)


@check(4, "a handler that raises after complete() leaves its job done")
def raise_after_complete(tinyq, path, rng):
    q, _ = points_queue(tinyq, path, rng)

    @q.handler("award")
    def award_then_raise(job):
        award(job)
        raise ConnectionError("the mail service did not answer")
    logging.disable(logging.CRITICAL)   # a tinyq that logs the late error (as ours does) stays quiet
    try:
        job = q.work_one()
    finally:
        logging.disable(logging.NOTSET)
    expect_status(path, 1, "done", "a handler that raised after its complete() had committed", q)
    outcome = getattr(job, "outcome", None)
    expect(outcome == "done", f"the handler raised after complete() had committed, and work_one() "
                              f"left the job's outcome {outcome!r}; it should stay 'done': do not "
                              "fail (or ack) a job whose outcome the handler already set")
    expect(rows_in(path, "points") == 1, "the handler's points should be committed once")


@check(4, "complete() by a worker that lost its lease writes nothing")
def complete_fenced(tinyq, path, rng):
    a, b, clock = points_queue(tinyq, path, rng, count=2)
    taken = []

    @a.handler("award")
    def slow_award(job):
        clock.advance(SETTINGS["lease"] + 1)
        taken.append(claim_one(b, "worker B's claim() while A stalled"))
        award(job)
    a.work_one()
    expect(rows_in(path, "points") == 0, "worker A lost its lease before complete(), yet its "
                                         "points were committed: the stale worker must leave no "
                                         "trace")
    expect_status(path, 1, "running", "worker A's fenced complete()", a)
    expect(not a.db.in_transaction, "complete() left a transaction open after LeaseLost")


@check(4, "enqueue() joins a transaction the caller opened")
def enqueue_joins(tinyq, path, rng):
    q, _ = queues(tinyq, path, rng)
    q.db.execute("BEGIN IMMEDIATE")
    q.enqueue("email", {"to": "ada"})
    q.db.execute("ROLLBACK")
    expect(rows_in(path, "jobs") == 0, "a job enqueued inside a transaction that was rolled back "
                                       "is still there: enqueue must not commit the caller's "
                                       "transaction")
