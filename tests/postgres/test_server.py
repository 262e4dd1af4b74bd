"""The test server itself: real, fresh for each test, and gone when the session ends."""
import psycopg


def test_the_server_is_a_real_postgresql_15_or_newer(pg_conninfo):
    with psycopg.connect(pg_conninfo) as db:
        version = db.execute("SHOW server_version_num").fetchone()[0]
        assert int(version) >= 150000


def test_each_test_gets_an_empty_schema_of_its_own(pg_server):
    first, second = pg_server.fresh_schema(), pg_server.fresh_schema()
    with psycopg.connect(first, autocommit=True) as db:
        db.execute("CREATE TABLE jobs (id integer)")
        assert db.execute("SELECT count(*) FROM jobs").fetchone()[0] == 0
    with psycopg.connect(second) as db:
        tables = db.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
        assert tables.fetchone()[0] == 0


def test_without_pg_virtualenv_the_reason_is_given(monkeypatch, tmp_path):
    import pytest
    from tests.postgres import server
    monkeypatch.setenv("PATH", str(tmp_path))   # an empty folder: no pg_virtualenv on the path
    with pytest.raises(server.NoServer, match="sudo apt-get install postgresql"):
        server.start()
