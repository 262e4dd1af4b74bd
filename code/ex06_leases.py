"""Exercise 6: a worker dies holding a job, and a lease gives the job back.

A claim no longer lasts for ever: it lasts LEASE seconds. If the worker has
not acked by then, the queue takes it for dead, and another worker may claim
the job.

    python3 ex06_leases.py reset
    python3 ex06_leases.py enqueue ada@example.com
    python3 ex06_leases.py work --crash-before-send   # dies before the email
    python3 ex06_leases.py list             # says running, but nobody is
    python3 ex06_leases.py work             # takes over when the lease ends
    cat outbox.txt                          # count the emails

Then the same with --crash-after-send, and with --lease 0.5 (shorter than
the work).
"""
import argparse
import json
import os
import sqlite3
import sys
import time

if sqlite3.sqlite_version_info < (3, 35, 0):    # RETURNING came in 3.35
    sys.exit("this exercise needs SQLite 3.35 or newer, not "
             + sqlite3.sqlite_version)

DB_FILE = "ex06.db"
OUTBOX = "outbox.txt"
LEASE = 3.0          # seconds a claim lasts, unless the worker acks first
SEND_TIME = 2.0      # seconds the slow mail server takes for one email

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL,
    args         TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'running', 'done')),
    attempts     INTEGER NOT NULL DEFAULT 0,  -- times it has been claimed
    locked_until REAL     -- when running: the lease ends (unix seconds)
)"""

# Exercise 5's atomic claim, grown: a running job whose lease has run out
# is free again, and every claim counts as one more attempt.
CLAIM = """
UPDATE jobs
   SET status = 'running', attempts = attempts + 1, locked_until = :until
 WHERE id = (SELECT min(id) FROM jobs
              WHERE status = 'queued'
                 OR (status = 'running' AND locked_until < :now))
RETURNING id, kind, args, attempts"""

ACK = "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = ?"


def open_queue():
    db = sqlite3.connect(DB_FILE, isolation_level=None, timeout=10)
    db.execute(SCHEMA)
    return db


def send_welcome_email(address):
    print(f"do     sending welcome email to {address}")
    time.sleep(SEND_TIME)
    with open(OUTBOX, "a") as outbox:
        outbox.write(f"Welcome aboard, {address}!\n")


HANDLERS = {"send_welcome_email": send_welcome_email}


def power_cut(crash, where):
    """If this is the moment --crash chose, end the process on the spot."""
    if crash == where:
        # flush=True, because os._exit skips all clean-up, even printing
        # what is still waiting in Python's output buffer.
        print(f"!!!    power cut {where.replace('-', ' ')}", flush=True)
        os._exit(1)


def work(db, lease, crash):
    print(f"worker {os.getpid()} waiting for jobs, lease {lease}s "
          "(Ctrl-C stops it)")
    while True:
        now = time.time()
        job = db.execute(CLAIM, {"now": now, "until": now + lease}).fetchone()
        if job is None:
            time.sleep(0.2)             # nothing free: look again soon
            continue
        job_id, kind, args, attempts = job
        print(f"claim  job {job_id} (attempt {attempts}): {kind} {args}")
        power_cut(crash, "before-send")
        HANDLERS[kind](**json.loads(args))
        power_cut(crash, "after-send")
        db.execute(ACK, (job_id,))
        print(f"ack    job {job_id} is done")


def show(db):
    now = time.time()
    print(" id  status   attempts  lease                args")
    for job_id, status, attempts, locked_until, args in db.execute(
            "SELECT id, status, attempts, locked_until, args"
            " FROM jobs ORDER BY id"):
        lease = "-"
        if status == "running" and locked_until >= now:
            lease = f"ends in {locked_until - now:.1f}s"
        elif status == "running":
            lease = f"ran out {now - locked_until:.1f}s ago"
        print(f"{job_id:3}  {status:<8} {attempts:<9} {lease:<20} {args}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="A queue with leases.")
    parser.add_argument("command",
                        choices=["enqueue", "work", "list", "reset"])
    parser.add_argument("addresses", nargs="*", help="email addresses")
    parser.add_argument("--lease", type=float, default=LEASE,
                        help=f"seconds a claim lasts (default {LEASE})")
    crash = parser.add_mutually_exclusive_group()
    crash.add_argument("--crash-before-send", dest="crash",
                       action="store_const", const="before-send",
                       help="die after claiming, before the email")
    crash.add_argument("--crash-after-send", dest="crash",
                       action="store_const", const="after-send",
                       help="die after the email, before the ack")
    args = parser.parse_args(argv)
    if not 0 < args.lease < float("inf"):
        parser.error("--lease must be a number of seconds above 0, "
                     f"not {args.lease}")
    if (args.command == "enqueue") != bool(args.addresses):
        parser.error("enqueue needs email addresses, and only enqueue "
                     "takes them")
    for address in args.addresses:
        if "@" not in address:
            parser.error(f"not an email address: {address!r}")

    if args.command == "reset":
        for name in (DB_FILE, OUTBOX):
            if os.path.exists(name):
                os.remove(name)
        print(f"deleted {DB_FILE} and {OUTBOX}")
        return
    db = open_queue()
    if args.command == "enqueue":
        for address in args.addresses:
            job = json.dumps({"address": address})
            db.execute("INSERT INTO jobs (kind, args) VALUES (?, ?)",
                       ("send_welcome_email", job))
        print(f"jobs enqueued: {len(args.addresses)}")
    elif args.command == "work":
        try:
            work(db, args.lease, args.crash)
        except KeyboardInterrupt:
            print("\nworker stopped")
    else:
        show(db)


if __name__ == "__main__":
    main()
