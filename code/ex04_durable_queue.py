"""Exercise 4: a durable queue, and a worker that empties it.

The jobs live in a SQLite file, ex04.db, so they outlive the program
that wrote them and the program that does them. One command per run:

    python3 ex04_durable_queue.py enqueue ADDRESS...
    python3 ex04_durable_queue.py list
    python3 ex04_durable_queue.py work    # a worker, until Ctrl-C
    python3 ex04_durable_queue.py reset   # deletes the two files
"""
import json
import os
import sqlite3
import sys
import time

DB_FILE = "ex04.db"
OUTBOX = "outbox.txt"
USAGE = ("usage: python3 ex04_durable_queue.py "
         "enqueue ADDRESS... | list | work | reset")

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id     INTEGER PRIMARY KEY,   -- 1, 2, 3... as jobs arrive
    kind   TEXT NOT NULL,         -- which handler does the work
    args   TEXT NOT NULL,         -- its arguments, as JSON text
    status TEXT NOT NULL DEFAULT 'queued'
           CHECK (status IN ('queued', 'running', 'done'))
)"""


def open_queue():
    # isolation_level=None: each statement is saved as it runs.
    # timeout=10: if another program is writing, wait up to 10 s.
    db = sqlite3.connect(DB_FILE, isolation_level=None, timeout=10)
    db.execute(SCHEMA)
    return db


# The handler. Our "email" is a line added to outbox.txt: an effect
# on the world that you can see, and count.
def send_welcome_email(address):
    print(f"do     sending welcome email to {address}")
    time.sleep(2)                          # the slow mail server
    with open(OUTBOX, "a") as outbox:
        outbox.write(f"Welcome aboard, {address}!\n")


HANDLERS = {"send_welcome_email": send_welcome_email}


# The producer's side: write a job down.
def enqueue(db, kind, **args):
    db.execute("INSERT INTO jobs (kind, args) VALUES (?, ?)",
               (kind, json.dumps(args)))


# The worker's side: claim, do, ack.
def claim(db):
    """Take the oldest queued job: look for one, then mark it."""
    job = db.execute("SELECT id, kind, args FROM jobs "
                     "WHERE status = 'queued' "
                     "ORDER BY id LIMIT 1").fetchone()
    if job is not None:
        db.execute("UPDATE jobs SET status = 'running' "
                   "WHERE id = ?", (job[0],))
    return job


def ack(db, job_id):
    db.execute("UPDATE jobs SET status = 'done' WHERE id = ?",
               (job_id,))


def work(db):
    print(f"worker {os.getpid()} waiting for jobs "
          "(Ctrl-C stops it)")
    while True:
        job = claim(db)
        if job is None:
            time.sleep(0.5)        # nothing queued: look again soon
            continue
        job_id, kind, args = job
        print(f"claim  job {job_id}: {kind} {args}")
        HANDLERS[kind](**json.loads(args))
        ack(db, job_id)
        print(f"ack    job {job_id} is done")


def show(db):
    print(" id  status   kind                args")
    for row in db.execute("SELECT id, status, kind, args "
                          "FROM jobs ORDER BY id"):
        print("%3d  %-8s %-19s %s" % row)


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
            enqueue(db, "send_welcome_email", address=address)
        print(f"jobs enqueued: {len(rest)}")
    elif command == "list" and not rest:
        show(db)
    elif command == "work" and not rest:
        try:
            work(db)
        except KeyboardInterrupt:          # Ctrl-C
            print("\nworker stopped")
    else:
        sys.exit(USAGE)


if __name__ == "__main__":
    main(*(sys.argv[1:] or ["list"]))
