"""Part 2 of the guide (chapters 5-8, exercises 6-8): the scenes the transcript harness cannot replay,
and the claims the chapters make about exercises 7 and 8.

- The lease-too-short scene of chapter 5 needs two workers running at once: it is run here with
  real processes and compared with its three run=manual transcripts.
- Chapter 8 says exercise 8 is exercise 7 plus the five edits the chapter shows.
- Bad input, and an SQLite without RETURNING, are refused with a clear message.
The claims about the money exercises 7 and 8 charge, and their seeded runs, are in
test_part2_seeded.py.
"""
from __future__ import annotations

import ast
import difflib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.processes import Background
from tests.transcripts import harness

ROOT = Path(__file__).resolve().parents[2]
CODE = ROOT / "code"
CHAPTER_8 = ROOT / "content" / "10-idempotency.md"


# --- real processes: the lease-too-short scene -------------------------------------------------

class Worker(Background):
    """`python3 ex06_leases.py work ...` in its own process group, its output collected."""

    def __init__(self, cwd: Path, *args: str):
        super().__init__([sys.executable, "ex06_leases.py", "work", *args], cwd,
                         dict(os.environ, PYTHONUNBUFFERED="1"))

    def wait_for(self, pattern: str, timeout: float = 20.0) -> None:
        if not self.wait_until(lambda lines: any(re.search(pattern, line) for line in lines), timeout):
            raise AssertionError(f"worker never printed {pattern!r}; it printed {self.lines}")

    def press_ctrl_c(self) -> str:
        """SIGINT, as a terminal sends it, then the output as the terminal shows it."""
        self.interrupt()
        assert self.finish(10), "the worker was still running 10 s after Ctrl-C"
        lines = list(self.lines)
        # The terminal echoes ^C; the program's first newline ends that line (see harness.py).
        if "worker stopped" in lines:
            at = lines.index("worker stopped")
            if at and lines[at - 1] == "":
                del lines[at - 1]
        return "\n".join(lines)

def run(cwd: Path, command: str) -> str:
    """One command in bash, as the reader types it; its output."""
    bin_dir = cwd / ".bin"
    bin_dir.mkdir(exist_ok=True)
    if not (bin_dir / "python3").exists():
        (bin_dir / "python3").symlink_to(sys.executable)
    env = dict(os.environ, PYTHONUNBUFFERED="1", PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)
    return done.stdout + done.stderr


def two_workers_one_job(tmp_path: Path, lease_args: tuple) -> tuple[str, str, str, list]:
    """Chapter 5's scene: reset; two idle workers; enqueue one job; count the emails.

    Returns (what the third terminal showed, the first claimer's output, the second's output,
    the claims as (worker index, attempt))."""
    shutil.copy(CODE / "ex06_leases.py", tmp_path)
    run(tmp_path, "python3 ex06_leases.py reset")
    workers = [Worker(tmp_path, *lease_args), Worker(tmp_path, *lease_args)]
    try:
        for worker in workers:
            worker.wait_for("waiting for jobs")
        third = run(tmp_path, "python3 ex06_leases.py enqueue ada@example.com")
        third += run(tmp_path, "sleep 4; cat outbox.txt")
        outputs = [worker.press_ctrl_c() for worker in workers]
    finally:
        for worker in workers:
            worker.stop()
    claims = [(i, int(m.group(1))) for i, out in enumerate(outputs)
              for m in re.finditer(r"claim  job 1 \(attempt (\d)\)", out)]
    first = min(claims, key=lambda claim: claim[1])[0] if claims else 0
    return third, outputs[first], outputs[1 - first], claims


def test_a_lease_shorter_than_the_work_sends_the_email_twice(tmp_path):
    third, first, second, claims = two_workers_one_job(tmp_path, ("--lease", "0.5"))
    # Whichever worker claimed first is "terminal one": both typed the same command.
    harness.assert_matches("ex06-short-lease", third)
    harness.assert_matches("ex06-short-lease-worker-1", first)
    harness.assert_matches("ex06-short-lease-worker-2", second)
    assert sorted(attempt for _, attempt in claims) == [1, 2]


def test_with_a_lease_longer_than_the_work_the_same_scene_sends_one_email(tmp_path):
    """The control: the same two workers, the default 3 s lease, and the duplicate is gone."""
    third, first, second, claims = two_workers_one_job(tmp_path, ())
    assert third.count("Welcome aboard, ada@example.com!") == 1
    assert [attempt for _, attempt in claims] == [1]
    with pytest.raises(AssertionError):
        harness.assert_matches("ex06-short-lease", third)


# --- exercise 8 is exercise 7 plus the edits chapter 8 shows ---------------------------------------

def shown_lines(chapter: str, source: str, path: str = "code/ex08_idempotency.py") -> set:
    """The line numbers of `path` that the chapter's include blocks show."""
    shown = set()
    for options in re.findall(r"^```include " + re.escape(path) + r"(.*)$", chapter, re.MULTILINE):
        option = options.strip()
        if option.startswith("lines="):
            first, last = map(int, option[len("lines="):].split("-"))
        elif option.startswith("def="):
            node = next(n for n in ast.parse(source).body
                        if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                        and n.name == option[len("def="):])
            first, last = node.lineno, node.end_lineno
        else:
            raise AssertionError(f"chapter 8 shows all of {path}; it should show the edits")
        shown |= set(range(first, last + 1))
    return shown


def unshown_edits(before: str, after: str, shown: set) -> list:
    """Lines of `after` that differ from `before` outside the module docstring and outside `shown`;
    a deletion counts at the line where it happened."""
    docstring_end = ast.parse(after).body[0].end_lineno
    matcher = difflib.SequenceMatcher(a=before.splitlines(), b=after.splitlines(), autojunk=False)
    missing = []
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        changed = range(j1 + 1, j2 + 1) if j2 > j1 else [j1, j1 + 1]
        if all(n > docstring_end for n in changed) and not any(n in shown for n in changed):
            missing.append((j1 + 1, after.splitlines()[j1] if j1 < len(after.splitlines()) else ""))
    return missing


def test_exercise_8_differs_from_exercise_7_only_where_chapter_8_shows_it():
    before = (CODE / "ex07_retries.py").read_text(encoding="utf-8")
    after = (CODE / "ex08_idempotency.py").read_text(encoding="utf-8")
    chapter = CHAPTER_8.read_text(encoding="utf-8")
    shown = shown_lines(chapter, after)
    assert unshown_edits(before, after, shown) == []
    # Every lines= range the chapter shows holds an edit (no range left pointing at old lines).
    changed = {n for tag, _, _, j1, j2 in difflib.SequenceMatcher(
        a=before.splitlines(), b=after.splitlines(), autojunk=False).get_opcodes()
        if tag != "equal" for n in range(j1 + 1, j2 + 1)}
    for first, last in re.findall(r"^```include code/ex08_idempotency\.py lines=(\d+)-(\d+)",
                                  chapter, re.MULTILINE):
        assert changed & set(range(int(first), int(last) + 1)), f"lines={first}-{last} shows no edit"
    # The control: an edit the chapter does not show is caught.
    lines = after.splitlines()
    hidden = next(n for n in range(len(lines) - 1, 0, -1) if n + 1 not in shown and lines[n].strip())
    lines[hidden] += "  # an edit the chapter does not show"
    assert unshown_edits(before, "\n".join(lines) + "\n", shown) != []


# --- bad input and old SQLite ----------------------------------------------------------------------

@pytest.mark.parametrize("command, message", [
    ("python3 ex06_leases.py work --lease -1", "--lease must be a number of seconds above 0"),
    ("python3 ex06_leases.py work --lease nan", "--lease must be a number of seconds above 0"),
    ("python3 ex06_leases.py enqueue", "enqueue needs email addresses"),
    ("python3 ex06_leases.py enqueue ada@example.com ''", "error: not an email address: ''"),
    ("python3 ex06_leases.py work --crash-before-send --crash-after-send", "not allowed with"),
    ("python3 ex07_retries.py work --seed seven", "argument --seed: invalid int value: 'seven'"),
    ("python3 ex07_retries.py report", "there is no ex07.db yet: run the setup command first"),
    ("python3 ex08_idempotency.py work", "there is no ex08.db yet: run the setup command first"),
])
def test_bad_input_is_refused_with_a_clear_message(command, message, tmp_path):
    for name in ("ex06_leases.py", "ex07_retries.py", "ex08_idempotency.py"):
        shutil.copy(CODE / name, tmp_path)
    output = run(tmp_path, command + "; echo exit=$?")
    assert message in output
    assert "exit=0" not in output and "Traceback" not in output
    assert list(tmp_path.glob("*.db")) == []       # refused before it touched anything


@pytest.mark.parametrize("name", ["ex06_leases.py", "ex07_retries.py", "ex08_idempotency.py"])
def test_an_sqlite_without_returning_is_refused_at_start(name):
    pretend = ("import runpy, sqlite3, sys; sqlite3.sqlite_version_info = (3, 31, 1); "
               "sqlite3.sqlite_version = '3.31.1'; sys.argv = [sys.argv[1], 'work']; "
               "runpy.run_path(sys.argv[0], run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", pretend, str(CODE / name)], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 1
    assert "needs SQLite 3.35 or newer, not 3.31.1" in done.stderr
