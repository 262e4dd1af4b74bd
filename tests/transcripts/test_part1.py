"""Part 1's scenes that need two or three terminals at once (run=manual transcripts).

Each test plays the reader: it starts the workers a chapter tells the reader to start in other
terminals, runs the first terminal's commands, presses Ctrl-C (SIGINT) where the chapter does, and
compares what each terminal printed with the chapter's transcript. The naive claim must duplicate
every email and the atomic claim none, so the same comparison fails if either claim is broken.

Also here: the exercises' answers to bad input (a usage line, an old SQLite).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.processes import Background
from tests.transcripts import harness

CODE = harness.ROOT / "code"
SIGNUPS = ["ada@example.com", "alan@example.com", "grace@example.com", "linus@example.com"]
WAIT = 30.0      # seconds a scene may take to reach the line a test waits for


def environment() -> dict:
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"          # print() reaches the pipe at once, as in a terminal
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


class Terminal(Background):
    """A program left running in one of the reader's terminals, its output read line by line."""

    def __init__(self, folder: Path, script: str, *args: str):
        super().__init__([sys.executable, script, *args], folder, environment())

    def wait_for(self, pattern: str, count: int = 1) -> None:
        """Wait until `count` output lines match the regular expression `pattern`."""
        if not self.wait_until(lambda lines: sum(bool(re.search(pattern, line)) for line in lines) >= count, WAIT):
            raise AssertionError(f"no line matching {pattern!r} (x{count}) in:\n" + "\n".join(self.lines))

    def ctrl_c(self) -> None:
        """Press Ctrl-C: SIGINT to the program; then drop the newline it prints first, which in a
        terminal ends the line holding the echoed ^C (as the transcript harness does)."""
        at = len(self.lines)
        self.interrupt()
        assert self.finish(WAIT), f"still running {WAIT} s after Ctrl-C:\n" + self.output()
        if len(self.lines) > at and self.lines[at] == "":
            del self.lines[at]


@pytest.fixture
def folder(tmp_path):
    """A copy of code/ without any database or outbox, like the folder a reader works in."""
    work = tmp_path / "code"
    shutil.copytree(CODE, work, ignore=shutil.ignore_patterns("__pycache__", "*.db", "outbox.txt"))
    return work


@pytest.fixture
def terminals():
    """Every program a test leaves running is killed at the end, whatever happens."""
    started: list[Terminal] = []
    yield started
    for terminal in started:
        terminal.stop()


def run(folder: Path, script: str, *args: str) -> str:
    """One command typed in the first terminal: its output (stdout and stderr together)."""
    done = subprocess.run([sys.executable, script, *args], cwd=folder, env=environment(),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=WAIT)
    return done.stdout.rstrip("\n")


def outbox(folder: Path) -> list[str]:
    path = folder / "outbox.txt"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


# --- exercise 4: a producer and a worker in two terminals -------------------------------

def test_ex04_worker_picks_up_a_job_enqueued_while_it_runs(folder, terminals):
    run(folder, "ex04_durable_queue.py", "enqueue", "ada@example.com", "alan@example.com")
    worker = Terminal(folder, "ex04_durable_queue.py", "work")
    terminals.append(worker)
    worker.wait_for(r"^ack    job 2 is done$")

    first = [run(folder, "ex04_durable_queue.py", "enqueue", "linus@example.com")]
    worker.wait_for(r"^ack    job 3 is done$")
    first.append(run(folder, "ex04_durable_queue.py", "list"))
    first.append("\n".join(outbox(folder)))          # what `cat outbox.txt` shows
    worker.ctrl_c()

    harness.assert_matches("ex04-work", worker.output())
    harness.assert_matches("ex04-more", "\n".join(first))


# --- exercise 5: two workers race for the same jobs -------------------------------------

def race(folder: Path, terminals: list, how: str) -> tuple[str, list[Terminal]]:
    """The chapter's scene: reset, two idle workers, enqueue four jobs, wait, Ctrl-C, report."""
    first = [run(folder, "ex05_two_workers.py", "reset")]
    workers = [Terminal(folder, "ex05_two_workers.py", "work", how) for _ in range(2)]
    terminals.extend(workers)
    for worker in workers:
        worker.wait_for(r"waiting for jobs")
    first.append(run(folder, "ex05_two_workers.py", "enqueue", *SIGNUPS))
    return "\n".join(first), workers


def acked(worker: Terminal) -> list[int]:
    return [int(m.group(1)) for line in worker.lines if (m := re.match(r"ack +job (\d+) is done", line))]


def test_ex05_naive_claim_sends_every_email_twice(folder, terminals):
    first, workers = race(folder, terminals, "naive")
    for worker in workers:
        worker.wait_for(r"^ack    job 4 is done$")
        worker.ctrl_c()
    first += "\n" + run(folder, "ex05_two_workers.py", "report")

    harness.assert_matches("ex05-naive", first)
    for worker in workers:
        harness.assert_matches("ex05-naive-worker", worker.output())
    # The transcript hides process ids; check the two copies of each email came from two workers.
    senders = {}
    for line in outbox(folder):
        address, pid = re.match(r"Welcome aboard, (\S+)!  \(sent by worker (\d+)\)", line).groups()
        senders.setdefault(address, []).append(int(pid))
    assert {a: sorted(p) for a, p in senders.items()} == {
        a: sorted(w.proc.pid for w in workers) for a in SIGNUPS}


def test_ex05_atomic_claim_sends_each_email_once(folder, terminals):
    first, workers = race(folder, terminals, "atomic")
    deadline = time.monotonic() + WAIT
    while sum(len(acked(w)) for w in workers) < len(SIGNUPS) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)      # room for a wrong second claim to show up before we stop the workers
    for worker in workers:
        worker.ctrl_c()
    first += "\n" + run(folder, "ex05_two_workers.py", "report")

    harness.assert_matches("ex05-atomic", first)
    a, b = (acked(worker) for worker in workers)
    assert sorted(a + b) == [1, 2, 3, 4], "each job done by exactly one worker"
    assert a and b, "both workers got a share of the work"


# --- bad input gets a clear answer -------------------------------------------------------

@pytest.mark.parametrize("script, args", [
    ("ex04_durable_queue.py", ["frobnicate"]),
    ("ex04_durable_queue.py", ["enqueue"]),
    ("ex04_durable_queue.py", ["list", "extra"]),
    ("ex04_durable_queue.py", ["work", "now"]),
    ("ex05_two_workers.py", ["work"]),
    ("ex05_two_workers.py", ["work", "fast"]),
    ("ex05_two_workers.py", ["enqueue"]),
])
def test_a_bad_command_prints_the_usage(folder, script, args):
    done = subprocess.run([sys.executable, script, *args], cwd=folder, env=environment(),
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode != 0
    assert done.stderr.startswith(f"usage: python3 {script} ")
    assert done.stdout == ""


@pytest.mark.parametrize("script, args, flags", [
    ("ex01_slow_signup.py", ["--mail-dwn"], "[--mail-down]"),     # a typo of the "Break it" flag
    ("ex01_slow_signup.py", ["now"], "[--mail-down]"),
    ("ex02_jobs.py", ["junk"], "[-h]"),
    ("ex03_memory_queue.py", ["--qiut"], "[--quit]"),
])
def test_an_unknown_argument_is_refused_with_the_valid_flags(folder, script, args, flags):
    """A mistyped flag must not run the normal scene as if all were well (argparse's way)."""
    done = subprocess.run([sys.executable, script, *args], cwd=folder, env=environment(),
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 2, done.stdout
    usage, error = done.stderr.splitlines()
    assert usage == f"usage: {script} [-h]" + ("" if flags == "[-h]" else f" {flags}")
    assert error == f"{script}: error: unrecognized arguments: {' '.join(args)}"
    assert done.stdout == ""


@pytest.mark.parametrize("script", ["ex04_durable_queue.py", "ex05_two_workers.py"])
@pytest.mark.parametrize("addresses, shown", [
    ([""], "''"),
    (["ada@example.com", "   "], "'   '"),
    (["ada@example.com", "alan.example.com"], "'alan.example.com'"),
])
def test_enqueue_refuses_a_missing_or_empty_address_and_queues_nothing(folder, script, addresses,
                                                                      shown):
    done = subprocess.run([sys.executable, script, "enqueue", *addresses], cwd=folder,
                          env=environment(), capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 1
    assert done.stderr == f"not an email address: {shown} (nothing was enqueued)\n"
    assert done.stdout == ""
    assert list(folder.glob("*.db")) == [], "refused before the queue was touched"


def test_ex05_explains_an_sqlite_too_old_for_returning(folder):
    pretend_old = (
        "import runpy, sqlite3, sys\n"
        "sqlite3.sqlite_version_info = (3, 31, 1)\n"
        "sqlite3.sqlite_version = '3.31.1'\n"
        "sys.argv = ['ex05_two_workers.py', 'report']\n"
        "runpy.run_path('ex05_two_workers.py', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", pretend_old], cwd=folder, env=environment(),
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 1
    assert "needs SQLite 3.35 or newer" in done.stderr and "3.31.1" in done.stderr
    assert not (folder / "ex05.db").exists(), "it stops before touching anything"
