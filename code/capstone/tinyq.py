"""tinyq: a small, honest job queue in one SQLite database.

A job is a row of the table `jobs`, always in one of four states:

    enqueue --> queued --claim--> running --ack--> done
                  ^                 |   |
                  +--fail: retry----+   +--fail: permanent, or no attempts left--> dead
                  +--release--------+   +--lease ran out on its last attempt-----> dead

A lease of L seconds claimed at t covers [t, t + L]: its holder may still finish at t + L;
another worker may take the job over (with a new token) only when now > t + L. Each move
is one guarded UPDATE whose row count is checked. Times are seconds from the clock you
pass in, handed to SQL as parameters: SQL never reads a clock, so a simulation can run
tinyq on virtual time. Standard library only; needs SQLite 3.35+ (UPDATE ... RETURNING).
"""
import json
import logging
import random
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

# The table and every statement, in SQLite's dialect, are in tinyq_sql.py beside this file.
from tinyq_sql import (BURY_EXPIRED, CLAIM_JOB, EXTEND_LEASE, INSERT_JOB, MARK_DEAD,  # noqa: F401
                       MARK_DONE, MARK_RETRY, RELEASE_JOB, SCHEMA, STATES, TOKEN_TAKEN)

MIN_SQLITE = (3, 35, 0)  # RETURNING: https://www.sqlite.org/lang_returning.html
BUSY_TIMEOUT = 5.0       # seconds SQLite waits for another connection's lock before "locked"
BUSY_RETRIES = 8         # then tinyq waits a little (backoff and jitter) and tries again
log = logging.getLogger("tinyq")


class LeaseLost(Exception):
    """A finish found the job no longer held by this claim's token: nothing was written."""


class Permanent(Exception):
    """Raise it in a handler when trying again cannot help (a card declined, an address
    that does not exist): work_one() makes the job dead at once, without a retry."""


@contextmanager
def transaction(db):
    """`with transaction(db) as db:` runs the block as one transaction on a connection
    opened with isolation_level=None: BEGIN IMMEDIATE, then COMMIT, or ROLLBACK if the
    block raises anything (which then goes on). IMMEDIATE takes the write lock at BEGIN;
    other writers wait until COMMIT, so keep the block short. Raises
    sqlite3.OperationalError ("database is locked") after BUSY_TIMEOUT seconds of waiting."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:   # a Ctrl-C may arrive just after the COMMIT
            db.execute("ROLLBACK")
        raise


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


def is_busy(error):
    """True for SQLite's "database is locked": another connection held a lock too long."""
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)


@dataclass
class Job:
    """One claim of one job, as a handler receives it.

    `token` is the claim's fencing token: a number that grows with every claim, so a
    worker whose lease ran out and whose job was claimed again cannot finish it
    (Kleppmann, Designing Data-Intensive Applications, ch. 8, "Fencing tokens").
    `outcome` says how this claim ended: 'done', 'queued', 'dead' or 'lease lost'."""
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
        The block holds the database's write lock throughout, so every other worker's
        claim and ack waits for it: only fast, local writes inside (no network, no sleep)."""
        with self.queue.transaction(self.queue.db) as db:
            yield db
            self.queue._guarded(self, self.queue.MARK_DONE, {})
        self.outcome = "done"


def _require(ok, message):
    if not ok:
        raise ValueError(message)


class Queue:
    """A job queue in one SQLite database: a file path, or ":memory:".

    lease: seconds a claim holds its job: [claim time, claim time + lease], both ends
      included (a lease: Gray and Cheriton, SOSP 1989; SQS calls it the visibility timeout).
    max_attempts: claims a job gets: a failure or an expired lease on the last makes it dead.
    backoff_base, backoff_cap: seconds, for the delay before a retry (see backoff()).
    clock: a function returning the time in seconds; rng: a random.Random for jitter;
      sleep: a function that waits seconds, between tries while the database is busy.
    A file database is put in WAL mode (https://www.sqlite.org/wal.html). Raises RuntimeError
    for SQLite older than 3.35 or an older tinyq's file, ValueError for a bad setting."""

    def __init__(self, path=":memory:", *, lease=30.0, max_attempts=5, backoff_base=1.0,
                 backoff_cap=300.0, clock=time.time, rng=None, sleep=time.sleep):
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise RuntimeError(f"tinyq needs SQLite 3.35 or newer (for UPDATE ... RETURNING); "
                               f"this Python's sqlite3 uses SQLite {sqlite3.sqlite_version}")
        number = (int, float)
        _require(isinstance(lease, number) and lease > 0,
                 f"lease must be a number of seconds above 0, got {lease!r}")
        _require(isinstance(max_attempts, int) and max_attempts >= 1,
                 f"max_attempts must be a whole number from 1, got {max_attempts!r}")
        _require(isinstance(backoff_base, number) and isinstance(backoff_cap, number)
                 and 0 <= backoff_base <= backoff_cap, f"need 0 <= backoff_base <= "
                 f"backoff_cap (seconds), got {backoff_base!r} and {backoff_cap!r}")
        self.lease, self.max_attempts = lease, max_attempts
        self.backoff_base, self.backoff_cap = backoff_base, backoff_cap
        self.clock, self.sleep = clock, sleep
        self.rng = random.Random() if rng is None else rng
        self.handlers = {}
        self.db = self._connect(path)

    # The statements by name, so that tinyq_pg.Queue can swap in PostgreSQL's (exercise 9).
    INSERT_JOB, BURY_EXPIRED, CLAIM_JOB = INSERT_JOB, BURY_EXPIRED, CLAIM_JOB
    TOKEN_TAKEN, MARK_DONE, MARK_RETRY = TOKEN_TAKEN, MARK_DONE, MARK_RETRY
    MARK_DEAD, EXTEND_LEASE, RELEASE_JOB = MARK_DEAD, EXTEND_LEASE, RELEASE_JOB
    transaction = staticmethod(transaction)

    def _connect(self, path):
        # isolation_level=None: no hidden BEGIN; we open transactions ourselves.
        db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT)
        self._retrying(lambda: db.execute("PRAGMA journal_mode = WAL").fetchall())
        self._retrying(lambda: db.executescript(SCHEMA))
        if "claimed_by" not in {column[1] for column in db.execute("PRAGMA table_info(jobs)")}:
            db.close()
            raise RuntimeError(f"{path} holds the jobs table of an older tinyq: delete the file")
        return db

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
        with the change that caused it. Raises TypeError or ValueError for bad input."""
        if not isinstance(args, dict):
            raise TypeError(f"args must be a dict, got {type(args).__name__}")
        try:
            text = json.dumps(args, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(f"args must hold only JSON values: {error}") from None
        _require(isinstance(delay, (int, float)) and delay >= 0,
                 f"delay must be a number of seconds from 0, got {delay!r}")
        rows = self.db.execute(self.INSERT_JOB, {"kind": kind, "args": text, "key": unique_key,
                                            "now": self.clock(), "delay": delay}).fetchall()
        return rows[0][0] if rows else None

    def claim(self, worker=None):
        """Take one job, or return None: a running job whose lease has run out (now >
        locked_until), else the queued job due the longest. It becomes running, with
        attempts + 1, a lease until now + lease seconds, the next fencing token, and
        `worker` (a name, or None) as claimed_by. First, each running job whose lease ran
        out on its last attempt is made dead. One transaction, retried while busy."""
        def take():
            with self.transaction(self.db) as db:
                now = self.clock()
                db.execute(self.BURY_EXPIRED, {"now": now, "max_attempts": self.max_attempts})
                rows = db.execute(self.CLAIM_JOB, {"now": now, "lease": self.lease,
                                                   "worker": worker}).fetchall()
                if rows:
                    db.execute(self.TOKEN_TAKEN)
                return rows
        rows = self._retrying(take)
        if not rows:
            return None
        job_id, kind, args, attempts, token = rows[0]
        return Job(job_id, kind, json.loads(args), attempts, token, self)

    def ack(self, job):
        """Mark the job done. Raises LeaseLost if its token no longer holds it."""
        self._guarded(job, self.MARK_DONE, {})
        job.outcome = "done"

    def fail(self, job, error, permanent=False):
        """Record a failed attempt and return the job's new state: 'queued' for a retry at
        now + jitter(backoff(...)) seconds, or 'dead' once it has had max_attempts, or at
        once if `permanent`. `error` (text) is kept as last_error. Raises LeaseLost like ack()."""
        if permanent or job.attempts >= self.max_attempts:
            self._guarded(job, self.MARK_DEAD, {"error": error})
            job.outcome = "dead"
        else:
            delay = jitter(backoff(job.attempts, self.backoff_base, self.backoff_cap), self.rng)
            self._guarded(job, self.MARK_RETRY, {"error": error, "run_at": self.clock() + delay})
            job.outcome = "queued"
        return job.outcome

    def extend(self, job, lease=None):
        """Heartbeat: renew the job's lease to now + `lease` seconds (default: the queue's)
        and return its new end, in seconds. Raises LeaseLost if the token no longer holds
        the job: another worker may be doing it now, so stop the work."""
        until = self.clock() + (self.lease if lease is None else lease)
        self._guarded(job, self.EXTEND_LEASE, {"until": until})
        return until

    def release(self, job):
        """Hand an unfinished job back at once (a clean shutdown): it is queued, due now,
        and this claim does not count as an attempt. Raises LeaseLost like ack()."""
        self._guarded(job, self.RELEASE_JOB, {"now": self.clock()})
        job.outcome = "queued"

    def work_one(self, worker=None):
        """Claim a job (as `worker`), run its handler and return the job, or None if none was due.

        A handler that returns has its job acked, unless it finished it with complete().
        One that raises an Exception has its job failed (a Permanent one: dead at once),
        except after complete() committed (logged; the job stays done) or when the
        database was locked (the job is released). A BaseException such as
        KeyboardInterrupt is a crash: it passes through; the lease brings the job back.
        A lost lease is the outcome 'lease lost', not raised: another worker has the job."""
        job = self.claim(worker)
        if job is None:
            return None
        try:
            try:
                handler = self.handlers.get(job.kind)
                if handler is None:
                    raise LookupError(f"no handler registered for kind {job.kind!r}")
                handler(job)
            except LeaseLost:
                raise
            except Exception as error:
                if job.outcome is not None:     # raised after complete() committed
                    log.exception("job %s is done, but its handler raised afterwards", job.id)
                elif is_busy(error):            # the database's fault, not the job's
                    self.release(job)
                else:
                    self.fail(job, f"{type(error).__name__}: {error}",
                              permanent=isinstance(error, Permanent))
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
        cursor = self._retrying(
            lambda: self.db.execute(statement, {"id": job.id, "token": job.token, **params}))
        if cursor.rowcount != 1:
            raise LeaseLost(f"job {job.id} is no longer held by token {job.token}: "
                            f"nothing written")

    def _retrying(self, action):
        """Return action(); while SQLite says the database is locked, wait a little and
        try again, up to BUSY_RETRIES times. `action` must write all or nothing."""
        for attempt in range(1, BUSY_RETRIES + 1):
            try:
                return action()
            except sqlite3.OperationalError as error:
                if not is_busy(error) or attempt == BUSY_RETRIES:
                    raise
            self.sleep(jitter(backoff(attempt, 0.01, 1.0), self.rng))
