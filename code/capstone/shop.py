"""The shop: signups, and the three jobs each signup queues, built on tinyq.

    python3 shop.py work [--chaos 0.1] [--seed 7] [--lease 1.0]

runs one worker until no job is queued or running. chaos.py starts several of
these and restarts the ones the chaos monkey kills. With TINYQ_BACKEND=postgres
(exercise 9) the jobs and customers live in PostgreSQL instead of shop.db: the
server named by TINYQ_DSN, or by the PGHOST, PGPORT, PGUSER ... variables. Each job's effect is
protected in one of two ways (chapters 10 and 11): an effect in another system carries an
idempotency key; an effect in our own database is committed with the ack.
"""
import argparse
import os
import sqlite3
import sys
import time

if sqlite3.sqlite_version_info < (3, 35, 0):
    sys.exit(f"the capstone needs SQLite 3.35 or newer (for UPDATE ... RETURNING); "
             f"this Python has SQLite {sqlite3.sqlite_version}")

from world import World, dice      # noqa: E402 (after the version check, on purpose)

BACKEND = os.environ.get("TINYQ_BACKEND", "sqlite")
if BACKEND == "sqlite":
    from tinyq import Queue, transaction      # noqa: E402
    DB = "shop.db"
elif BACKEND == "postgres":   # exercise 9: needs psycopg (pip install -r requirements-ex09.txt)
    from tinyq_pg import Queue, transaction   # noqa: E402
    DB = os.environ.get("TINYQ_DSN", "")
else:
    sys.exit(f"TINYQ_BACKEND must be sqlite or postgres, not {BACKEND!r}")

LEASE = 1.0           # seconds; each of our jobs takes a few milliseconds
MAX_ATTEMPTS = 30     # the chaos monkey is far crueller than a real network
SIGNUP_FEE = 5        # dollars
WELCOME_POINTS = 10
JOB_KINDS = ("send_welcome_email", "charge_signup_fee", "award_points")
CRASHED = 3           # the exit status of a worker the chaos monkey killed

# Backoff in seconds: 0.05, 0.1, 0.2 ... up to 0.5, short so that a run takes seconds.
queue = Queue(DB, lease=LEASE, max_attempts=MAX_ATTEMPTS, backoff_base=0.05, backoff_cap=0.5)
queue.db.execute("""CREATE TABLE IF NOT EXISTS customers (
                        email  TEXT PRIMARY KEY,
                        points INTEGER NOT NULL DEFAULT 0)""")
world = World("world.db")
chaos = 0.0           # chance that each crash point kills the worker (set by --chaos)


def signup(email):
    """Create the customer and queue its three jobs, in one transaction: all or nothing."""
    with transaction(queue.db) as db:
        db.execute("INSERT INTO customers (email) VALUES (?)", (email,))
        for kind in JOB_KINDS:
            queue.enqueue(kind, {"email": email}, unique_key=f"{kind}:{email}")


def maybe_crash(job, moment):
    """The chaos monkey: with chance `chaos`, kill this worker on the spot.

    os._exit ends the process at once: no except, no finally, no ack, no COMMIT,
    like pulling the plug. The dice depend on the seed, the job, the attempt and
    the moment, so a seeded run kills workers at the same moments every time.
    """
    if dice(world.seed, job.kind, job.args["email"], job.attempts, moment) < chaos:
        print(f"CRASH {moment} (job {job.id}, attempt {job.attempts})", flush=True)
        os._exit(CRASHED)


# An effect in another system: the key names the work, so a repeat is absorbed.
@queue.handler("send_welcome_email")
def send_welcome_email(job):
    email = job.args["email"]
    maybe_crash(job, "before the email")
    world.send_email(email, "Welcome!", idempotency_key=f"welcome-email:{email}")
    maybe_crash(job, "after the email, before the ack")


@queue.handler("charge_signup_fee")
def charge_signup_fee(job):
    email = job.args["email"]
    maybe_crash(job, "before the charge")
    world.charge(email, SIGNUP_FEE, idempotency_key=f"signup-fee:{email}")
    maybe_crash(job, "after the charge, before the ack")


# An effect in our own database: committed in the transaction that marks the job done.
@queue.handler("award_points")
def award_points(job):
    maybe_crash(job, "before the points")
    with job.complete() as db:
        db.execute("UPDATE customers SET points = points + ? WHERE email = ?",
                   (WELCOME_POINTS, job.args["email"]))
        maybe_crash(job, "in the transaction, before the commit")


def unfinished():
    """How many jobs are still queued or running."""
    return queue.db.execute("SELECT count(*) FROM jobs "
                            "WHERE status IN ('queued', 'running')").fetchone()[0]


def work():
    """Work jobs until every job is done or dead."""
    while True:
        if queue.work_one() is None:
            if unfinished() == 0:
                return
            time.sleep(0.02)      # jobs are waiting for a backoff or a lease: look again soon


def reset():
    """Empty the shop and the world, for a fresh run."""
    queue.db.execute("DELETE FROM jobs")
    queue.db.execute("DELETE FROM customers")
    world.reset()


def main(argv):
    global chaos
    parser = argparse.ArgumentParser(prog="shop.py", description="Run one shop worker.")
    parser.add_argument("command", choices=["work"])
    parser.add_argument("--chaos", type=float, default=0.0,
                        help="chance, 0 to 0.5, that each crash point kills the worker")
    parser.add_argument("--seed", type=int, default=0, help="the run's bad luck")
    parser.add_argument("--lease", type=float, default=LEASE, help="seconds a claim lasts")
    options = parser.parse_args(argv)
    if not 0 <= options.chaos <= 0.5:
        parser.error(f"--chaos must be between 0 and 0.5, not {options.chaos}")
    if not options.lease > 0:
        parser.error(f"--lease must be a number of seconds above 0, not {options.lease}")
    chaos, world.seed, queue.lease = options.chaos, options.seed, options.lease
    work()


if __name__ == "__main__":
    main(sys.argv[1:])
