"""tinyq's SQL for PostgreSQL (exercise 9): tinyq_sql.py's statements, one for one, same names.

Read the two files side by side. Every statement keeps SQLite's shape; where PostgreSQL's
differs, the comment above it says how and why. Two differences run through all of them:
- placeholders: psycopg writes a parameter as %(now)s where sqlite3 writes :now;
- time is still a parameter, in seconds (double precision, SQLite's REAL): PostgreSQL's
  now() would be the transaction's start on the server's clock, and the simulations need
  the clock they pass in.
"""
STATES = ("queued", "running", "done", "dead")

# Differs: ids from an identity column and tokens from a sequence. Neither ever goes back or
# repeats, even when a transaction rolls back or rows are deleted (what SQLite needs
# AUTOINCREMENT and the tokens table for). A rolled-back or refused insert leaves a gap.
SCHEMA = f"""
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

# The same upsert and RETURNING (PostgreSQL had both long before SQLite).
INSERT_JOB = """
INSERT INTO jobs (kind, args, run_at, unique_key, created_at)
VALUES (%(kind)s, %(args)s, %(now)s + %(delay)s, %(key)s, %(now)s)
ON CONFLICT (unique_key) DO NOTHING
RETURNING id"""

# Differs: the rows to bury are picked with FOR UPDATE SKIP LOCKED, so a worker never waits
# for a row another worker is burying or claiming at this moment.
BURY_EXPIRED = """
UPDATE jobs SET status = 'dead', locked_until = NULL,
       last_error = 'lease expired on attempt ' || attempts || ' of ' || %(max_attempts)s
 WHERE id IN (SELECT id FROM jobs
               WHERE status = 'running' AND locked_until < %(now)s
                 AND attempts >= %(max_attempts)s
                 FOR UPDATE SKIP LOCKED)"""

# Differs: SQLite has one writer at a time, so its claim is atomic because a second worker
# waits. Here many claims run at once: each pick locks the row it chooses (FOR UPDATE) and
# steps over rows another claim has locked (SKIP LOCKED), so eight workers take eight jobs
# side by side. The outer WHERE checks status and lease again: it guards the UPDATE itself,
# whatever the subqueries saw (READ COMMITTED re-checks it on the row's latest version).
# The token is nextval() of a sequence: two claims at once always get different numbers,
# where max + 1 or a counter read in the subquery could give both the same.
CLAIM_JOB = """
UPDATE jobs
   SET status = 'running',
       attempts = attempts + 1,
       locked_until = %(now)s + %(lease)s,
       token = nextval('jobs_token'),
       claimed_at = %(now)s,
       claimed_by = %(worker)s
 WHERE id = coalesce(
       -- first, a job whose lease ran out (its worker is presumed dead) ...
       (SELECT id FROM jobs WHERE status = 'running' AND locked_until < %(now)s
         ORDER BY locked_until, id LIMIT 1 FOR UPDATE SKIP LOCKED),
       -- ... else the queued job that has been due the longest
       (SELECT id FROM jobs WHERE status = 'queued' AND run_at <= %(now)s
         ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED))
   AND (status = 'queued' AND run_at <= %(now)s
        OR status = 'running' AND locked_until < %(now)s)
RETURNING id, kind, args, attempts, token"""

# Differs: nothing to do. nextval() in the claim already took the token for good (SQLite
# moves its tokens table on here); this only reads back the number just taken.
TOKEN_TAKEN = "SELECT currval('jobs_token')"

# The finishes are word for word SQLite's but for the placeholders: the guard in the WHERE
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

EXTEND_LEASE = """
UPDATE jobs SET locked_until = %(until)s
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""

RELEASE_JOB = """
UPDATE jobs SET status = 'queued', run_at = %(now)s, locked_until = NULL, attempts = attempts - 1
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""
