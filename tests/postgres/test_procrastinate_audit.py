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
