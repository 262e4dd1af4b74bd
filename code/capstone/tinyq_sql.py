"""tinyq's SQL for SQLite: the table, and one statement for each move of a job.

Every statement takes the time as a parameter (:now, in seconds): SQL never reads a clock.
Each finishing statement is guarded by the claim's token (WHERE token = :token); tinyq.py
checks that it changed exactly one row.
"""
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

# Look and take in one statement, so two workers can never both win a job.
CLAIM_JOB = """
UPDATE jobs
   SET status = 'running',
       attempts = attempts + 1,
       locked_until = :now + :lease,
       token = (SELECT last_token + 1 FROM tokens),
       claimed_at = :now,
       claimed_by = :worker
 WHERE id = coalesce(
       -- first, a job whose lease ran out (its worker is presumed dead) ...
       (SELECT id FROM jobs WHERE status = 'running' AND locked_until < :now
         ORDER BY locked_until, id LIMIT 1),
       -- ... else the queued job that has been due the longest
       (SELECT id FROM jobs WHERE status = 'queued' AND run_at <= :now
         ORDER BY run_at, id LIMIT 1))
RETURNING id, kind, args, attempts, token"""

TOKEN_TAKEN = "UPDATE tokens SET last_token = last_token + 1"

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

EXTEND_LEASE = """
UPDATE jobs SET locked_until = :until
 WHERE id = :id AND token = :token AND status = 'running'"""

# Handed back unfinished: due at once, and this claim is not counted as an attempt.
RELEASE_JOB = """
UPDATE jobs SET status = 'queued', run_at = :now, locked_until = NULL, attempts = attempts - 1
 WHERE id = :id AND token = :token AND status = 'running'"""
