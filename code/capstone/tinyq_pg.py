"""tinyq on PostgreSQL (exercise 9): the same queue, the same states, many machines.

    python3 -m pip install -r ../requirements-ex09.txt     # psycopg 3, the driver
    pg_virtualenv python3 tinyq_pg.py                       # a throwaway server, one demo run

Everything but the SQL, the connection and the transaction comes from tinyq.py: Job,
complete(), claim(), work_one(), fail(), extend(), release(), backoff() and jitter() are the
very same Python. The SQL is in tinyq_pg_sql.py, statement for statement with the same names
as tinyq_sql.py, each difference beside a comment that says why: read the two side by side.

The four differences that matter:
1. Locking. SQLite has one writer at a time, so tinyq's claim is atomic because a second
   worker waits. PostgreSQL lets many transactions write at once; the claim locks the row
   it picks with FOR UPDATE, and SKIP LOCKED makes the others step over it instead of
   waiting: eight workers claim eight different jobs at the same moment.
2. Isolation. Each statement here runs in READ COMMITTED (PostgreSQL's default): it sees
   what was committed when it started, and a row it is about to change that another
   transaction changed meanwhile is checked again against its WHERE. That is why every
   guard (status, token, lease) is in the WHERE of the UPDATE itself, as in tinyq.py.
3. Time. SQL never reads a clock in either engine: `now` is a parameter. (PostgreSQL's now()
   would be the start of the transaction, and the database's clock, not yours.) Times are
   seconds in double precision, as SQLite's REAL, so the simulations' virtual clock works.
4. Numbering. ids and fencing tokens come from sequences, which never go backwards: a number
   handed out is not taken back when its transaction rolls back, and INSERT ... ON CONFLICT
   takes its id before it meets the conflict, so a refused or rolled-back insert leaves a gap
   (PostgreSQL 15 manual, "Sequence Manipulation Functions", the caution after the table:
   https://www.postgresql.org/docs/15/functions-sequence.html); and as shop.reset() empties
   the jobs with DELETE, which leaves the sequence where it was, a second chaos run on the
   same server numbers its jobs on from where the first stopped.
And one of spelling: sqlite3 writes a parameter as ?, psycopg as %s (see Connection below).
Source: PostgreSQL 15 documentation, "SELECT: The Locking Clause",
https://www.postgresql.org/docs/15/sql-select.html#SQL-FOR-UPDATE-SHARE
"""
from contextlib import contextmanager

import psycopg

import tinyq
from tinyq import Job, LeaseLost, Permanent, backoff, jitter  # noqa: F401 (the same as tinyq's)
from tinyq_pg_sql import (BURY_EXPIRED, CLAIM_JOB, EXTEND_LEASE, INSERT_JOB, MARK_DEAD,  # noqa: F401
                          MARK_DONE, MARK_RETRY, RELEASE_JOB, SCHEMA, STATES, TOKEN_TAKEN)

# Many workers start at once, and CREATE ... IF NOT EXISTS is not safe against itself running
# in two sessions at the same moment: a transaction-level advisory lock makes them take turns.
SCHEMA_LOCK = 7316   # any number, the same in every worker


@contextmanager
def transaction(db):
    """`with transaction(db) as db:` runs the block as one transaction: BEGIN, then COMMIT,
    or ROLLBACK if the block raises anything (which then goes on).

    Differs from tinyq.transaction: no IMMEDIATE, no write lock for the whole database.
    PostgreSQL locks each row as a statement writes it, so transactions that touch different
    jobs run side by side; one that needs a row another holds waits for that one to end.
    """
    with db.transaction():
        yield db


class Connection:
    """A psycopg connection that also takes sqlite3's ? placeholders, so that the shop's SQL
    and yours run unchanged: execute() turns each ? into psycopg's %s. (A shortcut that is only
    safe for SQL with no ? inside a quoted string, true of all the guide's SQL.) Everything else
    is psycopg's own connection, which is `raw`.
    """

    def __init__(self, raw):
        self.raw = raw

    def execute(self, query, params=None):
        return self.raw.execute(query.replace("?", "%s"), params)

    def __getattr__(self, name):
        return getattr(self.raw, name)


class Queue(tinyq.Queue):
    """A tinyq queue in a PostgreSQL database: the same API, settings and errors as tinyq.Queue.

    conninfo: a libpq connection string such as "host=db.example.com dbname=shop", or "" to
    take everything from the PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE variables.
    Raises psycopg.OperationalError when the server cannot be reached.
    """

    INSERT_JOB, BURY_EXPIRED, CLAIM_JOB, TOKEN_TAKEN = (INSERT_JOB, BURY_EXPIRED, CLAIM_JOB,
                                                        TOKEN_TAKEN)
    MARK_DONE, MARK_RETRY, MARK_DEAD = MARK_DONE, MARK_RETRY, MARK_DEAD
    EXTEND_LEASE, RELEASE_JOB = EXTEND_LEASE, RELEASE_JOB
    transaction = staticmethod(transaction)

    def __init__(self, conninfo="", **settings):
        super().__init__(conninfo, **settings)

    def _connect(self, conninfo):
        # autocommit: every statement is a transaction of its own, as with sqlite3's
        # isolation_level=None; a longer one is opened with transaction() above. Each
        # statement runs in READ COMMITTED, PostgreSQL's default isolation level.
        db = psycopg.connect(conninfo, autocommit=True)
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            db.execute(SCHEMA)
        return Connection(db)


if __name__ == "__main__":
    # A short demonstration on the server the PG* variables name (e.g. under pg_virtualenv).
    queue = Queue()
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
