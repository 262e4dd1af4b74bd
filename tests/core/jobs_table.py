"""Reading a queue's jobs table from a test, the same way on both engines: the SQL takes ?
placeholders, which tinyq_pg.Connection turns into psycopg's %s."""
import sqlite3


def run(queue, text, params=()):
    """Run the test's own SQL on the queue's connection; return the cursor."""
    return queue.db.execute(text, params)


def row(queue, job_id):
    """The job's row as a dict of column: value, or None if there is no such job."""
    cursor = run(queue, "SELECT * FROM jobs WHERE id = ?", (job_id,))
    names = [column[0] for column in cursor.description]
    found = cursor.fetchone()
    return None if found is None else dict(zip(names, found))


def count(queue, status=None):
    """How many jobs there are (in `status`, if given)."""
    if status is None:
        return run(queue, "SELECT count(*) FROM jobs").fetchone()[0]
    return run(queue, "SELECT count(*) FROM jobs WHERE status = ?", (status,)).fetchone()[0]


def in_transaction(db):
    """Is a transaction open on this connection (sqlite3 or psycopg)?"""
    if isinstance(db, sqlite3.Connection):
        return db.in_transaction
    return db.info.transaction_status.name != "IDLE"
