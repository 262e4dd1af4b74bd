"""Shared by every test: the project's root, and the build's fixture book.

Browser fixtures (a built site served on localhost, Chromium, a page that fails the test on any
console error, page error, failed request or request leaving the site) are in
tests/browser/conftest.py.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_BOOK = ROOT / "tests" / "build" / "fixtures" / "book"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def fixture_config(out: Path, **overrides):
    """A build Config for the fixture book, with the fake simulations, writing to `out`."""
    from builder import Config
    from tests.build import fake_simulations
    settings = dict(root=FIXTURE_BOOK, out=out, simulations=lambda: fake_simulations.SIMULATIONS,
                    simulations_dir=None)
    settings.update(overrides)
    return Config(**settings)


# --- PostgreSQL (exercise 9): one throwaway server per test session -----------------------------

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for this session (tests/postgres/server.py starts it).

    Where none can be started, a test that needs one fails with the reason on CI (CI=true),
    and is skipped with the reason elsewhere: never silently.
    """
    from tests.postgres import server
    try:
        running = server.start()
    except server.NoServer as error:
        if server.in_ci():
            pytest.fail(f"PostgreSQL is needed here and could not be started: {error}")
        pytest.skip(f"no PostgreSQL server: {error}")
    yield running
    running.stop()


@pytest.fixture
def pg_conninfo(pg_server):
    """A connection string for a fresh, empty schema on the session's server."""
    return pg_server.fresh_schema()
