"""tinyq on PostgreSQL (exercise 9): the same queue, the same states, many machines.

    python3 -m pip install -r ../requirements-ex09.txt     # psycopg 3, the driver
    pg_virtualenv python3 tinyq_pg.py                       # a throwaway server, one demo run

Everything but the SQL and the connection comes from tinyq.py: Job, complete(), work_one(),
fail(), backoff() and jitter() are the very same Python. What differs between the two
engines is all in this file, statement by statement, each beside a comment that says why;
put it next to tinyq.py and read them side by side.

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
4. Numbering. ids and fencing tokens come from sequences, which never go backwards, not
   even when a transaction rolls back: a refused or rolled-back insert leaves a gap.
And one of spelling: sqlite3 writes a parameter as ?, psycopg as %s (see Connection below).
Source: PostgreSQL 15 documentation, "SELECT: The Locking Clause",
https://www.postgresql.org/docs/15/sql-select.html#SQL-FOR-UPDATE-SHARE
"""
from contextlib import contextmanager

import psycopg

import tinyq
from tinyq import STATES, Job, LeaseLost, backoff, jitter  # noqa: F401 (the same names as tinyq)

# Differs: `bigint GENERATED ALWAYS AS IDENTITY` and a sequence for tokens, where SQLite has
# INTEGER PRIMARY KEY and max(token) + 1; `double precision` for SQLite's REAL. args stays
# text holding JSON, as in SQLite, so both engines hand Python the same string (jsonb would
# let SQL look inside args, which tinyq never does).
SCHEMA = f"""
CREATE SEQUENCE IF NOT EXISTS jobs_token;
CREATE TABLE IF NOT EXISTS jobs (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         text NOT NULL,
    args         text NOT NULL,
    status       text NOT NULL DEFAULT 'queued' CHECK (status IN {STATES}),
    attempts     integer NOT NULL DEFAULT 0,
    run_at       double precision NOT NULL,
    locked_until double precision,
    token        bigint,
    unique_key   text UNIQUE,
    last_error   text
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (run_at, id) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS jobs_leased ON jobs (locked_until, id) WHERE status = 'running';
"""

# The same statement as SQLite's, upsert and RETURNING included (PostgreSQL had both first).
# Differs: psycopg's %(name)s placeholders where sqlite3 has :name.
INSERT_JOB = """
INSERT INTO jobs (kind, args, run_at, unique_key) VALUES (%(kind)s, %(args)s, %(run_at)s, %(key)s)
ON CONFLICT (unique_key) DO NOTHING
RETURNING id"""

# The same shape as SQLite's claim: one UPDATE whose WHERE picks one job.
# Differs: each pick locks its row (FOR UPDATE) and steps over rows that another worker has
# locked (SKIP LOCKED), where SQLite simply makes the second worker wait. The outer WHERE
# checks the status and lease again: it is what the UPDATE itself is guarded by, whatever the
# subqueries saw. The token comes from a sequence (nextval), not from max(token) + 1, which
# two workers could compute at the same moment.
CLAIM_JOB = """
UPDATE jobs
   SET status = 'running',
       attempts = attempts + 1,
       locked_until = %(now)s + %(lease)s,
       token = nextval('jobs_token')
 WHERE id = coalesce(
       -- first, a job whose lease ran out (its worker is presumed dead) ...
       (SELECT id FROM jobs WHERE status = 'running' AND locked_until <= %(now)s
         ORDER BY locked_until, id LIMIT 1 FOR UPDATE SKIP LOCKED),
       -- ... else the queued job that has been due the longest
       (SELECT id FROM jobs WHERE status = 'queued' AND run_at <= %(now)s
         ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED))
   AND (status = 'queued' AND run_at <= %(now)s
        OR status = 'running' AND locked_until <= %(now)s)
RETURNING id, kind, args, attempts, token"""

# The finishes are word for word SQLite's, but for the placeholders: the guard in the WHERE
# (this claim's token, and still running) is what makes a stale worker's finish write nothing.
MARK_DONE = """
UPDATE jobs SET status = 'done', locked_until = NULL
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""

MARK_RETRY = """
UPDATE jobs SET status = 'queued', run_at = %(run_at)s, locked_until = NULL, last_error = %(error)s
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""

MARK_DEAD = """
UPDATE jobs SET status = 'dead', locked_until = NULL, last_error = %(error)s
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""

# Many workers start at once, and CREATE ... IF NOT EXISTS is not safe against itself running
# in two sessions at the same moment: a transaction-level advisory lock makes them take turns.
SCHEMA_LOCK = 7316   # any number, the same in every worker


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

    INSERT_JOB, CLAIM_JOB, MARK_DONE, MARK_RETRY, MARK_DEAD = (
        INSERT_JOB, CLAIM_JOB, MARK_DONE, MARK_RETRY, MARK_DEAD)

    def __init__(self, conninfo="", **settings):
        super().__init__(conninfo, **settings)

    def _connect(self, conninfo):
        # autocommit: every statement is a transaction of its own, as with sqlite3's
        # isolation_level=None; a longer transaction is opened with transaction() below.
        db = psycopg.connect(conninfo, autocommit=True)
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            db.execute(SCHEMA)
        return Connection(db)

    @contextmanager
    def transaction(self):
        """BEGIN ... COMMIT; ROLLBACK if the block raises anything.

        Differs: no IMMEDIATE. PostgreSQL locks each row as a statement writes it, so two
        transactions that touch different jobs run side by side; one that needs a row another
        holds waits for that transaction to end, then sees the committed row.
        """
        with self.db.transaction():
            yield self.db


if __name__ == "__main__":
    queue = Queue()
    queue.db.execute("DROP TABLE IF EXISTS jobs")
    queue = Queue()

    @queue.handler("email")
    def send(job):
        print(f"sending a welcome email to {job.args['to']} (job {job.id}, token {job.token})")

    for to in ("ada@example.com", "alan@example.com"):
        queue.enqueue("email", {"to": to}, unique_key=f"welcome:{to}")
    print("a second job for ada is refused:",
          queue.enqueue("email", {"to": "ada@example.com"}, unique_key="welcome:ada@example.com"))
    while (job := queue.work_one()) is not None:
        print(f"job {job.id}: {job.outcome}")
    server = queue.db.execute("SHOW server_version").fetchone()[0]
    print(f"PostgreSQL {server.split()[0]}: jobs by status:",
          dict(queue.db.execute("SELECT status, count(*) FROM jobs GROUP BY status")))
