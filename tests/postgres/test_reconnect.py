"""Reconnect and carry on: a worker whose connection drops (a restart, a network cut, a session
ended by the server) reconnects with backoff and jitter, checks the job's row before it acts
again on a write whose answer it never got, and says in the log what it found.

A connection is cut here with pg_terminate_backend() from a second connection; the server is
stopped and started with pg_ctlcluster on a server of the test's own.
"""
import logging
import os
import random
import subprocess
import sys
import time

import psycopg
import pytest

from tests.capstone.chaosrun import prepare
from tests.postgres import server
from tests.support.clock import FakeClock


def cut(queue, conninfo):
    """End the queue's session from outside, as a server restart or a network cut would."""
    with psycopg.connect(conninfo, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", (queue.db.raw.info.backend_pid,))


def row(conninfo, job_id):
    with psycopg.connect(conninfo) as db:
        return db.execute("SELECT status, token FROM jobs WHERE id = %s", (job_id,)).fetchone()


def test_an_ack_after_a_cut_reconnects_and_writes_and_says_so(tinyq_pg, migrated, caplog):
    queue = tinyq_pg.Queue(migrated)
    queue.enqueue("email", {})
    job = queue.claim()
    cut(queue, migrated)
    with caplog.at_level(logging.WARNING, logger="tinyq"):
        queue.ack(job)
    assert row(migrated, job.id) == ("done", job.token)
    assert "shows the write was not committed, and the job is still this claim's" in caplog.text
    assert 0 < job.lease_left() <= queue.lease          # the lease re-checked on the server


def test_an_ack_committed_before_the_cut_is_found_on_the_row_not_written_twice(
        tinyq_pg, migrated, caplog):
    """The commit happened but its answer was lost: the row shows it, and the log says so."""
    queue = tinyq_pg.Queue(migrated)
    queue.enqueue("email", {})
    job = queue.claim()
    with psycopg.connect(migrated, autocommit=True) as other:    # the commit the answer was lost of
        other.execute(tinyq_pg.MARK_DONE, {"id": job.id, "token": job.token, "now": None})
    cut(queue, migrated)
    with caplog.at_level(logging.WARNING, logger="tinyq"):
        queue.ack(job)
    assert job.outcome == "done"
    assert f"job {job.id}: the connection dropped before the server answered; its row shows the " \
           f"write was committed (done, token {job.token})" in caplog.text


def test_after_a_cut_a_job_another_claim_holds_is_lease_lost(tinyq_pg, migrated):
    clock = FakeClock(1000.0)
    queue = tinyq_pg.Queue(migrated, lease=5, clock=clock)
    queue.enqueue("email", {})
    job = queue.claim()
    clock.now += 6
    other = tinyq_pg.Queue(migrated, lease=5, clock=clock).claim()
    cut(queue, migrated)
    with pytest.raises(tinyq_pg.LeaseLost):
        queue.fail(job, "boom")
    assert row(migrated, job.id) == ("running", other.token)


def test_a_complete_cut_inside_its_block_commits_nothing_and_the_job_is_retried(
        tinyq_pg, migrated):
    queue = tinyq_pg.Queue(migrated, backoff_base=0, backoff_cap=0)
    queue.db.execute("CREATE TABLE points (n integer)")
    queue.enqueue("award", {})

    @queue.handler("award")
    def award(job):
        with job.complete() as db:
            db.execute("INSERT INTO points VALUES (10)")
            cut(queue, migrated)
            db.execute("INSERT INTO points VALUES (10)")
    job = queue.work_one()
    assert job.outcome == "queued"                          # failed on the new connection
    assert queue.db.execute("SELECT count(*) FROM points").fetchone()[0] == 0
    assert row(migrated, job.id)[0] == "queued"


def test_reads_outside_a_transaction_are_asked_again_after_a_cut(tinyq_pg, migrated):
    queue = tinyq_pg.Queue(migrated)
    cut(queue, migrated)
    assert queue.db.execute("SELECT count(*) FROM jobs").fetchone()[0] == 0


def test_the_session_timeouts_are_set_and_an_idle_transaction_is_ended(tinyq_pg, migrated):
    queue = tinyq_pg.Queue(migrated, statement_timeout=2.5, idle_in_transaction_timeout=0.3)
    assert queue.db.execute("SHOW statement_timeout").fetchone()[0] == "2500ms"
    assert queue.db.execute("SHOW idle_in_transaction_session_timeout").fetchone()[0] == "300ms"
    with pytest.raises(psycopg.errors.QueryCanceled):
        queue.db.execute("SELECT pg_sleep(3) FOR UPDATE")     # not a plain read: not asked again
    with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):
        with queue.transaction(queue.db) as db:
            db.execute("SELECT 1")
            queue.sleep(1.0)                                    # the server ends the session
            db.execute("SELECT 1")
    assert queue.db.execute("SELECT 1").fetchone() == (1,)      # and the queue carries on


@pytest.fixture(scope="module")
def own_server():
    """A server of this module's own, to stop and start."""
    try:
        running = server.start()
    except server.NoServer as error:
        pytest.skip(f"no PostgreSQL server: {error}")
    yield running
    running.stop()


def test_while_the_server_is_down_the_worker_waits_with_backoff_and_jitter(tinyq_pg, own_server):
    conninfo = own_server.migrated_schema()
    waits = []

    def sleep(seconds):
        waits.append(seconds)
        if len(waits) == 3:
            own_server.cluster("start")
    queue = tinyq_pg.Queue(conninfo, rng=random.Random(5), sleep=sleep)
    queue.enqueue("email", {})
    own_server.cluster("stop")
    job = queue.claim()
    assert job is not None and job.attempts == 1
    dice = random.Random(5)
    expected = [tinyq_pg.jitter(tinyq_pg.backoff(n, 0.05, 2.0), dice) for n in (1, 2, 3)]
    assert waits == expected


def test_reconnecting_gives_up_after_reconnect_for_seconds(tinyq_pg, own_server):
    conninfo = own_server.migrated_schema()
    queue = tinyq_pg.Queue(conninfo, reconnect_for=0.5, sleep=lambda s: None)
    own_server.cluster("stop")
    try:
        with pytest.raises(tinyq_pg.ConnectionLost, match=r"in 0\.5 s"):
            queue.claim()
    finally:
        own_server.cluster("start")


def test_chaos_survives_a_server_restart_mid_run_and_prints_its_audit(own_server, tmp_path):
    """The server restarts while the monkey's workers are busy: every connection is cut. The
    workers reconnect and carry on, none dies of an error, nothing is lost or doubled, and
    chaos.py's report and audit (on a connection the restart cut too) still print."""
    folder = prepare(tmp_path / "capstone")
    dsn = own_server.fresh_schema()
    env = dict(os.environ, **own_server.env, PYTHONDONTWRITEBYTECODE="1")
    for name in ("TINYQ_NO_KEYS", "TINYQ_BACKEND", "TINYQ_DSN"):
        env.pop(name, None)
    customers = 15
    run = subprocess.Popen([sys.executable, "chaos.py", "--backend", "postgres", "--dsn", dsn,
                            "--seed", "3", "--customers", str(customers), "--workers", "4",
                            "--lease", "0.5"], cwd=folder, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    left = None
    deadline = time.monotonic() + 120
    while left is None and run.poll() is None and time.monotonic() < deadline:
        try:
            with psycopg.connect(dsn) as db:
                done, total = db.execute("SELECT count(*) FILTER (WHERE status = 'done'), "
                                         "count(*) FROM jobs").fetchone()
        except psycopg.Error:            # not migrated yet
            done, total = 0, 0
        if total == customers * 3 and 3 <= done:
            left = total - done
            own_server.cluster("restart")
        time.sleep(0.05)
    out, err = run.communicate(timeout=240)
    assert left, f"the run ended before the restart:\n{out}\n{err}"
    assert run.returncode == 0, f"{out}\n{err}"
    assert f"AUDIT PASSED: {customers} customers" in out, f"{out}\n{err}"
    assert "workers dead of an error:      0" in out
    assert f"jobs by status:                done {customers * 3}" in out
    assert "connected to the server again" in err          # the workers said what happened
