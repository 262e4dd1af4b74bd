"""The checks of stages 3 and 4 (the fencing token, and complete()), for check.py.

Stage 3 plays the scene from chapter 5: worker A's lease runs out while it is still
working, worker B claims the job, and A then tries to finish it. Stage 4 checks that
complete() commits the handler's own writes with the ack, or neither. Times are seconds.
"""
import sqlite3

from check_stages import SETTINGS, Problem, check, claim_one, expect, expect_status, queues, row


def lease_lost_class(tinyq):
    found = getattr(tinyq, "LeaseLost", None)
    expect(isinstance(found, type) and issubclass(found, Exception),
           "tinyq has no exception class LeaseLost: write `class LeaseLost(Exception):`")
    return found


def stolen(tinyq, path, rng):
    """Job 1, claimed by worker A, then by worker B once A's lease ran out."""
    a, b, clock = queues(tinyq, path, rng, count=2)
    a.enqueue("email", {"to": "ada"})
    job_a = claim_one(a, "worker A's claim()")
    clock.advance(SETTINGS["lease"])
    job_b = claim_one(b, "worker B's claim() after A's lease ran out")
    return a, b, job_a, job_b


def expect_refused(tinyq, path, finish, what, job_b):
    lost = lease_lost_class(tinyq)
    try:
        finish()
    except lost:
        pass
    else:
        raise Problem(f"worker A's lease ran out and worker B claimed job 1, yet A's {what} "
                      "raised no LeaseLost: a worker that lost its job must not finish it")
    found = row(path, 1)
    expect(found["status"] == "running" and found["token"] == job_b.token,
           f"after worker A's refused {what}, job 1 is '{found['status']}' with token "
           f"{found['token']!r}; it should still be running under B's token {job_b.token!r}")


# --- stage 3: the fencing token --------------------------------------------------------------

@check(3, "every claim gets a new token, larger than any before it")
def tokens_grow(tinyq, path, rng):
    q, clock = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "ada"})
    q.enqueue("email", {"to": "alan"})
    tokens = [claim_one(q).token, claim_one(q).token]
    clock.advance(SETTINGS["lease"])
    tokens.append(claim_one(q, "claim() of an expired job").token)
    expect(all(isinstance(t, int) for t in tokens),
           f"the claims' tokens are {tokens!r}; each should be a whole number")
    expect(tokens[0] < tokens[1] < tokens[2],
           f"three claims in a row got the tokens {tokens!r}; each should be larger than "
           "every token before it")
    expect(row(path, 1)["token"] == tokens[2], "the jobs table's token column does not hold "
                                               "the latest claim's token")


@check(3, "ack() by a worker that lost its lease raises LeaseLost and changes nothing")
def stale_ack(tinyq, path, rng):
    a, b, job_a, job_b = stolen(tinyq, path, rng)
    expect(job_a.token != job_b.token, f"worker A and worker B got the same token "
                                       f"{job_a.token!r} for two claims of job 1")
    expect_refused(tinyq, path, lambda: a.ack(job_a), "ack()", job_b)
    b.ack(job_b)
    expect_status(path, 1, "done", "worker B's ack()", b)


@check(3, "fail() by a worker that lost its lease raises LeaseLost and changes nothing")
def stale_fail(tinyq, path, rng):
    a, _, job_a, job_b = stolen(tinyq, path, rng)
    expect_refused(tinyq, path, lambda: a.fail(job_a, "TimeoutError: too slow"), "fail()",
                   job_b)
    expect(row(path, 1)["last_error"] is None, "worker A's refused fail() still wrote its "
                                               "error into last_error")


@check(3, "work_one() moves on when its lease was lost while the handler ran")
def work_one_lease_lost(tinyq, path, rng):
    a, b, clock = queues(tinyq, path, rng, count=2)
    taken = []

    @a.handler("email")
    def slow(job):
        clock.advance(SETTINGS["lease"] + 1)        # A stalls past its lease ...
        taken.append(claim_one(b, "worker B's claim() while A stalled"))   # ... B takes over
    a.enqueue("email", {"to": "ada"})
    a.work_one()
    found = row(path, 1)
    expect(found["status"] == "running" and found["token"] == taken[0].token,
           f"job 1 is '{found['status']}' with token {found['token']!r} after worker A's "
           "work_one() lost its lease; it should still be worker B's running job")


# --- stage 4: complete() ---------------------------------------------------------------------

def points_queue(tinyq, path, rng, count=1):
    made = queues(tinyq, path, rng, count=count)
    made[0].db.execute("CREATE TABLE IF NOT EXISTS points (email TEXT, points INTEGER)")
    made[0].enqueue("award", {"email": "ada@example.com"})
    return made


def points(path):
    db = sqlite3.connect(str(path))
    try:
        return db.execute("SELECT count(*) FROM points").fetchone()[0]
    finally:
        db.close()


def award(job):
    with job.complete() as db:
        db.execute("INSERT INTO points VALUES (?, 10)", (job.args["email"],))


@check(4, "complete() commits the handler's writes together with the ack")
def complete_commits(tinyq, path, rng):
    q, _ = points_queue(tinyq, path, rng)
    q.handler("award")(award)
    q.work_one()
    expect(points(path) == 1, f"after complete(), the points table has {points(path)} rows; "
                              "the handler's one INSERT should be committed")
    expect_status(path, 1, "done", "a handler that finished with complete()", q)
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
    expect(points(path) == 0, "the handler raised inside complete(), yet its INSERT was "
                              "committed: complete() must roll it back")
    expect_status(path, 1, "queued", "a handler that raised inside complete()", q)


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
    expect(points(path) == 0, "worker A lost its lease before complete(), yet its points "
                              "were committed: the stale worker must leave no trace")
    expect_status(path, 1, "running", "worker A's fenced complete()", a)
    expect(not a.db.in_transaction, "complete() left a transaction open after LeaseLost")


@check(4, "enqueue() joins a transaction the caller opened")
def enqueue_joins(tinyq, path, rng):
    q, _ = queues(tinyq, path, rng)
    q.db.execute("BEGIN IMMEDIATE")
    q.enqueue("email", {"to": "ada"})
    q.db.execute("ROLLBACK")
    db = sqlite3.connect(str(path))
    try:
        count = db.execute("SELECT count(*) FROM jobs").fetchone()[0]
    finally:
        db.close()
    expect(count == 0, "a job enqueued inside a transaction that was rolled back is still "
                       "there: enqueue must not commit the caller's transaction")
