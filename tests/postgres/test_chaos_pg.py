"""The chaos monkey on PostgreSQL: the same shop, 8 worker processes on 8 connections.

chaos.py --backend postgres keeps the jobs and customers in PostgreSQL (tinyq_pg.py) and
starts 8 workers by default, each a process with its own connection, killed at random by
the monkey and restarted. Each run gets a fresh schema on the session's real server. The
claims are chapter 9's, on the second engine: the audit passes in every run, at chaos 0.1
and 0.3; with keys off it fails on emails and fees, never on points.
"""

from tests.capstone.chaosrun import assert_keys_off_fails_on_emails_and_fees_only, run_many

SMALL = ["--backend", "postgres", "--customers", "3", "--lease", "0.3"]


def schema_env(pg_server):
    return lambda: {"TINYQ_DSN": pg_server.fresh_schema()}


def test_on_postgresql_the_audit_passes_in_every_one_of_20_runs(pg_server):
    # 4 workers a run here (8 in the runs below): each PostgreSQL worker costs about 0.45 s of
    # CPU to start (psycopg, a connection), and four runs go at once on a 2-core machine.
    runs = run_many([SMALL + ["--workers", "4", "--seed", str(seed), "--chaos", chaos]
                     for seed in range(1, 11) for chaos in ("0.1", "0.3")],
                    env_for=schema_env(pg_server))
    for run in runs:
        assert run.returncode == 0 and run.passed, run.describe()
        assert "running 4 workers on PostgreSQL" in run.stdout, run.describe()
        assert run.statuses == "done 9", run.describe()
    crashes = [run.figures["workers killed by the monkey"] for run in runs]
    absorbed = [run.figures["repeats absorbed by keys"] for run in runs]
    assert sum(crashes) > 20 * 2, f"the monkey hardly killed anything: {crashes}"
    assert sum(absorbed) > 10, f"keys hardly absorbed anything: {absorbed}"


def test_on_postgresql_without_keys_the_audit_fails_on_emails_and_fees_never_points(pg_server):
    runs = run_many([SMALL + ["--seed", str(seed), "--chaos", chaos]
                     for seed in range(1, 3) for chaos in ("0.1", "0.3")],
                    no_keys=True, env_for=schema_env(pg_server))
    failed = [run for run in runs if run.failed]
    assert len(failed) >= 2, "\n\n".join(run.describe() for run in runs)
    for run in runs:
        assert "running 8 workers on PostgreSQL" in run.stdout, run.describe()   # the default
    assert_keys_off_fails_on_emails_and_fees_only(runs, "done 9")
