"""tinyq: a small, honest job queue in one SQLite database. (The skeleton: you finish it.)

Save this file as tinyq.py in your capstone folder, beside check.py, and fill in the
parts marked STAGE 1 to STAGE 4, one stage at a time. After each stage, run

    python3 check.py 1      (then 2, 3 and 4)

which says in words what is still wrong. Everything not marked is written for you.
A job is a row of the table `jobs`, always in one of four states:

    enqueue --> queued --claim--> running --ack--> done
                  ^                 |   |
                  +--fail: retry----+   +--fail, no attempts left--> dead

Times are seconds, read from the clock you pass in (time.time by default) and handed
to SQL as parameters: SQL never reads a clock. Standard library only; needs SQLite
3.35 or newer for UPDATE ... RETURNING.
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

# STAGE 1: one UPDATE ... RETURNING that takes a running job whose lease ran out
# (locked_until <= :now), else the queued job due the longest (run_at <= :now), and
# makes it running: attempts + 1, locked_until = :now + :lease.
# It returns id, kind, args, attempts and token.
# STAGE 3: also set token to one more than the largest token in the table.
CLAIM_JOB = """
"""

# STAGE 1: mark job :id done (and clear its lease).
# STAGE 3: ... but only WHERE its token is still :token and it is still running.
MARK_DONE = """
"""

# STAGE 2: back to queued, not before :run_at, keeping :error in last_error.
# STAGE 3: guard it by :token, as MARK_DONE.
MARK_RETRY = """
"""

# STAGE 2: dead, keeping :error. STAGE 3: guard it by :token.
MARK_DEAD = """
"""


# STAGE 3: define the exception LeaseLost here, the one _guarded() raises.


def backoff(attempt, base, cap):
    """Seconds to wait after failed attempt number `attempt` (1, 2, ...): base, 2*base,
    4*base ... but never more than `cap`. Pure: the same input always gives the same delay."""
    raise NotImplementedError("stage 2: write backoff(attempt, base, cap)")


def jitter(delay, rng):
    """Spread a delay (seconds) at random over [delay/2, delay] ("equal jitter"),
    drawing from `rng`, a random.Random."""
    raise NotImplementedError("stage 2: write jitter(delay, rng)")


@dataclass
class Job:
    """One claim of one job, as a handler receives it.

    `token` is the claim's fencing token (None until stage 3). `outcome` says how this
    claim ended: 'done', 'queued' (a retry), 'dead' or 'lease lost'; None while running.
    """
    id: int
    kind: str
    args: dict
    attempts: int
    token: int | None
    queue: "Queue" = field(repr=False)
    outcome: str | None = None

    # STAGE 4: a context manager (write @contextmanager above it) that opens a
    # transaction with BEGIN IMMEDIATE, yields self.queue.db to the handler, then marks
    # the job done with the guarded MARK_DONE and commits; if anything raises (use
    # `except BaseException`), it rolls back and raises again. Set self.outcome = "done".
    def complete(self):
        raise NotImplementedError("stage 4: write Job.complete()")


def _require(ok, message):
    if not ok:
        raise ValueError(message)


class Queue:
    """A job queue in one SQLite database: a file path, or ":memory:".

    lease: seconds a claim holds its job before another worker may take it over.
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
        # isolation_level=None: no hidden BEGIN; we open transactions ourselves.
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.executescript(SCHEMA)

    # STAGE 1: a decorator. handler(kind) returns a function `register(function)` that
    # stores `function` in self.handlers under `kind` and returns it unchanged.
    def handler(self, kind):
        raise NotImplementedError("stage 1: write Queue.handler(kind), a decorator")

    def enqueue(self, kind, args, unique_key=None, delay=0.0):
        """Add a job and return its id, or None if a job with `unique_key` exists (refused).

        args: a dict of JSON values. delay: seconds before the job may be claimed.
        It joins the caller's open transaction, if any. Raises TypeError or ValueError.
        """
        if not isinstance(args, dict):
            raise TypeError(f"args must be a dict, got {type(args).__name__}")
        try:
            text = json.dumps(args, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(f"args must hold only JSON values: {error}") from None
        _require(isinstance(delay, (int, float)) and delay >= 0,
                 f"delay must be a number of seconds from 0, got {delay!r}")
        rows = self.db.execute(INSERT_JOB, {"kind": kind, "args": text, "key": unique_key,
                                            "run_at": self.clock() + delay}).fetchall()
        return rows[0][0] if rows else None

    # STAGE 1: run CLAIM_JOB with {"now": self.clock(), "lease": self.lease}; use
    # .fetchall(), which finishes the statement. No row: return None. Otherwise return
    # Job(id, kind, json.loads(args), attempts, token, self).
    def claim(self):
        raise NotImplementedError("stage 1: write Queue.claim()")

    # STAGE 1: run MARK_DONE for this job and set job.outcome = "done".
    # STAGE 3: run it through self._guarded(job, MARK_DONE, {}) instead.
    def ack(self, job):
        raise NotImplementedError("stage 1: write Queue.ack(job)")

    # STAGE 2: if job.attempts >= self.max_attempts, MARK_DEAD and return "dead"; else
    # MARK_RETRY with run_at = now + jitter(backoff(...), self.rng) and return "queued".
    # Set job.outcome to what you return. STAGE 3: through self._guarded(...).
    def fail(self, job, error):
        raise NotImplementedError("stage 2: write Queue.fail(job, error)")

    # STAGE 1: claim a job (None: return None), call the handler registered for its kind
    # with the job, ack it, and return the job.
    # STAGE 2: a handler that raises an Exception (or a kind with no handler) fails the
    # job with the text f"{type(error).__name__}: {error}" instead of crashing the worker.
    # STAGE 3: if a finish raises LeaseLost, set job.outcome = "lease lost" and return
    # the job: another worker holds it now.
    # STAGE 4: do not ack a job the handler already finished with complete() (its
    # outcome is no longer None), and let LeaseLost from complete() be handled as above.
    def work_one(self):
        raise NotImplementedError("stage 1: write Queue.work_one()")

    def close(self):
        self.db.close()

    # STAGE 3: run one finishing UPDATE with {"id": job.id, "token": job.token, **params};
    # if cursor.rowcount is not 1, raise LeaseLost(...): nothing was written.
    def _guarded(self, job, statement, params):
        raise NotImplementedError("stage 3: write Queue._guarded(job, statement, params)")
