"""A queue that stays small: retention deletes done jobs in batches, and durations come from
finished_at - claimed_at, by SQL the reader can run (tinyq_pg_sql.DURATIONS)."""
import inspect

import pytest

from tests.support.capstone import tinyq
from tests.support.clock import FakeClock


def work_all(queue):
    while queue.work_one() is not None:
        pass


def test_retention_keeps_the_table_bounded_while_jobs_keep_coming(tinyq_pg, migrated):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, clock=clock)
    queue.handler("email")(lambda job: None)
    sizes = []
    for round_ in range(12):
        for n in range(25):
            queue.enqueue("email", {"n": n, "round": round_})
        work_all(queue)
        clock.now += 60
        queue.prune(keep=130, batch=7)           # keep the last 130 seconds' worth
        sizes.append(queue.db.execute("SELECT count(*) FROM jobs").fetchone()[0])
    assert sizes[:2] == [25, 50] and set(sizes[2:]) == {50}, sizes


def test_prune_deletes_in_batches_and_keeps_the_dead_and_the_unfinished(tinyq_pg, migrated):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, clock=clock, max_attempts=1)
    queue.handler("ok")(lambda job: None)
    queue.handler("bad")(lambda job: 1 / 0)
    for n in range(23):
        queue.enqueue("ok", {"n": n})
    queue.enqueue("bad", {})
    work_all(queue)
    queue.enqueue("later", {}, delay=5)
    statements = []
    execute = queue.db.execute
    queue.db.execute = lambda query, params=None: (statements.append(params), execute(query, params))[1]
    clock.now += 10
    assert queue.prune(keep=5, batch=10) == 23
    assert [params["batch"] for params in statements] == [10, 10, 10]     # 10 + 10 + 3
    left = dict(queue.db.execute("SELECT status, count(*) FROM jobs GROUP BY status").fetchall())
    assert left == {"dead": 1, "queued": 1}
    with pytest.raises(ValueError, match="keep must be a number of seconds"):
        queue.prune(keep=-1)


def test_durations_give_the_median_and_99th_percentile_per_kind(tinyq_pg, migrated):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, clock=clock)
    for seconds in [1, 2, 3, 4, 100]:
        queue.enqueue("report", {"seconds": seconds})
        job = queue.claim()
        clock.now += seconds
        queue.ack(job)
    queue.enqueue("email", {})
    job = queue.claim()
    clock.now += 0.5
    queue.ack(job)
    rows = queue.durations(since=1000.0)
    assert [row[:3] for row in rows] == [("email", 1, 0.5), ("report", 5, 3.0)]
    assert rows[1][3] == pytest.approx(4 + 0.96 * 96)        # percentile_cont interpolates
    assert queue.durations(since=clock.now + 1) == []
    sql = tinyq_pg.DURATIONS
    assert "finished_at - claimed_at" in sql and "percentile_cont(0.99)" in sql


SHARED = ["lease", "max_attempts", "backoff_base", "backoff_cap", "clock", "rng", "sleep"]


def test_both_engines_queues_have_one_explicit_documented_signature(tinyq_pg):
    sqlite = inspect.signature(tinyq.Queue)
    postgres = inspect.signature(tinyq_pg.Queue)
    for signature in (sqlite, postgres):
        assert not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    for name in SHARED:
        left, right = sqlite.parameters[name], postgres.parameters[name]
        assert left.kind is right.kind is inspect.Parameter.KEYWORD_ONLY, name
        if name != "clock":                      # PostgreSQL's default: the server's clock
            assert left.default == right.default, name
    assert postgres.parameters["clock"].default is None
    doc = inspect.getdoc(tinyq_pg.Queue)
    for name in [*postgres.parameters][1:]:
        assert name in doc, name
    for name in ("statement_timeout", "idle_in_transaction_timeout", "reconnect_for"):
        assert f"{name}: seconds" in doc, name


def test_a_bad_setting_is_refused_with_its_unit(tinyq_pg, migrated):
    with pytest.raises(ValueError, match="statement_timeout must be a number of seconds above 0"):
        tinyq_pg.Queue(migrated, statement_timeout=0)


def test_the_readmes_durations_sql_is_the_modules_and_runs_as_psql_would(tinyq_pg, migrated):
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    shown = readme.split("```sql\n", 1)[1].split("```", 1)[0]
    since = "extract(epoch FROM now() - interval '1 hour')"
    assert shown.strip() == tinyq_pg.DURATIONS.replace("%(since)s", since).strip() + ";"
    queue = tinyq_pg.Queue(migrated)
    queue.enqueue("email", {})
    queue.ack(queue.claim())
    rows = queue.db.raw.execute(shown).fetchall()       # psycopg's own: no parameters
    assert [row[:2] for row in rows] == [("email", 1)] and rows[0][2] >= 0
