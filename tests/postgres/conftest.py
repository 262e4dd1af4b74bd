"""Fixtures of the PostgreSQL tests: tinyq_pg loaded as the contract tests load it, and a
fresh schema that tinyq_pg.migrate() has made ready."""
import pytest

from tests.core.conftest import load_tinyq_pg


@pytest.fixture
def tinyq_pg():
    return load_tinyq_pg()


@pytest.fixture
def migrated(pg_server):
    """A connection string for a fresh schema holding tinyq_pg's table, at the latest version."""
    return pg_server.migrated_schema()
