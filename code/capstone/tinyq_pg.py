"""tinyq on PostgreSQL (exercise 9): the same queue, the same states, many machines.

    python3 -m venv ~/ex09                                       # psycopg 3, in a venv
    ~/ex09/bin/python -m pip install -r ../requirements-ex09.txt
    pg_virtualenv -t bash                # a shell with a throwaway server, and in it:
    source ~/ex09/bin/activate
    python3 tinyq_pg.py migrate          # make (or bring up to date) the jobs table, once a deploy
    python3 tinyq_pg.py                  # one demo run (it migrates first, as a deploy would)

Most of it is tinyq.py's: Job, complete(), work_one(), ack(), release(), backoff() and jitter()
are the very same Python. The SQL is in tinyq_pg_sql.py, statement for statement with the
same names as tinyq_sql.py, each difference beside a comment that says why: read the two side
by side. The table is made by tinyq_pg_schema.py's migrations, never by a worker.

What differs, and why:
1. Locking. SQLite has one writer at a time, so tinyq's claim is atomic because a second
   worker waits. PostgreSQL lets many transactions write at once; the claim locks the row
   it picks with FOR UPDATE, and SKIP LOCKED makes the others step over it instead of
   waiting: eight workers claim eight different jobs at the same moment. (PostgreSQL 15,
   "The Locking Clause": https://www.postgresql.org/docs/15/sql-select.html#SQL-FOR-UPDATE-SHARE)
2. Isolation. Each statement runs in READ COMMITTED (PostgreSQL's default): it sees what was
   committed when it started, and a row it is about to change that another transaction
   changed meanwhile is checked again against its WHERE. That is why every guard (status,
   token, lease, the attempt cap) is in the WHERE of the UPDATE itself.
3. Time. Workers on several machines must judge leases by one clock, so by default every
   statement reads the database server's (clock=None). A worker's own check of its lease
   (Job.lease_left()) uses its monotonic clock, which no clock adjustment moves. claim(),
   fail() and extend() are written here because they hand the SQL a lease or a delay rather
   than a time computed from the worker's clock.
4. Numbering. ids and fencing tokens come from sequences, which never go backwards; a number
   handed out is not taken back when its transaction rolls back, and INSERT ... ON CONFLICT
   takes its id before it meets the conflict, so a refused or rolled-back insert leaves a gap
   (https://www.postgresql.org/docs/15/functions-sequence.html, the caution after the table).
5. The network. A server restarts, a connection drops. A worker reconnects (backoff and
   jitter) and carries on; a write whose answer was lost is checked on the job's row before
   anything else is done, and the log says what was found (tinyq_pg_connection.py).
And one of spelling: sqlite3 writes a parameter as ?, psycopg as %s (see Connection).
"""
import json
import logging
import math
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg

import tinyq
from tinyq import LeaseLost, Permanent, backoff, jitter  # noqa: F401 (the same as tinyq's)
from tinyq_pg_connection import Connection, ConnectionLost, transaction  # noqa: F401
from tinyq_pg_schema import MigrationBlocked, SchemaBehind, check, migrate  # noqa: F401
from tinyq_pg_sql import (BURY_EXPIRED, CLAIM_BATCH, CLAIM_JOB, DURATIONS,  # noqa: F401
                          EXTEND_LEASE, INSERT_JOB, LEASE_LEFT, MARK_DEAD, MARK_DONE, MARK_RETRY,
                          PRUNE_DONE, RELEASE_JOB, STATES, TOKEN_TAKEN)

log = logging.getLogger("tinyq")


# What each finish leaves in the job's row once committed: after a lost answer, the row says
# whether it was.
LEAVES = {MARK_DONE: "done", MARK_RETRY: "queued", MARK_DEAD: "dead", RELEASE_JOB: "queued"}


def server_clock():
    """The default clock: no time from this machine. Each statement reads None as "the
    database server's time" (tinyq_pg_sql.NOW), the one clock every worker shares."""
    return None


@dataclass
class Job(tinyq.Job):
    """tinyq's Job, plus `deadline`: when this worker must consider its lease over, in seconds
    of the queue's monotonic clock, reckoned from just before the claim was sent (so never
    later than the server's end of the lease)."""
    deadline: float = math.inf

    def lease_left(self):
        """Seconds of the lease left, by this machine's monotonic clock (negative: over)."""
        return self.deadline - self.queue.monotonic()

    @contextmanager
    def complete(self):
        """tinyq's complete(). If the connection drops during its COMMIT, the commit's fate is
        unknown: reconnect and read the job's row; a job done under this token was committed
        (said in the log, the outcome is 'done'); otherwise the error goes on, nothing was."""
        try:
            with super().complete() as db:
                yield db
        except psycopg.Error:            # any error: lost() tells a dropped connection
            if not self.queue.db.lost():
                raise
            self.queue.db.reconnect()
            status, token, _ = self.queue.lease_of(self)
            if (status, token) != ("done", self.token):
                raise
            log.warning("job %s: the connection dropped during complete()'s COMMIT; the job's "
                        "row says it was committed (done, token %s)", self.id, self.token)
            self.outcome = "done"


class Queue(tinyq.Queue):
    """A tinyq queue in a PostgreSQL database: tinyq.Queue's API, settings and errors, plus:

    conninfo: a libpq connection string such as "host=db.example.com dbname=shop", or "" to
      take everything from the PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE variables.
    lease, max_attempts, backoff_base, backoff_cap, rng, sleep: as tinyq.Queue (seconds).
    clock: None (the default) for the database server's clock; a function returning seconds
      to use that instead (the tests' fake clock).
    monotonic: a function returning seconds that never go back (time.monotonic): the
      worker's own reckoning of its leases (Job.deadline).
    statement_timeout: seconds any one statement may run before the server cancels it.
    idle_in_transaction_timeout: seconds a transaction may sit open with nothing to do
      before the server ends the session (a hung worker must not hold locks and old row
      versions for ever). Both are set per session:
      https://www.postgresql.org/docs/15/runtime-config-client.html
    reconnect_for: seconds to keep trying to connect, at the start or after the connection
      is lost (backoff and jitter between tries, each failure logged), before giving up.
    Raises ConnectionLost (a psycopg.OperationalError) when the server cannot be reached
    within reconnect_for seconds, SchemaBehind
    when the database needs `python3 tinyq_pg.py migrate`, ValueError for a bad setting.
    """

    INSERT_JOB, BURY_EXPIRED, CLAIM_JOB, TOKEN_TAKEN = (INSERT_JOB, BURY_EXPIRED, CLAIM_JOB,
                                                        TOKEN_TAKEN)
    MARK_DONE, MARK_RETRY, MARK_DEAD = MARK_DONE, MARK_RETRY, MARK_DEAD
    EXTEND_LEASE, RELEASE_JOB = EXTEND_LEASE, RELEASE_JOB
    transaction = staticmethod(transaction)

    def __init__(self, conninfo="", *, lease=30.0, max_attempts=5, backoff_base=1.0,
                 backoff_cap=300.0, clock=None, rng=None, sleep=time.sleep,
                 monotonic=time.monotonic, statement_timeout=30.0,
                 idle_in_transaction_timeout=60.0, reconnect_for=60.0):
        for name, value in [("statement_timeout", statement_timeout), ("reconnect_for", reconnect_for),
                            ("idle_in_transaction_timeout", idle_in_transaction_timeout)]:
            tinyq._require(isinstance(value, (int, float)) and value > 0,
                           f"{name} must be a number of seconds above 0, got {value!r}")
        self.monotonic, self.reconnect_for = monotonic, reconnect_for
        self.session = {"statement_timeout": statement_timeout,
                        "idle_in_transaction_session_timeout": idle_in_transaction_timeout}
        super().__init__(conninfo, lease=lease, max_attempts=max_attempts,
                         backoff_base=backoff_base, backoff_cap=backoff_cap,
                         clock=server_clock if clock is None else clock, rng=rng, sleep=sleep)

    def _connect(self, conninfo):
        # autocommit: every statement is a transaction of its own, as with sqlite3's
        # isolation_level=None; a longer one is opened with transaction(). Each statement
        # runs in READ COMMITTED, PostgreSQL's default isolation level.
        return Connection(conninfo, self.session, check, self)

    def claim(self, worker=None):
        """tinyq's claim, with the attempt cap in the claim itself and the lease reckoned
        locally too (Job.deadline). After a lost connection it reconnects and claims again:
        a claim committed just before the drop is lost to this worker, and its job comes back
        when that lease runs out (at-least-once, as after a crash)."""
        jobs = self._claim(self.CLAIM_JOB, {}, worker)
        return jobs[0] if jobs else None

    def claim_batch(self, n, worker=None):
        """Claim up to n jobs in one statement (tinyq_pg_sql.CLAIM_BATCH) and return them as a
        list of Jobs ([] when none is due), each claimed as claim() claims one: its own lease
        of `lease` seconds from now, its own fencing token, attempts + 1, within the cap. One
        round trip instead of n, but every lease starts now: the last job of the batch waits
        for the others, so n jobs' work must fit in one lease (or extend() each). Raises
        ValueError unless n is a whole number from 1."""
        tinyq._require(isinstance(n, int) and not isinstance(n, bool) and n >= 1,
                       f"n must be a whole number of jobs from 1, got {n!r}")
        # Not a class attribute like the statements above: those are what a reader's tinyq swaps
        # in (the skeleton names each); a batch claim is this module's alone.
        return self._claim(CLAIM_BATCH, {"n": n}, worker)

    def _claim(self, statement, params, worker):
        """Bury the jobs out of attempts, then run the claim `statement`, in one transaction;
        return its rows as Jobs, their deadlines reckoned from just before it was sent."""
        sent = None

        def take():
            nonlocal sent
            sent = self.monotonic()
            with self.transaction(self.db) as db:
                now = self.clock()
                db.execute(self.BURY_EXPIRED, {"now": now, "max_attempts": self.max_attempts})
                return db.execute(statement, {**params, "now": now, "lease": self.lease,
                                              "worker": worker,
                                              "max_attempts": self.max_attempts}).fetchall()
        rows = self.db.again_after_a_drop(take, "a claim")
        return [Job(job_id, kind, json.loads(args), attempts, token, self, deadline=sent + self.lease)
                for job_id, kind, args, attempts, token in rows]

    def fail(self, job, error, permanent=False):
        """tinyq's fail(), the retry's time computed in SQL (now + delay, on NOW's clock)."""
        if permanent or job.attempts >= self.max_attempts:
            self._guarded(job, self.MARK_DEAD, {"error": error})
            job.outcome = "dead"
        else:
            delay = jitter(backoff(job.attempts, self.backoff_base, self.backoff_cap), self.rng)
            self._guarded(job, self.MARK_RETRY, {"error": error, "delay": delay})
            job.outcome = "queued"
        return job.outcome

    def extend(self, job, lease=None):
        """tinyq's extend(): renew the lease to now + `lease` seconds and return its new end
        (seconds, on NOW's clock); job.deadline moves too. Raises LeaseLost like ack()."""
        lease = self.lease if lease is None else lease
        sent = self.monotonic()
        cursor = self._guarded(job, self.EXTEND_LEASE, {"lease": lease})
        job.deadline = sent + lease
        return cursor.fetchone()[0]

    def lease_of(self, job):
        """(status, token, seconds of lease left on NOW's clock, or None) of the job's row."""
        row = self.db.execute(LEASE_LEFT, {"id": job.id, "now": self.clock()}).fetchone()
        return (None, None, None) if row is None else row

    def durations(self, since=0.0):
        """[(kind, jobs, p50 seconds, p99 seconds)] of the jobs done since `since` (seconds
        since 1970), from claim to finish: tinyq_pg_sql.DURATIONS, which psql can run too."""
        return self.db.execute(DURATIONS, {"since": since}).fetchall()

    def prune(self, keep, batch=1000):
        """Retention: delete done jobs that finished more than `keep` seconds ago, `batch` at a
        time (each batch its own short statement), and return how many went. Dead jobs stay.
        Careful: a deleted job's unique_key can be used again, so keep jobs for longer than
        any producer may repeat an enqueue."""
        tinyq._require(isinstance(keep, (int, float)) and keep >= 0,
                       f"keep must be a number of seconds from 0, got {keep!r}")
        tinyq._require(isinstance(batch, int) and batch >= 1, f"batch must be a whole number from 1")
        deleted = 0
        while True:
            cursor = self.db.again_after_a_drop(lambda: self.db.execute(
                PRUNE_DONE, {"keep": keep, "batch": batch, "now": self.clock()}), "a prune")
            deleted += cursor.rowcount
            if cursor.rowcount < batch:
                return deleted

    def _guarded(self, job, statement, params):
        """Run one finishing UPDATE for this claim; raise LeaseLost unless it hit one row.
        If the connection drops before the answer comes, the write may or may not have been
        committed: reconnect, re-check the job's lease on its row, and then either write
        again (still running under this token: it was not), accept it (the row shows what
        the write leaves: it was; logged), or raise LeaseLost (another claim has the job)."""
        params = {"id": job.id, "token": job.token, "now": self.clock(), **params}
        try:
            cursor = self.db.execute(statement, params)
        except psycopg.Error:            # any error: lost() tells a dropped connection
            if self.db.in_block or not self.db.lost():
                raise
            self.db.reconnect()
            status, token, left = self.lease_of(job)
            if token == job.token and status == LEAVES.get(statement):
                log.warning("job %s: the connection dropped before the server answered; its row "
                            "shows the write was committed (%s, token %s)", job.id, status, token)
                return None
            if token != job.token or status != "running":
                raise LeaseLost(f"job {job.id} is no longer held by token {job.token} "
                                f"(found after a dropped connection): nothing written")
            job.deadline = self.monotonic() + left
            log.warning("job %s: the connection dropped before the server answered; its row "
                        "shows the write was not committed, and the job is still this claim's "
                        "(%.3g s of lease left): writing it again", job.id, left)
            cursor = self.db.execute(statement, params)
        if cursor.rowcount != 1:
            raise LeaseLost(f"job {job.id} is no longer held by token {job.token}: nothing written")
        return cursor


def main(argv):
    """`migrate [--dsn DSN] [--lock-timeout SECONDS]`, or no command: a short demo."""
    import argparse
    parser = argparse.ArgumentParser(prog="tinyq_pg.py", description="tinyq on PostgreSQL")
    parser.add_argument("command", nargs="?", choices=["migrate"],
                        help="migrate: bring the jobs table up to date (no command: a demo run)")
    parser.add_argument("--dsn", default="", help="a connection string (default: the PG* variables)")
    parser.add_argument("--lock-timeout", type=float, default=2.0,
                        help="seconds a migration may wait for a lock before it gives up (default 2)")
    options = parser.parse_args(argv)
    if options.command == "migrate":
        try:
            before, after = migrate(options.dsn, options.lock_timeout, say=print)
        except MigrationBlocked as error:
            sys.exit(f"tinyq_pg.py migrate: {error}")
        print(f"tinyq schema: version {after}" + ("" if before == after else f" (was {before})"))
        return
    demo(options.dsn)


def demo(dsn):
    """A short demonstration on the server the PG* variables name (e.g. under pg_virtualenv)."""
    migrate(dsn)                # what a deploy does once, before it starts the workers
    queue = Queue(dsn)
    queue.db.execute("DELETE FROM jobs")

    @queue.handler("email")
    def send(job):
        print(f"sending a welcome email to {job.args['to']} (job {job.id}, token {job.token})")

    for to in ("ada@example.com", "alan@example.com"):
        queue.enqueue("email", {"to": to}, unique_key=f"welcome:{to}")
    print("a second job for ada is refused:",
          queue.enqueue("email", {"to": "ada@example.com"}, unique_key="welcome:ada@example.com"))
    while (job := queue.work_one(worker="demo")) is not None:
        print(f"job {job.id}: {job.outcome}")
    print("jobs by status:", dict(queue.db.execute("SELECT status, count(*) FROM jobs GROUP BY status")))


if __name__ == "__main__":
    main(sys.argv[1:])
