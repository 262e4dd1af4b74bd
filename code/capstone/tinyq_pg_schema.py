"""tinyq_pg's table, made by numbered migrations that run once per deploy, apart from work.

    python3 tinyq_pg.py migrate            # the server the PG* variables name, or --dsn '...'

Why apart from work: DDL takes strong locks. CREATE INDEX, even with IF NOT EXISTS, takes a
SHARE lock on the table before it looks whether the index exists; that lock waits for every
open transaction that wrote to jobs (a claim, a complete()), and every claim that comes after
queues behind it. A worker that ran the schema each time it started could stall every other
worker for as long as one slow job's transaction stayed open. So workers only read the
schema's version (Queue() raises SchemaBehind, which says what to run); `migrate` changes
the schema, with lock_timeout, so that if it cannot have its lock at once it gives up after
that many seconds instead of holding everyone up, and says so.
Sources: PostgreSQL 15 manual, "Explicit Locking" (the lock each command takes, and how
waiting requests queue): https://www.postgresql.org/docs/15/explicit-locking.html;
lock_timeout: https://www.postgresql.org/docs/15/runtime-config-client.html#GUC-LOCK-TIMEOUT
"""
import psycopg

from tinyq_pg_sql import STATES

MIGRATE_LOCK = 7316      # an advisory lock's number: two migrates at once take turns

# 1: the table as the first tinyq_pg made it at every connect (IF NOT EXISTS: a database an
# older tinyq_pg made is taken over as it is). ids from an identity column and tokens from a
# sequence: neither ever goes back or repeats, even when a transaction rolls back or rows
# are deleted (what SQLite needs AUTOINCREMENT and the tokens table for).
CREATE_JOBS = f"""
CREATE SEQUENCE IF NOT EXISTS jobs_token;
CREATE TABLE IF NOT EXISTS jobs (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         text NOT NULL,
    args         text NOT NULL,                 -- JSON as text, as in SQLite
    status       text NOT NULL DEFAULT 'queued' CHECK (status IN {STATES}),
    attempts     integer NOT NULL DEFAULT 0,
    run_at       double precision NOT NULL,
    locked_until double precision,
    token        bigint,
    unique_key   text UNIQUE,
    last_error   text,
    created_at   double precision NOT NULL,
    claimed_at   double precision,
    claimed_by   text,
    CHECK ((status = 'running') = (locked_until IS NOT NULL))
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (run_at, id) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS jobs_leased ON jobs (locked_until, id) WHERE status = 'running';
"""

# 2: finished_at (a job's duration is finished_at - claimed_at), an index for retention, and
# room for heartbeats to be HOT updates. An UPDATE is HOT (no new index entries, the old row
# version pruned from its page) only if it changes no column any index uses, WHERE clauses of
# partial indexes included, and the page has room for the new version
# (https://www.postgresql.org/docs/15/storage-hot.html). Claims and acks change `status`,
# which the indexes that find queued and running jobs must use, so they cannot be HOT; a
# heartbeat changes only locked_until, so the running jobs' index stops naming it (there are
# only as many running jobs as workers: they are sorted by hand) and fillfactor 80 leaves a
# fifth of each new page free for the new versions.
FINISHED_AND_HOT = """
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS finished_at double precision;
ALTER TABLE jobs SET (fillfactor = 80);
DROP INDEX IF EXISTS jobs_leased;
CREATE INDEX IF NOT EXISTS jobs_running ON jobs (id) WHERE status = 'running';
CREATE INDEX IF NOT EXISTS jobs_done ON jobs (finished_at) WHERE status = 'done';
"""

# (version, what it does, its SQL), oldest first. Never edit one that has shipped: add one.
MIGRATIONS = [
    (1, "the jobs table, its token sequence and its indexes", CREATE_JOBS),
    (2, "finished_at, an index for retention, fillfactor 80 for HOT heartbeats", FINISHED_AND_HOT),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]

VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS tinyq_schema (
    one     boolean PRIMARY KEY DEFAULT true CHECK (one),
    version integer NOT NULL
)"""


class SchemaBehind(RuntimeError):
    """The database's tinyq schema is older (or newer) than this tinyq_pg: the message says
    what to run."""


class MigrationBlocked(RuntimeError):
    """migrate() could not take a lock within lock_timeout seconds: nothing was changed."""


def version(db):
    """The schema version the database is at: 0 when tinyq_pg never migrated it. Takes no
    lock that a worker's claim could wait for (it reads one row of its own table)."""
    if db.execute("SELECT to_regclass('tinyq_schema')").fetchone()[0] is None:
        return 0
    row = db.execute("SELECT version FROM tinyq_schema").fetchone()
    return 0 if row is None else row[0]


def check(db):
    """Raise SchemaBehind unless the database is at SCHEMA_VERSION."""
    found = version(db)
    if found < SCHEMA_VERSION:
        raise SchemaBehind(
            f"the database's tinyq schema is at version {found}, and this tinyq_pg needs "
            f"version {SCHEMA_VERSION}: run `python3 tinyq_pg.py migrate` once, with the same "
            f"PG* variables (or --dsn), then start the workers")
    if found > SCHEMA_VERSION:
        raise SchemaBehind(
            f"the database's tinyq schema is at version {found}, newer than this tinyq_pg "
            f"knows (version {SCHEMA_VERSION}): deploy the newer tinyq_pg.py to this worker")


def migrate(conninfo="", lock_timeout=2.0, say=lambda line: None):
    """Bring the database's tinyq schema up to SCHEMA_VERSION; return (before, after) versions.

    Each migration runs in its own transaction, with lock_timeout (seconds) on every lock it
    waits for: if another transaction holds one for longer, that migration is rolled back and
    MigrationBlocked is raised (run it again when the long transaction is gone; see
    pg_stat_activity). Two migrates at once take turns. `say(line)` hears what is done.
    """
    if not (isinstance(lock_timeout, (int, float)) and lock_timeout > 0):
        raise ValueError(f"lock_timeout must be a number of seconds above 0, got {lock_timeout!r}")
    with psycopg.connect(conninfo, autocommit=True) as db:
        before = version(db)
        for number, what, sql in MIGRATIONS:
            if number <= before:
                continue
            try:
                with db.transaction():
                    db.execute("SELECT set_config('lock_timeout', %s, true)",
                               (f"{round(lock_timeout * 1000)}ms",))
                    db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATE_LOCK,))
                    if version(db) >= number:        # another migrate did it while we waited
                        continue
                    db.execute(sql)
                    db.execute(VERSION_TABLE)
                    db.execute("INSERT INTO tinyq_schema (version) VALUES (%s) ON CONFLICT (one) "
                               "DO UPDATE SET version = excluded.version", (number,))
            except psycopg.errors.LockNotAvailable as error:
                raise MigrationBlocked(
                    f"migration {number} ({what}) waited {lock_timeout} s for a lock and gave up; "
                    f"nothing of it was changed. A long transaction holds the table (look in "
                    f"pg_stat_activity); run migrate again once it has ended. ({error})") from None
            say(f"migration {number}: {what}")
        return before, version(db)
