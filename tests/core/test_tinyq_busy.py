"""tinyq's workers died of lock contention on one SQLite file. Now a
busy database is waited out (with backoff and jitter) and never loses an ack or an attempt, one
locked for good is still an error in the end, and eight worker processes on one file all live.
Each defect test fails on the tinyq before the fix (a9dec96); the other defects of the same
review are in tests/core/test_tinyq_defects.py.
"""
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from tests.core.jobs_table import row
from tests.support.capstone import CAPSTONE_TINYQ, tinyq


# Only SQLite has these: one writer for the whole file, "database is locked", WAL, a file to open.
SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


# --- defect 1: workers die of lock contention -----------------------------------------------
# SQLite only: SQLite has one write lock for the whole file, and a worker that meets it past the
# busy timeout gets "database is locked". PostgreSQL locks rows, and a claim steps over a locked
# one (SKIP LOCKED); its eight-process test is the chaos monkey's (tests/postgres/).

class Blocker:
    """A second connection that holds the file's write lock until the queue, waiting between
    two tries, calls the sleep it was given: then the lock goes, and the retry must succeed."""

    def __init__(self, path):
        self.other = sqlite3.connect(path, isolation_level=None)
        self.waits = []

    def hold(self):
        self.other.execute("BEGIN IMMEDIATE")

    def sleep(self, seconds):
        self.waits.append(seconds)
        if self.other.in_transaction:
            self.other.execute("COMMIT")


@pytest.fixture
def blocked(make_queue, tmp_path):   # only for SQLITE_ONLY tests
    path = str(tmp_path / "jobs.db")
    blocker = Blocker(path)
    queue = make_queue(path, sleep=blocker.sleep)
    queue.db.execute("PRAGMA busy_timeout = 20")   # milliseconds: be quick about being busy
    yield queue, blocker
    blocker.other.close()


@SQLITE_ONLY
def test_a_file_queue_uses_wal_and_a_busy_timeout(make_queue, tmp_path):
    queue = make_queue(str(tmp_path / "jobs.db"))
    assert queue.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert queue.db.execute("PRAGMA busy_timeout").fetchone()[0] == tinyq.BUSY_TIMEOUT * 1000


@SQLITE_ONLY
def test_claim_waits_out_a_busy_database_with_jitter(blocked):
    queue, blocker = blocked
    queue.enqueue("email", {})
    blocker.hold()
    job = queue.claim("w1")
    assert job is not None and job.attempts == 1
    assert len(blocker.waits) == 1 and 0.005 <= blocker.waits[0] <= 0.01   # jitter(backoff(1))


@SQLITE_ONLY
def test_an_ack_is_not_lost_to_a_busy_database(blocked):
    queue, blocker = blocked
    queue.enqueue("email", {})
    job = queue.claim()
    blocker.hold()
    queue.ack(job)                      # after the effect: it must land, not raise
    assert row(queue, job.id)["status"] == "done" and blocker.waits


@SQLITE_ONLY
def test_a_busy_database_inside_complete_hands_the_job_back_without_using_an_attempt(blocked):
    queue, blocker = blocked
    queue.db.execute("CREATE TABLE points (n INTEGER)")
    queue.enqueue("points", {})

    @queue.handler("points")
    def award(job):
        blocker.hold()                  # another worker holds the lock past the busy timeout
        with job.complete() as db:
            db.execute("INSERT INTO points VALUES (10)")

    job = queue.work_one()
    assert job.outcome == "queued"
    got = row(queue, job.id)
    assert (got["status"], got["attempts"], got["last_error"]) == ("queued", 0, None)
    assert queue.db.execute("SELECT count(*) FROM points").fetchone()[0] == 0


@SQLITE_ONLY
def test_a_database_locked_for_good_is_still_an_error_in_the_end(blocked):
    queue, blocker = blocked
    queue.enqueue("email", {})
    blocker.hold()
    queue.sleep = blocker.waits.append          # waits, but the lock is never let go
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        queue.claim()
    assert len(blocker.waits) == tinyq.BUSY_RETRIES - 1


WORKER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {capstone!r})
    import tinyq
    queue = tinyq.Queue({path!r}, lease=30)
    done = []
    queue.handler("add")(lambda job: done.append(job.id))
    idle_since = time.monotonic()
    while time.monotonic() - idle_since < 0.5:
        if queue.work_one() is None:
            time.sleep(0.005)
        else:
            idle_since = time.monotonic()
    print(" ".join(map(str, done)))
""")


def test_eight_worker_processes_on_one_file_all_live_and_do_every_job_once(tmp_path):   # SQLite
    """Before WAL and the retries, some of eight processes died of "database is locked"."""
    path = str(tmp_path / "contention.db")
    producer = tinyq.Queue(path)
    with tinyq.transaction(producer.db):
        for n in range(240):
            producer.enqueue("add", {"n": n})
    producer.close()
    program = WORKER.format(capstone=str(CAPSTONE_TINYQ.parent), path=path)
    workers = [subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for _ in range(8)]
    results = [worker.communicate(timeout=120) for worker in workers]
    deaths = [err for worker, (_, err) in zip(workers, results) if worker.returncode != 0]
    assert deaths == [], deaths[0][-400:]
    done = sorted(int(n) for out, _ in results for n in out.split())
    assert done == list(range(1, 241))
