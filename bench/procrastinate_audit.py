"""The chaos monkey's audit, run against a real queue library: procrastinate on PostgreSQL.

    pip install -r bench/requirements-procrastinate.txt
    pg_virtualenv -t python3 bench/procrastinate_audit.py --seed 1 --chaos 0.3

The same shop as code/capstone (a welcome email, a signup fee, loyalty points per customer),
the same flaky world (code/capstone/world.py: lost requests, lost replies, idempotency keys),
and the same dice: each crash point kills its worker process (os._exit, no cleanup) with
chance --chaos. The queue is procrastinate's, used the way its documentation says:

- tasks declared with @app.task and a RetryStrategy (docs: howto/advanced/retry.md);
- workers started with app.run_worker(), one process each (howto/basics/worker.md);
- a worker killed mid-job leaves its job in `doing`; the docs' periodic task
  `retry_stalled_jobs` finds jobs of workers whose heartbeat stopped and retries them
  (howto/production/retry_stalled_jobs.md). Its timings are scaled down here so a run takes
  seconds: a heartbeat every 0.5 s (docs: 10 s), a worker stalled after 2 s (docs: 30 s),
  the check every second (docs' example: every 10 minutes).
- the points are a plain write to our own database in the task; procrastinate marks the job
  succeeded in its own statement after the task returns, so there is a crash point between.

It lives in bench/, not code/: it measures somebody else's library, needs packages of its own
(pinned in bench/requirements-procrastinate.txt), and is not an exercise the reader types.
It prints the same report and audit as chaos.py; exit status 0 when the audit passes, 1 when
it fails, 2 for bad options, 4 when jobs were still unfinished after TIME_LIMIT seconds.
"""
import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from importlib.metadata import version
from pathlib import Path

import procrastinate
import psycopg

CAPSTONE = Path(__file__).resolve().parents[1] / "code" / "capstone"
sys.path.insert(0, str(CAPSTONE))
from world import World, dice   # noqa: E402  (the capstone's world and dice, unchanged)

SIGNUP_FEE = 5
WELCOME_POINTS = 10
KINDS = ("send_welcome_email", "charge_signup_fee", "award_points")
CRASHED = 3
TIME_LIMIT = 240      # seconds
HEARTBEAT, STALLED_AFTER = 0.5, 2.0   # seconds (procrastinate's defaults: 10 and 30)

DSN = os.environ.get("TINYQ_DSN", "")
app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=DSN))
world = World("world.db")
chaos = 0.0
# procrastinate runs a synchronous task in a thread of its own, and a sqlite3 connection
# belongs to the thread that opened it: each thread gets its own World (the same world.db).
local = threading.local()


def the_world():
    if not hasattr(local, "world"):
        local.world = World("world.db", seed=world.seed)
    return local.world


# The two libraries number attempts differently. tinyq counts the claim itself: a job's first
# run sees job.attempts == 1. procrastinate counts the runs that came before: its first run sees
# job.attempts == 0 ("The first time a job is run, attempts will be 0": procrastinate 3.10.0,
# procrastinate/retry.py, BaseRetryStrategy.get_schedule_in), and the count goes up by one only
# when a run ends (procrastinate/sql/schema.sql: procrastinate_retry_job_v2 and
# procrastinate_finish_job set attempts = attempts + 1; the stalled-job recipe below retries
# through the first). So tinyq's attempt n is procrastinate's job.attempts == n - 1, and:
# - the dice are rolled with job.attempts + 1, so both libraries meet the same crash on the
#   same attempt of the same job (shop.py rolls with tinyq's job.attempts);
# - procrastinate's RetryStrategy stops retrying once job.attempts >= max_attempts, that is
#   after max_attempts + 1 runs, so the shop's cap of 30 runs is max_attempts=29 here.
SHOP_MAX_ATTEMPTS = 30                 # code/capstone/shop.py's MAX_ATTEMPTS: runs in all
RETRY = procrastinate.RetryStrategy(max_attempts=SHOP_MAX_ATTEMPTS - 1)   # retried at once


def attempt_number(job):
    """The run this is, counted from 1 as tinyq counts it (procrastinate counts from 0)."""
    return job.attempts + 1


def maybe_crash(context, email, moment):
    """Kill this worker process with chance `chaos`, decided by the same dice as shop.py."""
    job = context.job
    if dice(world.seed, job.task_name, email, attempt_number(job), moment) < chaos:
        print(f"CRASH {moment} (job {job.id}, attempt {attempt_number(job)})", flush=True)
        os._exit(CRASHED)


@app.task(name="send_welcome_email", retry=RETRY, pass_context=True)
def send_welcome_email(context, email):
    maybe_crash(context, email, "before the email")
    the_world().send_email(email, "Welcome!", idempotency_key=f"welcome-email:{email}")
    maybe_crash(context, email, "after the email, before the ack")


@app.task(name="charge_signup_fee", retry=RETRY, pass_context=True)
def charge_signup_fee(context, email):
    maybe_crash(context, email, "before the charge")
    the_world().charge(email, SIGNUP_FEE, idempotency_key=f"signup-fee:{email}")
    maybe_crash(context, email, "after the charge, before the ack")


@app.task(name="award_points", retry=RETRY, pass_context=True)
def award_points(context, email):
    maybe_crash(context, email, "before the points")
    with psycopg.connect(DSN) as db:            # commits when the block ends
        db.execute("UPDATE customers SET points = points + %s WHERE email = %s",
                   (WELCOME_POINTS, email))
        maybe_crash(context, email, "in the transaction, before the commit")
    maybe_crash(context, email, "after the points, before the ack")


# The docs' recipe for jobs left in `doing` by a worker that died, every second here.
@app.periodic(cron="* * * * * *")
@app.task(name="retry_stalled_jobs", queueing_lock="retry_stalled_jobs", pass_context=True)
async def retry_stalled_jobs(context, timestamp):
    stalled = await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=STALLED_AFTER)
    for job in stalled:
        await app.job_manager.retry_job(job)


def work(seed, chance):
    """One worker process: run jobs until stopped (SIGTERM) or killed by the monkey."""
    global chaos
    chaos, world.seed = chance, seed
    app.run_worker(concurrency=1, update_heartbeat_interval=HEARTBEAT,
                   stalled_worker_timeout=STALLED_AFTER, fetch_job_polling_interval=0.2)


# --- the supervisor: set up, start and restart workers, then audit ----------------------------

async def set_up(emails):
    """A fresh procrastinate schema, the customers, and three jobs per customer."""
    async with app.open_async():
        await app.schema_manager.apply_schema_async()
        with psycopg.connect(DSN, autocommit=True) as db:
            db.execute("CREATE TABLE customers (email text PRIMARY KEY, "
                       "points integer NOT NULL DEFAULT 0)")
            for email in emails:
                db.execute("INSERT INTO customers (email) VALUES (%s)", (email,))
        for email in emails:
            for task in (send_welcome_email, charge_signup_fee, award_points):
                await task.defer_async(email=email)


UNFINISHED = ("SELECT count(*) FROM procrastinate_jobs "
              "WHERE status IN ('todo', 'doing') AND task_name != 'retry_stalled_jobs'")


def start_worker(options):
    command = [sys.executable, __file__, "work", "--seed", str(options.seed),
               "--chaos", str(options.chaos)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TINYQ_DSN=DSN))


def supervise(options, db):
    """Keep the workers running until no shop job is todo or doing; return the crashes."""
    workers = [start_worker(options) for _ in range(options.workers)]
    crashes = 0
    deadline = time.monotonic() + TIME_LIMIT
    try:
        while db.execute(UNFINISHED).fetchone()[0] > 0:
            if time.monotonic() > deadline:
                return crashes, False
            time.sleep(0.05)
            for worker in [w for w in workers if w.poll() is not None]:
                workers.remove(worker)
                for line in worker.stdout.read().splitlines():
                    print(f"  [{worker.pid}] {line}", flush=True)
                if worker.returncode != CRASHED:
                    sys.stderr.write(worker.stderr.read())
                    sys.exit(f"worker {worker.pid} failed with exit status {worker.returncode}")
                crashes += 1
                workers.append(start_worker(options))
    finally:
        for worker in workers:            # the work is done: stop the rest, as a deploy would
            worker.send_signal(signal.SIGTERM)
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
    return crashes, True


def audit(db, emails):
    """The chaos monkey's audit: one email, one fee and the points per customer; every job done."""
    problems = []
    for email in emails:
        sent, paid = world.emails_to(email), world.charged(email)
        points = db.execute("SELECT points FROM customers WHERE email = %s", (email,)).fetchone()[0]
        if sent != 1:
            problems.append(f"{email}: got {sent} welcome emails (want 1)")
        if paid != SIGNUP_FEE:
            problems.append(f"{email}: paid ${paid} (want ${SIGNUP_FEE})")
        if points != WELCOME_POINTS:
            problems.append(f"{email}: has {points} points (want {WELCOME_POINTS})")
    for job_id, task, args, status in db.execute(
            "SELECT id, task_name, args, status FROM procrastinate_jobs WHERE status != 'succeeded'"
            " AND task_name != 'retry_stalled_jobs' ORDER BY id"):
        problems.append(f"job {job_id} ({task} {args}) did not finish: {status}")
    return problems


def report(db, crashes, seconds):
    shop_jobs = "FROM procrastinate_jobs WHERE task_name != 'retry_stalled_jobs'"
    attempts, retried = db.execute(
        f"SELECT sum(attempts), count(*) FILTER (WHERE attempts > 1) {shop_jobs}").fetchone()
    statuses = db.execute(f"SELECT status, count(*) {shop_jobs} GROUP BY status ORDER BY status")
    tally = world.tally()
    print(f"finished in {seconds:.1f}s")
    print(f"workers killed by the monkey:  {crashes}")
    print(f"attempts, all jobs together:   {attempts}")
    print(f"jobs that needed a retry:      {retried}")
    print(f"requests the network lost:     {tally['requests lost']}")
    print(f"replies the network lost:      {tally['replies lost']}")
    print(f"repeats absorbed by keys:      {tally['repeats absorbed']}")
    print("jobs by status:                "
          + ", ".join(f"{status} {count}" for status, count in statuses))


def main(argv):
    parser = argparse.ArgumentParser(prog="procrastinate_audit.py", description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=["audit", "work"], default="audit")
    parser.add_argument("--seed", type=int, help="the run's bad luck (default: a new one)")
    parser.add_argument("--chaos", type=float, default=0.1, help="0 to 0.5 (default 0.1)")
    parser.add_argument("--customers", type=int, default=5, help="1 to 500 (default 5)")
    parser.add_argument("--workers", type=int, default=8, help="1 to 16 processes (default 8)")
    options = parser.parse_args(argv)
    if not 0 <= options.chaos <= 0.5:
        parser.error(f"argument --chaos: must be between 0 and 0.5, not {options.chaos}")
    if not (1 <= options.customers <= 500 and 1 <= options.workers <= 16):
        parser.error("--customers must be 1 to 500 and --workers 1 to 16")
    if options.seed is None:
        options.seed = random.randrange(1000)
    if options.command == "work":
        return work(options.seed, options.chaos)

    world.reset()
    emails = [f"customer{n:02d}@example.com" for n in range(options.customers)]
    asyncio.run(set_up(emails))
    print(f"seed {options.seed}: signed up {len(emails)} customers, {3 * len(emails)} jobs "
          f"deferred to procrastinate {version('procrastinate')}")
    print(f"running {options.workers} workers; each crash point kills its worker "
          f"with chance {options.chaos}")
    print()
    with psycopg.connect(DSN, autocommit=True) as db:
        started = time.monotonic()
        crashes, finished = supervise(options, db)
        print()
        report(db, crashes, time.monotonic() - started)
        print()
        problems = audit(db, emails)
    if not finished:
        print(f"STOPPED: jobs still unfinished after {TIME_LIMIT} seconds")
    if problems:
        print(f"AUDIT FAILED: {len(problems)} problem(s)")
        for problem in problems:
            print(f"  {problem}")
        return 1 if finished else 4
    print(f"AUDIT PASSED: {len(emails)} customers, each with 1 email, "
          f"${SIGNUP_FEE} paid and {WELCOME_POINTS} points.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
