"""Exercise 5: two workers, one queue, and a race.

A worker here claims jobs in one of two ways: "naive" (look, then
grab) or "atomic" (one statement). Start two workers that claim the
same way, give them jobs, and count the emails. In three terminals:

    python3 ex05_two_workers.py reset                 # terminal 1
    python3 ex05_two_workers.py work naive            # terminal 2
    python3 ex05_two_workers.py work naive            # terminal 3
    python3 ex05_two_workers.py enqueue ADDRESS...    # terminal 1
    python3 ex05_two_workers.py report    # when both workers idle

Then stop both workers (Ctrl-C), and do it all again with
"work atomic".
"""
import json
import os
import sqlite3
import sys
import time

if sqlite3.sqlite_version_info < (3, 35, 0):  # RETURNING is 3.35+
    sys.exit("exercise 5 needs SQLite 3.35 or newer; "
             f"this Python has {sqlite3.sqlite_version}")

DB_FILE = "ex05.db"
OUTBOX = "outbox.txt"
USAGE = ("usage: python3 ex05_two_workers.py enqueue ADDRESS... | "
         "work naive | work atomic | report | reset")

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,
    args       TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'queued'
               CHECK (status IN ('queued', 'running', 'done')),
    claimed_by INTEGER     -- process id of the claiming worker
)"""


def open_queue():
    db = sqlite3.connect(DB_FILE, isolation_level=None, timeout=10)
    db.execute(SCHEMA)
    return db


def send_welcome_email(address):
    print(f"do     sending welcome email to {address}")
    time.sleep(1)
    with open(OUTBOX, "a") as outbox:
        outbox.write(f"Welcome aboard, {address}!  "
                     f"(sent by worker {os.getpid()})\n")


HANDLERS = {"send_welcome_email": send_welcome_email}


def claim_naive(db):
    """Look, then grab: two statements. Others may look between."""
    job = db.execute("SELECT id, kind, args FROM jobs "
                     "WHERE status = 'queued' "
                     "ORDER BY id LIMIT 1").fetchone()
    if job is None:
        return None
    time.sleep(0.5)  # widens a gap that is really microseconds
    db.execute("UPDATE jobs SET status = 'running', claimed_by = ? "
               "WHERE id = ?", (os.getpid(), job[0]))
    return job


def claim_atomic(db):
    """Look and grab in ONE statement, which runs as one whole step.

    SQLite lets only one writer change the database at a time, so
    a second worker's UPDATE waits for this one to finish. By then
    this job is running, so the other's WHERE picks the next one.
    """
    return db.execute(
        "UPDATE jobs SET status = 'running', claimed_by = ? "
        "WHERE status = 'queued' AND id = "
        "    (SELECT min(id) FROM jobs WHERE status = 'queued') "
        "RETURNING id, kind, args", (os.getpid(),)).fetchone()


def work(db, how):
    claim = {"naive": claim_naive, "atomic": claim_atomic}[how]
    print(f"worker {os.getpid()} claims the {how} way; "
          "waiting for jobs (Ctrl-C stops it)")
    while True:
        job = claim(db)
        if job is None:
            time.sleep(0.2)            # idle: look again soon
            continue
        job_id, kind, args = job
        print(f"claim  job {job_id}: {kind} {args}")
        HANDLERS[kind](**json.loads(args))
        db.execute("UPDATE jobs SET status = 'done' WHERE id = ?",
                   (job_id,))
        print(f"ack    job {job_id} is done")


def report(db):
    """Print the outbox sorted, so duplicates sit side by side."""
    sent = []
    if os.path.exists(OUTBOX):
        with open(OUTBOX) as outbox:
            sent = sorted(outbox.read().splitlines())
    for line in sent:
        print(line)
    (jobs,) = db.execute("SELECT count(*) FROM jobs").fetchone()
    print(f"{len(sent)} emails sent for {jobs} jobs")


def main(command, *rest):
    if command == "reset":
        for name in (DB_FILE, OUTBOX):
            if os.path.exists(name):
                os.remove(name)
        print(f"deleted {DB_FILE} and {OUTBOX}")
        return
    if command == "enqueue":
        for address in rest:        # a typo or "": refuse them all
            if "@" not in address:
                sys.exit(f"not an email address: {address!r} "
                         "(nothing was enqueued)")
    db = open_queue()
    if command == "enqueue" and rest:
        for address in rest:
            job = ("send_welcome_email",
                   json.dumps({"address": address}))
            db.execute("INSERT INTO jobs (kind, args) "
                       "VALUES (?, ?)", job)
        print(f"jobs enqueued: {len(rest)}")
    elif command == "work" and rest in (("naive",), ("atomic",)):
        try:
            work(db, rest[0])
        except KeyboardInterrupt:
            print("\nworker stopped")
    elif command == "report":
        report(db)
    else:
        sys.exit(USAGE)


if __name__ == "__main__":
    main(*(sys.argv[1:] or ["report"]))
