"""One clock: on PostgreSQL, leases are judged by the database server's clock by default.

A worker whose machine's clock runs fast (here: time.time() 3 s, and 40 s, ahead in a worker
process of its own) must not take over a job whose lease is still running on the server. A
queue given that clock explicitly (as tinyq.Queue's default clock=time.time would) does: the
control shows the test can fail. The worker's own check of its lease uses time.monotonic().
"""
import subprocess
import sys
import textwrap

import pytest

from tests.support.capstone import CAPSTONE_TINYQ
from tests.support.clock import FakeClock

FAST_WORKER = textwrap.dedent("""
    import sys, time
    real = time.time
    time.time = lambda: real() + {skew}          # this machine's clock runs fast
    sys.path.insert(0, {folder!r})
    import tinyq_pg
    queue = tinyq_pg.Queue({conninfo!r}, lease=2, max_attempts=1{clock})
    job = queue.claim(worker="fast")
    print("none" if job is None else f"took {{job.id}} attempt {{job.attempts}}")
""")


def run_fast_worker(conninfo, skew, clock="", program=FAST_WORKER):
    program = program.format(skew=skew, folder=str(CAPSTONE_TINYQ.parent), conninfo=conninfo,
                                 clock=clock)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("skew", [3, 40])
def test_a_worker_whose_clock_runs_fast_takes_over_no_live_job(tinyq_pg, migrated, skew):
    holder = tinyq_pg.Queue(migrated, lease=2, max_attempts=1)
    holder.enqueue("email", {})
    job = holder.claim(worker="holder")
    assert run_fast_worker(migrated, skew) == "none"
    holder.ack(job)                                  # still this claim's: the ack counts
    status, claimed_by = holder.db.execute("SELECT status, claimed_by FROM jobs").fetchone()
    assert (status, claimed_by) == ("done", "holder")


def test_the_control_a_queue_on_its_own_fast_clock_takes_the_live_job_and_buries_it(
        tinyq_pg, migrated):
    holder = tinyq_pg.Queue(migrated, lease=2, max_attempts=1)
    holder.enqueue("email", {})
    job = holder.claim(worker="holder")
    assert run_fast_worker(migrated, 3, clock=", clock=time.time") == "none"
    status, error = holder.db.execute("SELECT status, last_error FROM jobs").fetchone()
    assert (status, error) == ("dead", "lease expired on attempt 1 of 1")   # 0 s into a 2 s lease
    with pytest.raises(tinyq_pg.LeaseLost):
        holder.ack(job)


def test_the_worker_reckons_its_own_lease_on_its_monotonic_clock(tinyq_pg, migrated):
    monotonic = FakeClock(100.0)
    queue = tinyq_pg.Queue(migrated, lease=2, monotonic=monotonic)
    queue.enqueue("email", {})
    job = queue.claim()                              # sent at 100.0 by the monotonic clock
    assert job.deadline == 102.0
    monotonic.now = 100.5
    assert job.lease_left() == 1.5
    monotonic.now = 101.0
    queue.extend(job, lease=5)                       # sent at 101.0
    assert job.deadline == 106.0 and job.lease_left() == 5.0


def test_by_default_the_times_in_the_table_are_the_servers(tinyq_pg, migrated):
    queue = tinyq_pg.Queue(migrated, lease=7)
    queue.enqueue("email", {})
    queue.claim()
    server_now, claimed, until = queue.db.execute(
        "SELECT extract(epoch FROM clock_timestamp())::float8, claimed_at, locked_until "
        "FROM jobs").fetchone()
    assert 0 <= server_now - claimed < 5 and until - claimed == pytest.approx(7)
