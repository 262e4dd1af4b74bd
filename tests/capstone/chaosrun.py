"""Run the capstone's programs as a reader does: in a fresh folder, as real processes.

Each run copies code/capstone/*.py into a new folder (so shop.db and world.db
start empty and runs never share files), optionally edits a file the way a study
drill tells the reader to, runs `python chaos.py ...` there and parses its report.
"""
from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CAPSTONE = Path(__file__).resolve().parents[2] / "code" / "capstone"
RUN_TIMEOUT = 240      # seconds for one chaos run, far above the few seconds it takes
PARALLEL = 4           # runs at once: they mostly wait for leases, so this is cheap

FIGURE = re.compile(r"^([a-z][a-z ,]+):\s+(\d+)$")
CRASH = re.compile(r"^  \[\d+\] (CRASH .*)$")


@dataclasses.dataclass
class Run:
    """What one chaos.py run printed, taken apart."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self):
        return self.stdout.splitlines()

    @property
    def passed(self) -> bool:
        return any(line.startswith("AUDIT PASSED") for line in self.lines)

    @property
    def failed(self) -> bool:
        return any(line.startswith("AUDIT FAILED") for line in self.lines)

    @property
    def problems(self) -> list:
        """The lines under AUDIT FAILED, one per problem."""
        if not self.failed:
            return []
        start = next(i for i, line in enumerate(self.lines) if line.startswith("AUDIT FAILED"))
        return [line.strip() for line in self.lines[start + 1:] if line.startswith("  ")]

    @property
    def figures(self) -> dict:
        """{'workers killed by the monkey': 15, ...} from the report."""
        found = {}
        for line in self.lines:
            match = FIGURE.match(line)
            if match:
                found[match.group(1)] = int(match.group(2))
        return found

    @property
    def statuses(self) -> str:
        return next(line.split(":", 1)[1].strip() for line in self.lines
                    if line.startswith("jobs by status:"))

    @property
    def crashes(self) -> list:
        """The crash lines without their process ids, sorted (their order varies)."""
        return sorted(m.group(1) for m in map(CRASH.match, self.lines) if m)

    def describe(self) -> str:
        return (f"exit status {self.returncode}\n--- stdout ---\n{self.stdout}\n"
                f"--- stderr ---\n{self.stderr}")


def prepare(folder: Path, edits: dict | None = None) -> Path:
    """Copy the capstone into `folder`; apply edits {file name: function(text) -> text}."""
    folder.mkdir(parents=True, exist_ok=True)
    for source in CAPSTONE.glob("*.py"):
        shutil.copy(source, folder / source.name)
    for name, edit in (edits or {}).items():
        path = folder / name
        before = path.read_text(encoding="utf-8")
        after = edit(before)
        assert after != before, f"the edit to {name} changed nothing: has the file moved on?"
        path.write_text(after, encoding="utf-8")
    return folder


def run_chaos(folder: Path, *args: str, no_keys: bool = False, env: dict | None = None) -> Run:
    """Run chaos.py with `args` in a prepared folder; `env` adds environment variables."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    env.pop("TINYQ_NO_KEYS", None)
    if no_keys:
        env["TINYQ_NO_KEYS"] = "1"
    done = subprocess.run([sys.executable, "chaos.py", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)
    return Run(done.returncode, done.stdout, done.stderr)


def run_many(argument_lists, *, no_keys=False, edits=None, env_for=None) -> list:
    """Run chaos.py once per argument list, each in its own fresh folder, a few at a time.
    env_for: a function called once per run that returns environment variables for it."""
    with tempfile.TemporaryDirectory(prefix="chaos-") as tmp:
        def one(numbered):
            number, args = numbered
            folder = prepare(Path(tmp) / f"run{number}", edits)
            env = env_for() if env_for else None
            return run_chaos(folder, *args, no_keys=no_keys, env=env)
        with ThreadPoolExecutor(PARALLEL) as pool:
            return list(pool.map(one, enumerate(argument_lists)))


# --- the study drills, as edits a reader makes by hand ------------------------------------

def replace_once(old: str, new: str):
    """An edit that replaces exactly one occurrence of `old`."""
    def edit(text: str) -> str:
        assert text.count(old) == 1, f"expected exactly one {old!r} in the file"
        return text.replace(old, new)
    return edit


CRASH_INSIDE = '        maybe_crash(job, "in the transaction, before the commit")\n'

# Drill: move the crash inside the transaction to just after the `with` block.
CRASH_AFTER_COMMIT = replace_once(
    '                   (WELCOME_POINTS, job.args["email"]))\n' + CRASH_INSIDE,
    '                   (WELCOME_POINTS, job.args["email"]))\n'
    '    maybe_crash(job, "after the commit")\n')

# Drill: award the points with a plain write of its own, then let work_one ack.
POINTS_WITHOUT_COMPLETE = replace_once(
    '    with job.complete() as db:\n'
    '        db.execute("UPDATE customers SET points = points + ? WHERE email = ?",\n'
    '                   (WELCOME_POINTS, job.args["email"]))\n' + CRASH_INSIDE,
    '    queue.db.execute("UPDATE customers SET points = points + ? WHERE email = ?",\n'
    '                     (WELCOME_POINTS, job.args["email"]))\n'
    '    maybe_crash(job, "after the points, before the ack")\n')

# Drill: the first attempt at the points stalls for 0.1 s (a garbage-collection pause).
POINTS_FIRST_ATTEMPT_STALLS = replace_once(
    '    maybe_crash(job, "before the points")\n',
    '    maybe_crash(job, "before the points")\n'
    '    if job.attempts == 1:\n'
    '        time.sleep(0.1)\n')

# Drill: cut the fencing out of MARK_DONE (in tinyq_sql.py), so any claim may finish the job.
MARK_DONE_UNFENCED = replace_once(
    "UPDATE jobs SET status = 'done', locked_until = NULL\n"
    " WHERE id = :id AND token = :token AND status = 'running'\"\"\"",
    "UPDATE jobs SET status = 'done', locked_until = NULL\n"
    " WHERE id = :id\"\"\"")

# Drill, last step: put back only the status check, so a finish ignores whose claim it is.
MARK_DONE_STATUS_ONLY = replace_once(
    "UPDATE jobs SET status = 'done', locked_until = NULL\n"
    " WHERE id = :id AND token = :token AND status = 'running'\"\"\"",
    "UPDATE jobs SET status = 'done', locked_until = NULL\n"
    " WHERE id = :id AND status = 'running'\"\"\"")

# Pause and check 9.5: every finishing statement keeps its status check and loses its token check.
def tokens_out_of_every_finish(text: str) -> str:
    guard = " WHERE id = :id AND token = :token AND status = 'running'"
    assert text.count(guard) == 5, ("expected MARK_DONE, MARK_RETRY, MARK_DEAD, EXTEND_LEASE and "
                                    "RELEASE_JOB to share one guard")
    return text.replace(guard, " WHERE id = :id AND status = 'running'")


POINTS_PROBLEM = re.compile(r": has \d+ points \(want 10\)$")
EMAIL_OR_FEE_PROBLEM = re.compile(r": (got \d+ welcome emails \(want 1\)|paid \$\d+ \(want \$5\))$")


def assert_keys_off_fails_on_emails_and_fees_only(runs, done: str) -> None:
    """Runs with the world's keys off: each one's exit code matches its audit, no repeat was
    absorbed, every job ended `done` (`done` is the statuses line, e.g. "done 15"), and every
    problem is an extra email or fee, never points (those are committed with the ack)."""
    for run in runs:
        assert run.returncode == (1 if run.failed else 0), run.describe()   # a failed audit is an error
        assert run.figures["repeats absorbed by keys"] == 0, run.describe()
        assert run.statuses == done, run.describe()
        for problem in run.problems:
            assert not POINTS_PROBLEM.search(problem), run.describe()
            assert EMAIL_OR_FEE_PROBLEM.search(problem), run.describe()
    problems = [problem for run in runs for problem in run.problems]
    assert any("welcome emails" in problem for problem in problems)
    assert any("paid $" in problem for problem in problems)
