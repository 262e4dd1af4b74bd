"""Exercise 7: retries with backoff and jitter, dead jobs, and missing money.

Alice has $100 at a bank we reach over a bad network: some requests never
get there, and some replies are lost after the bank has charged. Five jobs
each charge her $10, the worker retries every failure, and the report
compares what she should have with what she has.

    python3 ex07_retries.py setup           # Alice: $100; 5 charges queued
    python3 ex07_retries.py work --seed 7   # until every job is done or dead
    python3 ex07_retries.py report          # what she should have, and has

The same --seed gives the same run: the same failures, in the same order.
"""
import argparse
import json
import os
import random
import sqlite3
import sys
import time

if sqlite3.sqlite_version_info < (3, 35, 0):    # RETURNING came in 3.35
    sys.exit("this exercise needs SQLite 3.35 or newer, not "
             + sqlite3.sqlite_version)

DB_FILE = "ex07.db"
MAX_ATTEMPTS = 6      # a job that fails this many times is dead
BACKOFF_BASE = 0.1    # seconds: the backoff after a first failure
BACKOFF_CAP = 2.0     # seconds: no wait is ever longer than this
LEASE = 10.0          # seconds
LOSE_REQUEST = 0.3    # chance a request never reaches the bank
LOSE_REPLY = 0.3      # chance the bank charges and then its reply is lost

rng = random.Random()     # seeded by --seed, so that a run can be repeated

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL,
    args         TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'running', 'done', 'dead')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    run_at       REAL NOT NULL DEFAULT 0,  -- not before then (unix seconds)
    locked_until REAL,                     -- the lease ends (unix seconds)
    last_error   TEXT
);
-- The bank's books. In real life they are at the bank, far from our queue.
CREATE TABLE IF NOT EXISTS accounts (
    name    TEXT PRIMARY KEY,
    balance INTEGER NOT NULL               -- dollars
);"""

# Free to claim: a queued job whose time has come, or a running job whose
# lease has run out. The earliest run_at goes first; the id settles a tie.
CLAIM = """
UPDATE jobs
   SET status = 'running', attempts = attempts + 1,
       locked_until = :now + :lease
 WHERE id = (SELECT id FROM jobs
              WHERE (status = 'queued' AND run_at <= :now)
                 OR (status = 'running' AND locked_until < :now)
              ORDER BY run_at, id LIMIT 1)
RETURNING id, kind, args, attempts"""

# When the next job becomes free to claim; NULL when none ever will.
NEXT_FREE = """
SELECT min(CASE status WHEN 'queued' THEN run_at ELSE locked_until END)
  FROM jobs WHERE status IN ('queued', 'running')"""

ACK = "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = ?"
RETRY_LATER = """
UPDATE jobs SET status = 'queued', run_at = ?, locked_until = NULL,
                last_error = ?
 WHERE id = ?"""
GIVE_UP = """
UPDATE jobs SET status = 'dead', locked_until = NULL, last_error = ?
 WHERE id = ?"""


def open_queue():
    db = sqlite3.connect(DB_FILE, isolation_level=None, timeout=10)
    db.executescript(SCHEMA)
    return db


# --- the outside world: a bank behind a bad network -----------------------

def bank_charge(db, account, amount):
    """Ask the bank to take `amount` dollars from `account`.
    Raises TimeoutError if no reply comes back."""
    roll = rng.random()
    if roll >= LOSE_REQUEST:
        # The request got there: the bank charges, in its own books.
        db.execute("UPDATE accounts SET balance = balance - ? WHERE name = ?",
                   (amount, account))
    if roll < LOSE_REQUEST + LOSE_REPLY:
        # The request was lost on the way there (nothing happened), or the
        # reply on the way back (the bank HAS charged). Either way we wait,
        # nothing comes, and all we learn is that time ran out.
        raise TimeoutError("bank did not answer")


def charge_card(db, account, amount, order):
    bank_charge(db, account, amount)


HANDLERS = {"charge_card": charge_card}


# --- the queue -------------------------------------------------------------

def backoff(attempts):
    """Seconds to wait after failed attempt number `attempts` (1, 2, ...):
    BACKOFF_BASE, then double, then double again, up to BACKOFF_CAP."""
    return min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempts - 1))


def jitter(delay):
    """A random wait between delay/2 and delay seconds, so that jobs which
    failed together do not all come back together. This is "equal jitter"
    from Marc Brooker, "Exponential Backoff And Jitter", AWS Architecture
    Blog, 2015."""
    return delay / 2 + rng.uniform(0, delay / 2)


def fail(db, job_id, attempts, error, now):
    """Put a failed job back in the queue for later, or declare it dead."""
    if attempts >= MAX_ATTEMPTS:
        db.execute(GIVE_UP, (error, job_id))
        print(f"dead   job {job_id}: {error}; "
              f"that was attempt {attempts} of {MAX_ATTEMPTS}")
    else:
        wait = jitter(backoff(attempts))
        db.execute(RETRY_LATER, (now + wait, error, job_id))
        print(f"fail   job {job_id}: {error}; retry in {wait:.2f}s "
              f"(backoff {backoff(attempts):.2f}s)")


def work(db):
    outcomes = {}     # how attempts ended: {"ok": 5, "TimeoutError": 3, ...}
    # The worker's clock. The bank answers at once, so the clock moves only
    # when the worker sleeps. That is why a seeded run retries its jobs in
    # the same order every time, however busy your computer is.
    now = time.time()
    while True:
        job = db.execute(CLAIM, {"now": now, "lease": LEASE}).fetchone()
        if job is None:
            wake_at = db.execute(NEXT_FREE).fetchone()[0]
            if wake_at is None:
                break                    # every job is done or dead
            time.sleep(max(0.0, wake_at - time.time()))
            now = wake_at
            continue
        job_id, kind, args, attempts = job
        print(f"claim  job {job_id} (attempt {attempts}): {kind} {args}")
        try:
            HANDLERS[kind](db, **json.loads(args))
        except Exception as error:
            outcome = type(error).__name__
            fail(db, job_id, attempts, f"{outcome}: {error}", now)
        else:
            outcome = "ok"
            db.execute(ACK, (job_id,))
            print(f"ack    job {job_id} is done")
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    print(f"no jobs left to try. {sum(outcomes.values())} attempts: "
          + ", ".join(f"{n} {name}" for name, n in sorted(outcomes.items())))


def report(db):
    print(" id  status   attempts  last error")
    for job_id, status, attempts, error in db.execute(
            "SELECT id, status, attempts, last_error FROM jobs ORDER BY id"):
        print(f"{job_id:3}  {status:<8} {attempts:<9} {error or '-'}")
    owed = dead = 0
    for status, args in db.execute("SELECT status, args FROM jobs"):
        if status == "done":
            owed += json.loads(args)["amount"]
        dead += status == "dead"
    (balance,) = db.execute(
        "SELECT balance FROM accounts WHERE name = 'alice'").fetchone()
    print(f"\njobs done, $10 each:     ${owed}")
    print(f"Alice should have:       ${100 - owed}")
    print(f"Alice has:               ${balance}")
    if balance != 100 - owed:
        print(f"Alice was overcharged by ${100 - owed - balance}")
    if dead:
        print(f"dead jobs: {dead}. Did the bank charge for them? "
              "The queue can't tell.")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Retries, and a flaky bank.")
    parser.add_argument("command", choices=["setup", "work", "report"])
    parser.add_argument("--seed", type=int, help="repeat a run exactly")
    args = parser.parse_args(argv)
    if args.seed is not None:
        rng.seed(args.seed)

    if args.command == "setup":
        if os.path.exists(DB_FILE):
            os.remove(DB_FILE)
        db = open_queue()
        db.execute("INSERT INTO accounts VALUES ('alice', 100)")
        for order in range(1, 6):
            job = {"account": "alice", "amount": 10, "order": order}
            db.execute("INSERT INTO jobs (kind, args) VALUES (?, ?)",
                       ("charge_card", json.dumps(job)))
        print("Alice has $100; 5 jobs will each charge her $10")
    elif not os.path.exists(DB_FILE):
        sys.exit(f"there is no {DB_FILE} yet: run the setup command first")
    elif args.command == "work":
        work(open_queue())
    else:
        report(open_queue())


if __name__ == "__main__":
    main()
