"""tinyq's SQL for PostgreSQL (exercise 9): tinyq_sql.py's statements, one for one, same names.

Read the two files side by side. Every statement keeps SQLite's shape; where PostgreSQL's
differs, the comment above it says how and why. Two differences run through all of them:
- placeholders: psycopg writes a parameter as %(now)s where sqlite3 writes :now;
- time: every statement reads it as NOW below, seconds in double precision (SQLite's REAL).
  By default that is the database server's clock, one clock for every worker on every
  machine (chapter 5: leases on several machines need one source of time). A queue given a
  clock (the tests' fake one) passes its time as %(now)s instead, and NOW takes that.
The table itself is made by the migrations in tinyq_pg_schema.py, not here.
"""
STATES = ("queued", "running", "done", "dead")

# The time of a statement, in seconds since 1970: the `now` parameter when the queue has a
# clock of its own, else the server's statement_timestamp() (when this statement began: one
# value for the whole statement, so the WHERE, the SET and the indexes all see the same time).
# https://www.postgresql.org/docs/15/functions-datetime.html#FUNCTIONS-DATETIME-CURRENT
NOW = "coalesce(%(now)s::float8, extract(epoch FROM statement_timestamp())::float8)"

# The same upsert and RETURNING (PostgreSQL had both long before SQLite).
INSERT_JOB = f"""
INSERT INTO jobs (kind, args, run_at, unique_key, created_at)
VALUES (%(kind)s, %(args)s, {NOW} + %(delay)s, %(key)s, {NOW})
ON CONFLICT (unique_key) DO NOTHING
RETURNING id"""

# Differs: the rows to bury are picked with FOR UPDATE SKIP LOCKED, so a worker never waits
# for a row another worker is burying or claiming at this moment. A row skipped here is not
# claimed either: the claim below takes over only jobs with attempts left.
BURY_EXPIRED = f"""
UPDATE jobs SET status = 'dead', locked_until = NULL, finished_at = {NOW},
       last_error = 'lease expired on attempt ' || attempts || ' of ' || %(max_attempts)s
 WHERE id IN (SELECT id FROM jobs
               WHERE status = 'running' AND locked_until < {NOW}
                 AND attempts >= %(max_attempts)s
                 FOR UPDATE SKIP LOCKED)"""

# Differs: SQLite has one writer at a time, so its claim is atomic because a second worker
# waits. Here many claims run at once: each pick locks the row it chooses (FOR UPDATE) and
# steps over rows another claim has locked (SKIP LOCKED), so eight workers take eight jobs
# side by side. The outer WHERE checks status and lease again: it guards the UPDATE itself,
# whatever the subqueries saw (READ COMMITTED re-checks it on the row's latest version).
# The delivery cap is in the claim too (attempts < max_attempts): the burial above skips
# locked rows, and a row it skipped may be unlocked by the time this statement looks, so
# without the cap here a job could be handed out once past it.
# The token is nextval() of a sequence: two claims at once always get different numbers,
# where max + 1 or a counter read in the subquery could give both the same.
CLAIM_JOB = f"""
UPDATE jobs
   SET status = 'running',
       attempts = attempts + 1,
       locked_until = {NOW} + %(lease)s,
       token = nextval('jobs_token'),
       claimed_at = {NOW},
       claimed_by = %(worker)s,
       finished_at = NULL
 WHERE id = coalesce(
       -- first, a job whose lease ran out (its worker is presumed dead) ...
       (SELECT id FROM jobs WHERE status = 'running' AND locked_until < {NOW}
           AND attempts < %(max_attempts)s
         ORDER BY locked_until, id LIMIT 1 FOR UPDATE SKIP LOCKED),
       -- ... else the queued job that has been due the longest
       (SELECT id FROM jobs WHERE status = 'queued' AND run_at <= {NOW}
         ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED))
   AND (status = 'queued' AND run_at <= {NOW}
        OR status = 'running' AND locked_until < {NOW} AND attempts < %(max_attempts)s)
RETURNING id, kind, args, attempts, token"""

# Only here: claim up to %(n)s jobs in one statement (Queue.claim_batch), each as CLAIM_JOB
# claims one: running, attempts + 1, a lease of its own, a fencing token of its own (nextval()
# runs once per row). The jobs whose lease ran out come first, then the queued ones due the
# longest, as in CLAIM_JOB; the second pick asks only for what the first left. Both picks
# lock their rows and step over locked ones, so two batch claimers at once never pick the same
# job; the UPDATE's WHERE repeats every guard, the cap among them. MATERIALIZED: each pick
# runs once, as written, before the UPDATE (https://www.postgresql.org/docs/15/queries-with.html,
# "CTE Materialization"). The rows come back in no particular order.
CLAIM_BATCH = f"""
WITH expired AS MATERIALIZED (
    SELECT id FROM jobs WHERE status = 'running' AND locked_until < {NOW}
       AND attempts < %(max_attempts)s
     ORDER BY locked_until, id LIMIT %(n)s FOR UPDATE SKIP LOCKED),
due AS MATERIALIZED (
    SELECT id FROM jobs WHERE status = 'queued' AND run_at <= {NOW}
     ORDER BY run_at, id LIMIT %(n)s - (SELECT count(*) FROM expired) FOR UPDATE SKIP LOCKED)
UPDATE jobs
   SET status = 'running',
       attempts = attempts + 1,
       locked_until = {NOW} + %(lease)s,
       token = nextval('jobs_token'),
       claimed_at = {NOW},
       claimed_by = %(worker)s,
       finished_at = NULL
 WHERE id IN (SELECT id FROM expired UNION ALL SELECT id FROM due)
   AND (status = 'queued' AND run_at <= {NOW}
        OR status = 'running' AND locked_until < {NOW} AND attempts < %(max_attempts)s)
RETURNING id, kind, args, attempts, token"""

# Differs: nothing to do. nextval() in the claim already took the token for good (SQLite
# moves its tokens table on here); this only reads back the number just taken.
TOKEN_TAKEN = "SELECT currval('jobs_token')"

# The finishes are SQLite's but for the placeholders and finished_at (for job durations:
# DURATIONS below): the guard in the WHERE (this claim's token, and still running) is what
# makes a stale worker's finish write nothing.
MARK_DONE = f"""
UPDATE jobs SET status = 'done', locked_until = NULL, finished_at = {NOW}
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""

# Differs: the retry's time is now + delay, added here, on the statement's own clock.
MARK_RETRY = f"""
UPDATE jobs SET status = 'queued', run_at = {NOW} + %(delay)s, locked_until = NULL,
       last_error = %(error)s
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""

MARK_DEAD = f"""
UPDATE jobs SET status = 'dead', locked_until = NULL, last_error = %(error)s, finished_at = {NOW}
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""

# Differs: the new end is now + lease on the statement's clock, and handed back.
EXTEND_LEASE = f"""
UPDATE jobs SET locked_until = {NOW} + %(lease)s
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'
RETURNING locked_until"""

RELEASE_JOB = f"""
UPDATE jobs SET status = 'queued', run_at = {NOW}, locked_until = NULL, attempts = attempts - 1
 WHERE id = %(id)s AND token = %(token)s AND status = 'running'"""

# --- only on PostgreSQL ----------------------------------------------------------------------

# After a lost connection: is the job still this claim's, and for how many more seconds?
# (None when another claim holds it, or it is no longer running.)
LEASE_LEFT = f"""
SELECT status, token, locked_until - {NOW} FROM jobs WHERE id = %(id)s"""

# How long each kind of job takes, from its (latest) claim to its finish, in seconds: the
# median and the 99th percentile, over jobs finished since %(since)s (seconds since 1970).
# Run it yourself in psql, with a number in place of %(since)s. percentile_cont:
# https://www.postgresql.org/docs/15/functions-aggregate.html#FUNCTIONS-ORDEREDSET-TABLE
DURATIONS = """
SELECT kind, count(*) AS jobs,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY finished_at - claimed_at) AS p50_seconds,
       percentile_cont(0.99) WITHIN GROUP (ORDER BY finished_at - claimed_at) AS p99_seconds
  FROM jobs
 WHERE status = 'done' AND finished_at >= %(since)s
 GROUP BY kind ORDER BY kind"""

# Retention: delete up to %(batch)s done jobs that finished more than %(keep)s seconds ago.
# One short statement a batch, so it never holds many row locks or keeps a long transaction
# open; SKIP LOCKED steps over any row another session has locked. Dead jobs stay: they are
# the dead letters a person should read.
PRUNE_DONE = f"""
DELETE FROM jobs WHERE id IN (
    SELECT id FROM jobs
     WHERE status = 'done' AND finished_at < {NOW} - %(keep)s
     ORDER BY finished_at LIMIT %(batch)s FOR UPDATE SKIP LOCKED)"""
