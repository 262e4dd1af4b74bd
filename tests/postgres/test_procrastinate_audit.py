"""procrastinate under the chaos monkey's audit (bench/procrastinate_audit.py), on a real server.

One small run, to prove the harness works end to end: a real procrastinate, real worker
processes killed at random, the same audit as chaos.py. What is asserted is what the
harness's design guarantees, not a verdict on the library: every job succeeds in the end
(the docs' stalled-job recipe recovers the killed workers' jobs), the email and the fee are
right for every customer (their idempotency keys absorb repeats), and any problem the audit
finds is with the points (a plain write, committed before procrastinate's own ack).
Chapter 10's table of runs comes from the command in its text, not from this test.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AUDIT = ROOT / "bench" / "procrastinate_audit.py"
POINTS_PROBLEM = re.compile(r"^customer\d+@example\.com: has \d+ points \(want 10\)$")

pytest.importorskip("procrastinate", reason="pip install -r bench/requirements-procrastinate.txt")


def test_procrastinate_runs_under_the_audit_and_only_the_points_can_go_wrong(pg_server, tmp_path):
    env = dict(os.environ, TINYQ_DSN=pg_server.fresh_schema(), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, str(AUDIT), "--seed", "1", "--chaos", "0.3",
                           "--customers", "2", "--workers", "4"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=400)
    output = done.stdout + done.stderr
    assert done.returncode in (0, 1), output
    assert "jobs by status:                succeeded 6" in done.stdout, output
    assert re.search(r"workers killed by the monkey:  [1-9]", done.stdout), output
    problems = [line.strip() for line in done.stdout.split("AUDIT FAILED")[-1].splitlines()[1:]
                if line.startswith("  ")] if done.returncode == 1 else []
    assert all(POINTS_PROBLEM.match(problem) for problem in problems), output


SAME_DICE = """
import sys, types
sys.path.insert(0, {bench!r})
import procrastinate_audit as audit
rolled = []
audit.dice = lambda *about: rolled.append(about) or 1.0      # never crashes; remembers the roll
audit.chaos, audit.world.seed = 0.5, 7
first_run = types.SimpleNamespace(id=1, task_name="award_points", attempts=0)
audit.maybe_crash(types.SimpleNamespace(job=first_run), "ada@example.com", "before the points")
print(rolled[0], audit.RETRY.max_attempts)
"""


def test_procrastinates_first_run_rolls_the_dice_of_tinyqs_attempt_1_and_caps_at_30_runs(
        tmp_path):
    """procrastinate's first run sees job.attempts == 0, tinyq's job.attempts == 1 (shop.py rolls
    dice(seed, kind, email, job.attempts, moment)): the audit must roll attempt 1 for both, and
    stop retrying after the shop's 30 runs (RetryStrategy's max_attempts counts retries)."""
    done = subprocess.run([sys.executable, "-c", SAME_DICE.format(bench=str(AUDIT.parent))],
                          cwd=tmp_path, env=dict(os.environ, TINYQ_DSN=""), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ("(7, 'award_points', 'ada@example.com', 1, 'before the points') 29")
