"""A handler's own table, for the tests of complete(): customer ada's points, in the queue's
database, with one job of kind "points" waiting to add 10 to them."""
from tests.core.jobs_table import run


def points_queue(make_queue, **settings):
    queue = make_queue(**settings)
    run(queue, "CREATE TABLE customers (email TEXT PRIMARY KEY, points INTEGER NOT NULL)")
    run(queue, "INSERT INTO customers VALUES ('ada', 0)")
    queue.enqueue("points", {"email": "ada"})
    return queue


def points(queue):
    return run(queue, "SELECT points FROM customers WHERE email = 'ada'").fetchone()[0]


def add_points(db):
    db.execute("UPDATE customers SET points = points + 10 WHERE email = 'ada'")
