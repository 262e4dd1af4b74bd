"""The checks that check.py runs against a reader's tinyq: the helpers, and stage 1.

Each check is a function `(tinyq, path, rng)` registered with @check(stage, title):
it builds queues on the database file `path` with a pretend clock, drives them
through the public API (Queue, enqueue, claim, ack, fail, work_one, handler,
Job.complete, LeaseLost), reads the jobs table through a separate connection (so
only what was committed counts), and raises Problem with a sentence saying what is
wrong. Times are seconds. Stages 2 and 3 are in check_finishing.py, stage 4 in check_complete.py.
"""
import sqlite3
from pathlib import Path

STAGES = {1: "claim, ack, and the worker loop",
          2: "fail, with backoff, jitter and dead letters",
          3: "the fencing token",
          4: "complete(): the effect and the ack in one transaction"}
CHECKS = []          # (stage, title, function), in the order they run
SETTINGS = dict(lease=10.0, max_attempts=3, backoff_base=1.0, backoff_cap=4.0)
START = 1000.0       # seconds: the pretend clock's first reading


class Problem(Exception):
    """A check found the queue breaking its contract; the message says how."""


def check(stage, title):
    """Decorator: register the function below it as a check of `stage`."""
    def register(function):
        CHECKS.append((stage, title, function))
        return function
    return register


class Clock:
    """A pretend clock: calling it returns the time; advance() moves it on."""

    def __init__(self):
        self.now = START

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


def queues(tinyq, path, rng, count=1, clock=None, **changes):
    """`count` Queues (workers) on one database file, sharing one pretend clock."""
    clock = clock or Clock()
    settings = {**SETTINGS, **changes}
    made = []
    for _ in range(count):
        try:
            made.append(tinyq.Queue(str(path), clock=clock, rng=rng, **settings))
        except TypeError as error:
            raise Problem("Queue(path, lease=..., max_attempts=..., backoff_base=..., "
                          f"backoff_cap=..., clock=..., rng=...) failed: {error}") from None
        if isinstance(getattr(made[-1], "db", None), sqlite3.Connection):
            # Speed only: a check's database is thrown away, so the disk need not be synced.
            made[-1].db.execute("PRAGMA synchronous = OFF")
    return (*made, clock)


def row(path, job_id):
    """Job `job_id` as the database file holds it, read through a fresh connection."""
    db = sqlite3.connect(str(path))
    db.row_factory = sqlite3.Row
    try:
        found = db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
    finally:
        db.close()
    if found is None:
        raise Problem(f"there is no job {job_id} in the jobs table")
    return dict(found)


def rows_in(path, table):
    """How many rows `table` of the database file holds, read through a fresh connection."""
    db = sqlite3.connect(str(path))
    try:
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        db.close()


def expect(condition, sentence):
    if not condition:
        raise Problem(sentence)


def expect_status(path, job_id, status, after, queue=None):
    job = row(path, job_id)
    found, error = job["status"], job["last_error"] or ""
    if found != status and error.startswith("NotImplementedError: "):
        raise NotImplementedError(error[len("NotImplementedError: "):])  # it failed the job
    hint = f" (its last_error: {error})" if found != status and error else ""
    if queue is not None and getattr(queue, "db", None) is not None and queue.db.in_transaction:
        hint += " (a transaction is still open on queue.db: nothing is saved until COMMIT)"
    expect(found == status, f"job {job_id} is '{found}' after {after}; it should be '{status}'"
                            f"{hint}")


def claim_one(queue, what="claim()"):
    job = queue.claim()
    expect(job is not None, f"{what} returned None, but a job was due")
    return job


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
    clock.advance(SETTINGS["lease"] + 1)
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


# --- stage 1: claim, ack, and the worker loop ------------------------------------------------

@check(1, "enqueue returns each new job's id, and refuses a repeated unique_key")
def enqueue_ids(tinyq, path, rng):
    q, _ = queues(tinyq, path, rng)
    first, second = q.enqueue("email", {"to": "ada"}), q.enqueue("email", {"to": "alan"})
    expect(isinstance(first, int) and isinstance(second, int) and first != second,
           f"enqueue returned {first!r} and {second!r}; it should return the new jobs' ids")
    expect(q.enqueue("email", {"to": "ada"}, unique_key="welcome-ada") is not None,
           "enqueue with a new unique_key returned None; it should write the job")
    again = q.enqueue("email", {"to": "ada"}, unique_key="welcome-ada")
    expect(again is None, f"enqueue with a unique_key already used returned {again!r}; "
                          "it should write nothing and return None")


@check(1, "claim() takes the oldest due job and marks it running")
def claim_marks_running(tinyq, path, rng):
    q, _ = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "ada"})
    q.enqueue("email", {"to": "alan"})
    job = claim_one(q)
    expect(job.id == 1, f"claim() took job {job.id} first; job 1 was enqueued first")
    expect(job.kind == "email", f"the claimed job's kind is {job.kind!r}, not 'email'")
    expect(job.args == {"to": "ada"}, f"the claimed job's args are {job.args!r}; they should "
                                      "be the dict {'to': 'ada'} (json.loads the column)")
    expect(job.attempts == 1, f"a first claim has attempts {job.attempts!r}; it should be 1")
    expect_status(path, 1, "running", "claim()", q)


@check(1, "claim() returns None when no job is due, and a delayed job waits")
def claim_none(tinyq, path, rng):
    q, clock = queues(tinyq, path, rng)
    expect(q.claim() is None, "claim() on an empty queue should return None")
    q.enqueue("email", {"to": "ada"}, delay=5.0)
    expect(q.claim() is None, "a job enqueued with delay=5 was claimed at once; it should "
                              "wait 5 seconds")
    clock.advance(5.0)
    claim_one(q, "claim() 5 seconds after a delay=5 enqueue")


@check(1, "ack() marks the job done, and a done job is never claimed again")
def ack_done(tinyq, path, rng):
    q, clock = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "ada"})
    q.ack(claim_one(q))
    expect_status(path, 1, "done", "ack()", q)
    clock.advance(SETTINGS["lease"] * 10)
    expect(q.claim() is None, "a job that was acked was claimed again")


@check(1, "a lease holds through its last instant; just after, the job is claimed again")
def lease_expiry(tinyq, path, rng):
    a, b, clock = queues(tinyq, path, rng, count=2)
    lease = SETTINGS["lease"]
    a.enqueue("email", {"to": "ada"})
    a.enqueue("email", {"to": "alan"})
    claim_one(a)
    clock.advance(lease)            # exactly the lease's end: still held (now > locked_until?)
    at_end = b.claim()
    expect(at_end is None or at_end.id != 1,
           f"job 1 was claimed again at exactly the end of its {lease}-second lease; a lease "
           f"claimed at t covers [t, t + {lease}], so take a job over only when now > "
           "locked_until (use <, not <=)")
    clock.advance(0.001)            # just past the lease's end: its worker may be dead
    again = b.claim()
    expect(again is not None and again.id == 1, "job 1's lease ran out 0.001 seconds ago, but "
                                                "claim() did not take it again: its worker may "
                                                "be dead")
    expect(again.attempts == 2, f"the second claim of job 1 has attempts {again.attempts!r}; "
                                "it should be 2")


@check(1, "an ack at exactly the end of the lease holds")
def ack_at_lease_end(tinyq, path, rng):
    a, b, clock = queues(tinyq, path, rng, count=2)
    a.enqueue("email", {"to": "ada"})
    job = claim_one(a)
    clock.advance(SETTINGS["lease"])
    taken = b.claim()               # another worker looks at the very last instant
    expect(taken is None, "worker B claimed job 1 at exactly the end of worker "
                          "A's lease, which A still holds: take over only when now > "
                          "locked_until")
    a.ack(job)
    expect_status(path, 1, "done", "worker A's ack() at exactly the end of its lease", a)


@check(1, "each claim takes its lease from queue.lease as it is at that moment")
def lease_read_at_claim(tinyq, path, rng):
    q, clock = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "ada"})
    q.enqueue("email", {"to": "alan"})
    claim_one(q)
    q.lease = longer = SETTINGS["lease"] * 3      # as shop.py does for its --lease option
    job = claim_one(q, "the claim() after queue.lease was changed")
    held = row(path, job.id)["locked_until"] - clock()
    expect(abs(held - longer) < 1e-6,
           f"queue.lease was changed from {SETTINGS['lease']} to {longer} between two claims, "
           f"yet the second claim's lease lasts {held} seconds: read self.lease at each claim, "
           "not a copy made earlier")


@check(1, "no job is handed to two workers at once")
def no_double_claim(tinyq, path, rng):
    # Worker B claims at the worst moment: just before one of A's writes. Which write is the
    # worst depends on the claim (a claim that first buries expired jobs writes twice), so B is
    # sent in before A's first write, then, on a fresh database, before its second, and so on.
    for write in range(1, 11):
        fresh = Path(path).with_name(f"{Path(path).stem}-{write}.db")
        if not _claim_beside(tinyq, fresh, rng, write):
            return           # A's claim made fewer writes than that: every moment was tried


def _claim_beside(tinyq, path, rng, write):
    """A claims; B claims just before A's `write`-th write (1 for the first). True if B went in."""
    a, b, _ = queues(tinyq, path, rng, count=2)
    a.enqueue("email", {"to": "ada"})
    a.enqueue("email", {"to": "alan"})
    seen, writes = {}, []

    def interleave(sql):
        # Inside a transaction A opened, SQLite's locks already keep B out, so B is not sent in.
        first = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if "b" in seen or a.db.in_transaction or first in {"SELECT", "BEGIN", "PRAGMA"}:
            return
        writes.append(sql)
        if len(writes) < write:
            return
        seen["b"] = None
        try:
            seen["b"] = b.claim()
        except sqlite3.OperationalError:
            pass     # A holds the write lock, so B would have waited: that is fine
    a.db.set_trace_callback(interleave)
    try:
        job_a = a.claim()
    finally:
        a.db.set_trace_callback(None)
    job_b = seen.get("b")
    if job_a is not None and job_b is not None and job_a.id == job_b.id:
        raise Problem(f"job {job_a.id} was handed to two workers at once: claim() must look "
                      "for a job and take it in one statement (or one transaction)")
    return "b" in seen


@check(1, "work_one() runs the handler registered with @queue.handler, then acks")
def work_one_acks(tinyq, path, rng):
    q, _ = queues(tinyq, path, rng)
    seen = []

    def send(job):
        seen.append((job.kind, job.args))
    registered = q.handler("email")(send)
    expect(registered is send, "queue.handler(kind) must return the function it was given, "
                               f"unchanged; it returned {registered!r}")
    expect(q.work_one() is None, "work_one() with nothing to claim should return None")
    q.enqueue("email", {"to": "ada"})
    job = q.work_one()
    expect(seen == [("email", {"to": "ada"})], f"the handler saw {seen!r}; it should have been "
                                               "called once, with the claimed job")
    expect(job is not None and job.id == 1, f"work_one() returned {job!r}; it should return "
                                            "the job it worked on")
    expect_status(path, 1, "done", "work_one() with a handler that returned", q)
