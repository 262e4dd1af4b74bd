"""tinyq: a small, honest job queue in one SQLite database.

A job is a row of the table `jobs`, always in one of four states:

    enqueue --> queued --claim--> running --ack--> done
                  ^                 |   |
                  +--fail: retry----+   +--fail, no attempts left--> dead

A running job whose lease has run out may be claimed again, with a new token.
Each move is one guarded UPDATE whose row count is checked. Times are seconds
read from the clock you pass in (time.time by default) and handed to SQL as
parameters: SQL never reads a clock, so a simulation can run tinyq on virtual time.
Standard library only; needs SQLite 3.35 or newer for UPDATE ... RETURNING.
"""
import json
import random
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

STATES = ("queued", "running", "done", "dead")
MIN_SQLITE = (3, 35, 0)  # RETURNING: https://www.sqlite.org/lang_returning.html

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS jobs (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL,                 -- which handler runs it
    args         TEXT NOT NULL,                 -- a JSON object
    status       TEXT NOT NULL DEFAULT 'queued' CHECK (status IN {STATES}),
    attempts     INTEGER NOT NULL DEFAULT 0,    -- how many times it was claimed
    run_at       REAL NOT NULL,                 -- seconds: not to be claimed before
    locked_until REAL,                          -- seconds: when the lease runs out
    token        INTEGER,                       -- fencing token of the latest claim
    unique_key   TEXT UNIQUE,                   -- the producer's idempotency key
    last_error   TEXT
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (run_at, id) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS jobs_leased ON jobs (locked_until, id) WHERE status = 'running';
CREATE INDEX IF NOT EXISTS jobs_token ON jobs (token);
"""

INSERT_JOB = """
INSERT INTO jobs (kind, args, run_at, unique_key) VALUES (:kind, :args, :run_at, :key)
ON CONFLICT (unique_key) DO NOTHING
RETURNING id"""

# Look and take in one statement, so two workers can never both win a job.
CLAIM_JOB = """
UPDATE jobs
   SET status = 'running',
       attempts = attempts + 1,
       locked_until = :now + :lease,
       token = (SELECT ifnull(max(token), 0) + 1 FROM jobs)
 WHERE id = coalesce(
       -- first, a job whose lease ran out (its worker is presumed dead) ...
       (SELECT id FROM jobs WHERE status = 'running' AND locked_until <= :now
         ORDER BY locked_until, id LIMIT 1),
       -- ... else the queued job that has been due the longest
       (SELECT id FROM jobs WHERE status = 'queued' AND run_at <= :now
         ORDER BY run_at, id LIMIT 1))
RETURNING id, kind, args, attempts, token"""

# Each finish only touches the job while this claim's token still holds it.
MARK_DONE = """
UPDATE jobs SET status = 'done', locked_until = NULL
 WHERE id = :id AND token = :token AND status = 'running'"""

MARK_RETRY = """
UPDATE jobs SET status = 'queued', run_at = :run_at, locked_until = NULL, last_error = :error
 WHERE id = :id AND token = :token AND status = 'running'"""

MARK_DEAD = """
UPDATE jobs SET status = 'dead', locked_until = NULL, last_error = :error
 WHERE id = :id AND token = :token AND status = 'running'"""


class LeaseLost(Exception):
    """A finish found the job no longer held by this claim's token: nothing was written."""


def backoff(attempt, base, cap):
    """Seconds to wait after failed attempt number `attempt` (1, 2, ...): base, 2*base,
    4*base ... but never more than `cap`. Pure: the same input always gives the same delay.
    Source: Marc Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog (2015),
    https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/"""
    return min(cap, base * 2 ** (attempt - 1))


def jitter(delay, rng):
    """Spread a delay (seconds) at random over [delay/2, delay], so jobs that failed
    together do not all come back together. This is "equal jitter" from Brooker's
    article above; `rng` is a random.Random, seeded when you need a replay."""
    return delay / 2 + rng.uniform(0, delay / 2)


@dataclass
class Job:
    """One claim of one job, as a handler receives it.

    `token` is the claim's fencing token: a number that grows with every claim, so a
    worker whose lease ran out and whose job was claimed again cannot finish it
    (Kleppmann, Designing Data-Intensive Applications, ch. 8, "Fencing tokens").
    `outcome` says how this claim ended: 'done', 'queued' (a retry), 'dead' or 'lease lost'.
    """
    id: int
    kind: str
    args: dict
    attempts: int
    token: int
    queue: "Queue" = field(repr=False)
    outcome: str | None = None

    @contextmanager
    def complete(self):
        """Run the handler's own writes in the transaction that marks this job done.

            with job.complete() as db:
                db.execute("UPDATE customers SET points = points + 10 WHERE id = ?", ...)

        Both are committed together, or neither: if the block raises, or the token no
        longer holds the job, everything is rolled back (LeaseLost in the second case).
        """
        with self.queue.transaction() as db:
            yield db
            self.queue._guarded(self, self.queue.MARK_DONE, {})
        self.outcome = "done"


def _require(ok, message):
    if not ok:
        raise ValueError(message)


class Queue:
    """A job queue in one SQLite database: a file path, or ":memory:".

    lease: seconds a claim holds its job before another worker may take it over (a lease:
      Gray and Cheriton, SOSP 1989; Amazon SQS calls it the visibility timeout).
    max_attempts: claims a job gets before a failure makes it dead.
    backoff_base, backoff_cap: seconds, for the delay before a retry (see backoff()).
    clock: a function returning the time in seconds; rng: a random.Random for jitter.
    Raises RuntimeError when Python's SQLite is older than 3.35, ValueError for a bad setting.
    """

    def __init__(self, path=":memory:", *, lease=30.0, max_attempts=5, backoff_base=1.0,
                 backoff_cap=300.0, clock=time.time, rng=None):
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise RuntimeError(
                f"tinyq needs SQLite 3.35 or newer (for UPDATE ... RETURNING); this "
                f"Python's sqlite3 module uses SQLite {sqlite3.sqlite_version}")
        number = (int, float)
        _require(isinstance(lease, number) and lease > 0,
                 f"lease must be a number of seconds above 0, got {lease!r}")
        _require(isinstance(max_attempts, int) and max_attempts >= 1,
                 f"max_attempts must be a whole number from 1, got {max_attempts!r}")
        _require(isinstance(backoff_base, number) and isinstance(backoff_cap, number)
                 and 0 <= backoff_base <= backoff_cap,
                 f"need 0 <= backoff_base <= backoff_cap (seconds), got "
                 f"{backoff_base!r} and {backoff_cap!r}")
        self.lease, self.max_attempts = lease, max_attempts
        self.backoff_base, self.backoff_cap = backoff_base, backoff_cap
        self.clock = clock
        self.rng = random.Random() if rng is None else rng
        self.handlers = {}
        self.db = self._connect(path)

    # The SQL, named on the class: tinyq_pg.Queue swaps in PostgreSQL's statements.
    INSERT_JOB, CLAIM_JOB, MARK_DONE, MARK_RETRY, MARK_DEAD = (
        INSERT_JOB, CLAIM_JOB, MARK_DONE, MARK_RETRY, MARK_DEAD)

    def _connect(self, path):
        db = sqlite3.connect(path, isolation_level=None)   # no hidden BEGIN: we open our own
        db.executescript(SCHEMA)
        return db

    @contextmanager
    def transaction(self):
        """BEGIN IMMEDIATE (take the write lock now) ... COMMIT; ROLLBACK if the block raises."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def handler(self, kind):
        """Decorator: register `function(job)` as the handler for jobs of this kind."""
        def register(function):
            self.handlers[kind] = function
            return function
        return register

    def enqueue(self, kind, args, unique_key=None, delay=0.0):
        """Add a job and return its id, or None if a job with `unique_key` exists (refused).

        args: a dict of JSON values. delay: seconds before the job may be claimed.
        It joins the caller's open transaction, if any, so a job can be written together
        with the change that caused it. Raises TypeError or ValueError for bad input.
        """
        if not isinstance(args, dict):
            raise TypeError(f"args must be a dict, got {type(args).__name__}")
        try:
            text = json.dumps(args, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(f"args must hold only JSON values: {error}") from None
        _require(isinstance(delay, (int, float)) and delay >= 0,
                 f"delay must be a number of seconds from 0, got {delay!r}")
        rows = self.db.execute(self.INSERT_JOB, {"kind": kind, "args": text, "key": unique_key,
                                            "run_at": self.clock() + delay}).fetchall()
        return rows[0][0] if rows else None

    def claim(self):
        """Take one job, or return None: a running job whose lease has run out, else the
        queued job due the longest. It becomes running, with attempts + 1, a lease until
        now + lease seconds, and a fresh fencing token. One statement, so it is atomic."""
        # fetchall() runs the statement to its end, which releases SQLite's write lock.
        now = self.clock()
        rows = self.db.execute(self.CLAIM_JOB, {"now": now, "lease": self.lease}).fetchall()
        if not rows:
            return None
        job_id, kind, args, attempts, token = rows[0]
        return Job(job_id, kind, json.loads(args), attempts, token, self)

    def ack(self, job):
        """Mark the job done. Raises LeaseLost if its token no longer holds it."""
        self._guarded(job, self.MARK_DONE, {})
        job.outcome = "done"

    def fail(self, job, error):
        """Record a failed attempt and return the job's new state: 'queued' for a retry at
        now + jitter(backoff(...)) seconds, or 'dead' once it has had max_attempts.
        `error` (text) is kept as last_error. Raises LeaseLost like ack()."""
        if job.attempts >= self.max_attempts:
            self._guarded(job, self.MARK_DEAD, {"error": error})
            job.outcome = "dead"
        else:
            delay = jitter(backoff(job.attempts, self.backoff_base, self.backoff_cap), self.rng)
            self._guarded(job, self.MARK_RETRY, {"error": error, "run_at": self.clock() + delay})
            job.outcome = "queued"
        return job.outcome

    def work_one(self):
        """Claim a job and run its handler; return the job (see job.outcome), or None.

        A handler that returns has its job acked, unless it already finished it with
        job.complete(). One that raises an Exception has its job failed (retry or dead).
        A BaseException such as KeyboardInterrupt is a crash: it passes through and the
        job stays running until its lease runs out. A lost lease is reported as the
        outcome 'lease lost', not raised: another worker owns the job now.
        """
        job = self.claim()
        if job is None:
            return None
        try:
            try:
                handler = self.handlers.get(job.kind)
                if handler is None:
                    raise LookupError(f"no handler registered for kind {job.kind!r}")
                handler(job)
            except Exception as error:
                if isinstance(error, LeaseLost) or job.outcome is not None:
                    raise  # lease lost, or the handler raised after complete() committed
                self.fail(job, f"{type(error).__name__}: {error}")
            else:
                if job.outcome is None:  # not finished by the handler with complete()
                    self.ack(job)
        except LeaseLost:
            job.outcome = "lease lost"  # another worker holds the job now: leave it be
        return job

    def close(self):
        self.db.close()

    def _guarded(self, job, statement, params):
        """Run one finishing UPDATE for this claim; raise LeaseLost unless it hit one row."""
        cursor = self.db.execute(statement, {"id": job.id, "token": job.token, **params})
        if cursor.rowcount != 1:
            raise LeaseLost(f"job {job.id} is no longer held by token {job.token}: "
                            f"nothing written")
