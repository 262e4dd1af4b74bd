"""One contract, two engines: the `backend` fixture runs a tinyq test on SQLite and on PostgreSQL.

Like huey's storage tests (huey/tests/test_storage.py), the behaviour tests are written once
against the queue's API; this fixture hands them the engine. The PostgreSQL runs use the
session's throwaway server (tests/conftest.py: pg_server) with a fresh schema per test.
What a test must know about each engine (where its data lives, how to read the CHECK on
`status`, the error that CHECK raises) is here, so the tests read the same for both.
"""
import importlib.util
import random
import sqlite3
import sys

import pytest

from tests.support.capstone import CAPSTONE_TINYQ, tinyq
from tests.support.clock import FakeClock

TINYQ_PG = CAPSTONE_TINYQ.with_name("tinyq_pg.py")


def load_tinyq_pg():
    """Import code/capstone/tinyq_pg.py and its tinyq_pg_sql.py (on the same tinyq module as
    the tests)."""
    for name in ("tinyq_pg_sql", "tinyq_pg_schema", "tinyq_pg_connection", "tinyq_pg"):
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, TINYQ_PG.with_name(f"{name}.py"))
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
    return sys.modules["tinyq_pg"]


class SQLiteBackend:
    name = "sqlite"
    module = tinyq
    sql_module = sys.modules["tinyq_sql"]
    integrity_error = sqlite3.IntegrityError

    def __init__(self, tmp_path):
        self.place = str(tmp_path / "jobs.db")    # a file two connections can share
        self.default = ":memory:"

    def table_sql(self, queue):
        return queue.db.execute("SELECT sql FROM sqlite_master WHERE name = 'jobs'").fetchone()[0]


class PostgresBackend:
    name = "postgres"

    def __init__(self, conninfo):
        import psycopg
        self.module = load_tinyq_pg()
        self.sql_module = sys.modules["tinyq_pg_sql"]
        self.integrity_error = psycopg.errors.CheckViolation
        self.place = self.default = conninfo     # one fresh schema for the whole test
        self.module.migrate(conninfo)            # as a deploy does, before any worker starts

    def table_sql(self, queue):
        rows = queue.db.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = 'jobs'::regclass AND contype = 'c'").fetchall()
        return "\n".join(row[0] for row in rows)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request, tmp_path):
    """The engine under test: SQLiteBackend, or PostgresBackend on a fresh schema."""
    if request.param == "sqlite":
        return SQLiteBackend(tmp_path)
    return PostgresBackend(request.getfixturevalue("pg_conninfo"))


@pytest.fixture
def clock():
    """The queue's clock: 1000 seconds, moved on by hand (clock.now += seconds)."""
    return FakeClock(1000.0)


@pytest.fixture
def make_queue(clock, backend):
    """make_queue(where=None, **settings): a queue on the engine under test, on `clock`, with a
    seeded rng; with no `where`, SQLite's :memory: or the test's own PostgreSQL schema
    (`backend.place` is a file SQLite can open twice, and that schema again). Closed afterwards."""
    queues = []

    def make(where=None, **settings):
        settings.setdefault("clock", clock)
        settings.setdefault("rng", random.Random(7))
        queues.append(backend.module.Queue(backend.default if where is None else where, **settings))
        return queues[-1]

    make.backend = backend
    yield make
    for queue in queues:
        queue.close()
