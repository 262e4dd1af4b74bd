"""tinyq: a small, honest job queue in one SQLite database. (The skeleton: you finish it.)

Save this file as tinyq.py in your capstone folder, beside check.py, and fill in the parts
marked STAGE 1 to STAGE 4, one stage at a time. After each stage, run `python3 check.py 1`
(then 2, 3 and 4): it says in words what is still wrong. Everything not marked is written for you.
Each STAGE comment says what its part must guarantee, not how to write it. Stuck? Chapter 12
has a folded box "Stuck on stage N?" at the end of each stage's section, with help in three
steps, each folded on its own: a nudge, the shape, then the code.

A job is a row of the table `jobs`, always in one of four states:

    enqueue --> queued --claim--> running --ack--> done
                  ^                 |   |
                  +--fail: retry----+   +--fail: permanent, or no attempts left--> dead
                  +--release--------+   +--lease ran out on its last attempt-----> dead

A lease of L seconds claimed at t covers [t, t + L]; another worker may take the job
over only when now > t + L. Times are seconds from the clock you pass in, handed to SQL
as parameters: SQL never reads a clock. Standard library only; needs SQLite 3.35+.
"""
import json
import logging
import random
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

MIN_SQLITE = (3, 35, 0)  # RETURNING: https://www.sqlite.org/lang_returning.html
BUSY_TIMEOUT = 5.0       # seconds SQLite waits for another connection's lock before "locked"
BUSY_RETRIES = 8         # then tinyq waits a little (backoff and jitter) and tries again
log = logging.getLogger("tinyq")

# --- the SQL: the table is written for you ----------------------------------------------

STATES = ("queued", "running", "done", "dead")

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused, even after a DELETE
    kind         TEXT NOT NULL,                 -- which handler runs it
    args         TEXT NOT NULL,                 -- a JSON object
    status       TEXT NOT NULL DEFAULT 'queued' CHECK (status IN {STATES}),
    attempts     INTEGER NOT NULL DEFAULT 0,    -- how many times it was claimed
    run_at       REAL NOT NULL,                 -- seconds: not to be claimed before
    locked_until REAL,                          -- seconds: when the lease runs out
    token        INTEGER,                       -- fencing token of the latest claim
    unique_key   TEXT UNIQUE,                   -- the producer's idempotency key
    last_error   TEXT,
    created_at   REAL NOT NULL,                 -- seconds: when it was enqueued
    claimed_at   REAL,                          -- seconds: when the latest claim began
    claimed_by   TEXT,                          -- the worker that made the latest claim
    CHECK ((status = 'running') = (locked_until IS NOT NULL))  -- a lease if, and only if, running
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (run_at, id) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS jobs_leased ON jobs (locked_until, id) WHERE status = 'running';
-- The last fencing token handed out. It only grows, whatever is deleted from jobs.
CREATE TABLE IF NOT EXISTS tokens (
    one          INTEGER PRIMARY KEY CHECK (one = 1),
    last_token   INTEGER NOT NULL
);
INSERT OR IGNORE INTO tokens SELECT 1, ifnull(max(token), 0) FROM jobs;
"""

INSERT_JOB = """
INSERT INTO jobs (kind, args, run_at, unique_key, created_at)
VALUES (:kind, :args, :now + :delay, :key, :now)
ON CONFLICT (unique_key) DO NOTHING
RETURNING id"""

# The delivery cap (SQS's maxReceiveCount): a lease that ran out on a job's last attempt
# makes it dead, instead of handing the job out for ever.
BURY_EXPIRED = """
UPDATE jobs SET status = 'dead', locked_until = NULL,
       last_error = 'lease expired on attempt ' || attempts || ' of ' || :max_attempts
 WHERE status = 'running' AND locked_until < :now AND attempts >= :max_attempts"""

TOKEN_TAKEN = "UPDATE tokens SET last_token = last_token + 1"


# STAGE 1: the claim, as ONE statement, so that no other worker can take the same job between
# its choice and its change. Parameters :now, :lease (seconds) and :worker. It takes at most one job and returns its id, kind, args,
# attempts and token, in that order. The job it takes becomes running, one more attempt
# counted, under a lease that covers [now, now + lease], with claimed_at and claimed_by
# saying when and by whom. Which job: a running one whose lease ran out (now is past its
# locked_until) comes before a queued one whose run_at has come; among several of a kind,
# the one waiting longest (earliest locked_until, or earliest run_at), then the smallest id.
# Why lease-expired jobs first: that job was handed out once already and its worker is
# presumed dead; taking it next means a crash costs it one lease of waiting, not a lease
# plus the whole line of queued jobs. check.py accepts either order, so a claim that
# prefers queued jobs passes too; it is just less kind.
# Read: chapter 4, "Why the atomic claim works"; chapter 5, "The lease".
# STAGE 3: the claim also stamps the job with the next fencing token: one more than
# last_token in the table `tokens`, so larger than every token handed out before.
CLAIM_JOB = """
"""

# STAGE 1: parameter :id. That job becomes done and holds no lease any more.
# STAGE 3: fenced: it changes no row unless the job is still running under :token.
MARK_DONE = """
"""

# STAGE 2: parameters :id, :run_at (seconds), :error. That job is queued again, not to
# be claimed before :run_at, with no lease, and :error kept as its last_error.
# STAGE 3: fenced by :token, as MARK_DONE.
MARK_RETRY = """
"""

# STAGE 2: parameters :id, :error. That job is dead, with no lease, :error kept.
# STAGE 3: fenced by :token, as MARK_DONE.
MARK_DEAD = """
"""

EXTEND_LEASE = """
UPDATE jobs SET locked_until = :until
 WHERE id = :id AND token = :token AND status = 'running'"""

# Handed back unfinished: due at once, and this claim is not counted as an attempt.
RELEASE_JOB = """
UPDATE jobs SET status = 'queued', run_at = :now, locked_until = NULL, attempts = attempts - 1
 WHERE id = :id AND token = :token AND status = 'running'"""


# STAGE 3: an exception class LeaseLost, the one _guarded() raises when a finish found
# the job no longer held by its claim (chapter 12, stage 3, shows a class of your own).


class Permanent(Exception):
    """Raise it in a handler when trying again cannot help (a card declined, an address
    that does not exist): work_one() makes the job dead at once, without a retry."""


@contextmanager
def transaction(db):
    """`with transaction(db) as db:` runs the block as one transaction on a connection
    opened with isolation_level=None: BEGIN IMMEDIATE, then COMMIT, or ROLLBACK if the
    block raises anything (which then goes on). Stage 4 explains how it works."""
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
    4*base ... but never more than `cap`. Pure: the same input always gives the same delay."""
    raise NotImplementedError("stage 2: write backoff(attempt, base, cap)")


def jitter(delay, rng):
    """Spread a delay (seconds) at random over [delay/2, delay] ("equal jitter"),
    drawing once from `rng`, a random.Random, never from the random module, so that a
    seeded run repeats the guide's waits exactly (chapter 12, stage 2, names the draw)."""
    raise NotImplementedError("stage 2: write jitter(delay, rng)")


def is_busy(error):
    """True for SQLite's "database is locked": another connection held a lock too long."""
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)


@dataclass
class Job:
    """One claim of one job, as a handler receives it.

    `token` is the claim's fencing token (None until stage 3). `outcome` says how this
    claim ended: 'done', 'queued', 'dead' or 'lease lost'; None while it runs."""
    id: int
    kind: str
    args: dict
    attempts: int
    token: int | None
    queue: "Queue" = field(repr=False)
    outcome: str | None = None

    # STAGE 4: a context manager: `with job.complete() as db:` hands the handler the queue's
    # connection inside one transaction, opened with the queue's transaction helper. When
    # the block ends, the same transaction marks this job done, fenced by its token, as
    # ack() does. The handler's writes and the ack are committed together or not at all: if
    # the block raises, or the token no longer holds the job, both are rolled back and the
    # exception goes on. Only once it committed does the job's outcome become "done".
    def complete(self):
        raise NotImplementedError("stage 4: write Job.complete()")


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

    # The statements by name on the class, so that tinyq_pg.Queue (exercise 9, chapter 13)
    # can swap in PostgreSQL's. Always use them through self (self.CLAIM_JOB, and
    # self.queue.MARK_DONE inside Job), and self.transaction(...), never the bare names:
    # then your own tinyq runs on PostgreSQL too.
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

    # STAGE 1: a decorator. After `@queue.handler("email")` above `def send(job): ...`,
    # self.handlers["email"] is that function, and the name `send` still means it too.
    def handler(self, kind):
        raise NotImplementedError("stage 1: write Queue.handler(kind), a decorator")

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

    # STAGE 1: claim one due job (self.CLAIM_JOB) as `worker`, at the clock's time now and
    # under self.lease as it is now (shop.py may change it after the queue is made). A busy
    # database makes it wait and try again (self._retrying), not fail. Returns None when no
    # job was due, else that job as a Job, its args a dict again.
    # STAGE 2: the claim must first bury the jobs whose lease ran out on their last attempt
    # (self.BURY_EXPIRED: :now, :max_attempts), in the same transaction as the claim
    # (self.transaction(self.db)) and with the same `now`, so no lease can run out between.
    # A busy database reruns that whole transaction, never half of it.
    # STAGE 3: when a job was claimed, that transaction also records its token as taken
    # (self.TOKEN_TAKEN), so the next claim's token is larger still.
    def claim(self, worker=None):
        raise NotImplementedError("stage 1: write Queue.claim()")

    # STAGE 1: the job becomes done (self.MARK_DONE), written through self._retrying(...) as
    # claim() does, and job.outcome records "done".
    # STAGE 3: fenced: a worker whose claim no longer holds the job writes nothing and gets
    # LeaseLost (from _guarded()).
    def ack(self, job):
        raise NotImplementedError("stage 1: write Queue.ack(job)")

    # STAGE 2: record a failed attempt, with `error` (text) kept. The job becomes dead
    # (self.MARK_DEAD) when `permanent`, or when it has had self.max_attempts claims;
    # otherwise it is queued again (self.MARK_RETRY), not claimable until the backoff after
    # attempt number job.attempts (with self.backoff_base and self.backoff_cap), spread by
    # jitter drawn from self.rng, has passed. Set job.outcome to the new state, "dead" or
    # "queued", and return that same string. Writes go through self._retrying(...), as in
    # ack(). Read: chapter 8.
    # STAGE 3: fenced like ack(): both writes go through _guarded().
    def fail(self, job, error, permanent=False):
        raise NotImplementedError("stage 2: write Queue.fail(job, error, permanent=False)")

    # Optional reading: a heartbeat (chapter 6) and a clean shutdown (chapter 7). They work once
    # _guarded() does (stage 3).
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

    # STAGE 1: one turn of chapter 4's worker loop: claim a job as `worker` (none due: return
    # None), run the handler registered for its kind with the job, ack it, return the job.
    # STAGE 2: a bad job must not kill the worker. A handler that raises an Exception, or a
    # kind with no handler (raise one yourself), fails the job, with the exception's class
    # name and message as its error, at once for a Permanent; the job is returned as usual.
    # Anything that is not an Exception (a KeyboardInterrupt) is a crash: let it through.
    # STAGE 3: a LeaseLost from anywhere in the attempt (the ack, the fail, or the handler)
    # means another worker holds the job now: no fail(), no error; job.outcome becomes
    # "lease lost" and the job is returned.
    # STAGE 4: a job its handler finished with complete() (its outcome is no longer None)
    # is neither acked again, nor failed if the handler raises after that: the error goes
    # no further (ours writes it to `log`), and the job is returned, its outcome "done".
    # (Optional, not checked: ours hands the job back with release() when the handler's
    # error is_busy(), the database's fault rather than the job's.)
    def work_one(self, worker=None):
        raise NotImplementedError("stage 1: write Queue.work_one()")

    def close(self):
        self.db.close()

    # STAGE 3: run one fenced finishing statement of this claim (statement: self.MARK_DONE
    # or another; params: what it needs besides :id and :token, which come from the job)
    # through self._retrying(...). It counts only if it changed exactly one row; if not,
    # nothing was written and it raises LeaseLost.
    def _guarded(self, job, statement, params):
        raise NotImplementedError("stage 3: write Queue._guarded(job, statement, params)")

    def _retrying(self, action):
        """Return action(); while SQLite says the database is locked, wait a little and
        try again, up to BUSY_RETRIES times. `action` must write all or nothing.
        Its waits use stage 2's backoff() and jitter(): until you write them, a locked
        database shows their NotImplementedError instead of a wait."""
        for attempt in range(1, BUSY_RETRIES + 1):
            try:
                return action()
            except sqlite3.OperationalError as error:
                if not is_busy(error) or attempt == BUSY_RETRIES:
                    raise
            self.sleep(jitter(backoff(attempt, 0.01, 1.0), self.rng))
