"""Find the guide's "What you should see" transcripts, replay them, and compare.

A transcript is a fenced block in a chapter::

    ```transcript id=ex04-enqueue cwd=code after=ex04-reset
    $ python3 ex04_durable_queue.py enqueue ada@example.com
    enqueued 1 job
    ```

The syntax and the replay rules are documented in docs/authoring.md ("Transcripts").
Only process ids, durations and temporary paths are normalised before comparing.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tests.support.processes import Background

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"

# The reading and the normalising are the reader's own checker's (code/check_output.py), so the
# tests and the checker a reader runs cannot disagree.
_spec = importlib.util.spec_from_file_location("check_output", ROOT / "code" / "check_output.py")
checker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checker)
PROMPT, INTERRUPT, ELLIPSIS = checker.PROMPT, checker.INTERRUPT, checker.ELLIPSIS
PID, DURATION, TEMP_PATH = checker.PID, checker.DURATION, checker.TEMP_PATH
normalise, matches = checker.normalise, checker.matches

WAIT_FOR_OUTPUT = 60.0   # seconds a command may take to print what the transcript shows
WAIT_FOR_EXIT = 3.0      # seconds after that before a still-running command is left running


@dataclasses.dataclass
class Transcript:
    """One transcript block: where it is, its attributes, and its lines."""

    id: str
    path: Path
    line: int
    attrs: dict
    lines: list

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def manual(self) -> bool:
        return self.attrs.get("run") == "manual"

    @property
    def cwd(self) -> str:
        return self.attrs.get("cwd", "code")

    @property
    def after(self) -> list:
        value = self.attrs.get("after", "")
        return [part for part in value.split(",") if part]

    def steps(self):
        """Yield (command, expected output lines) pairs, in order."""
        command, expected = None, []
        for line in self.lines:
            if line.startswith(PROMPT):
                if command is not None:
                    yield command, expected
                command, expected = line[len(PROMPT):], []
            elif command is None:
                raise ValueError(f"{self.where}: output before the first '$ ' command: {line!r}")
            else:
                expected.append(line)
        if command is not None:
            yield command, expected


def find_all(content: Path = CONTENT) -> dict:
    """Return {id: Transcript} for every transcript block in the chapters."""
    return {ident: Transcript(ident, Path(t["path"]), t["line"], t["attrs"], t["lines"])
            for ident, t in checker.find_transcripts(content).items()}


def _shown_before_interrupt(expected: list) -> list:
    return expected[: expected.index(INTERRUPT)] if INTERRUPT in expected else expected


def assert_matches(ident: str, output: str) -> None:
    """Compare output produced by a test with the transcript `ident` (for run=manual)."""
    transcript = find_all()[ident]
    expected = [line for step in transcript.steps() for line in step[1]]
    # Where the chapter says some lines may come in any order (unordered=), the reader's checker
    # forgives their order; so does this, with the same function.
    lines = checker.in_given_order(expected, output.split("\n"), transcript.attrs.get("unordered", ""))
    _compare(transcript, "\n".join(expected), "\n".join(lines))


def _compare(transcript: Transcript, expected: str, actual: str) -> None:
    want = normalise(expected).split("\n")
    got = normalise(actual).split("\n")
    if not matches(want, got):
        raise AssertionError(
            f"{transcript.where}: transcript {transcript.id!r} does not match the program.\n"
            f"--- the chapter shows ---\n{chr(10).join(want)}\n"
            f"--- the program printed ---\n{chr(10).join(got)}")


class _Command(Background):
    """A running bash command whose output is compared with a transcript."""

    def __init__(self, command: str, cwd: Path, env: dict):
        super().__init__(["bash", "-c", command], cwd, env)

    def wait_for(self, expected: list, timeout: float) -> None:
        """Wait until the output fits the expected lines (or the command ends)."""
        want = normalise("\n".join(expected)).split("\n") if expected else []
        self.wait_until(lambda lines: matches(want, normalise("\n".join(lines)).split("\n") if lines else []),
                        timeout)


def _environment(bin_dir: Path) -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def replay(ident: str, workdir: Path | None = None) -> None:
    """Replay transcript `ident` (after the ones it names in after=) and compare."""
    transcripts = find_all()
    transcript = transcripts[ident]
    with tempfile.TemporaryDirectory(prefix="transcript-") as tmp:
        tmp = Path(tmp)
        bin_dir = tmp / "bin"
        bin_dir.mkdir()
        (bin_dir / "python3").symlink_to(sys.executable)
        (bin_dir / "python").symlink_to(sys.executable)
        work = tmp / "work"
        shutil.copytree(ROOT / transcript.cwd, work,
                        ignore=shutil.ignore_patterns("__pycache__", "*.db", "outbox.txt"))
        env = _environment(bin_dir)
        background = []
        try:
            for earlier in transcript.after:
                _run(transcripts[earlier], work, env, background, compare=False)
            _run(transcript, work, env, background, compare=True)
        finally:
            for command in background:
                command.stop()


def _run(transcript: Transcript, work: Path, env: dict, background: list, compare: bool):
    cwd = work
    expected_all, actual_all = [], []
    for command, expected in transcript.steps():
        words = command.split()
        if words[:1] == ["cd"]:
            cwd = (cwd / words[1]).resolve()
            continue
        running = _Command(command, cwd, env)
        shown = _shown_before_interrupt(expected)
        running.wait_for(shown, WAIT_FOR_OUTPUT)
        if INTERRUPT in expected:
            time.sleep(0.1)
            at = len(running.lines)
            running.interrupt()
            if not running.finish(WAIT_FOR_OUTPUT):
                running.stop()
            # A terminal echoes ^C and the program's first newline ends that line.
            if len(running.lines) > at and running.lines[at] == "":
                del running.lines[at]
        elif not running.finish(WAIT_FOR_EXIT):
            background.append(running)   # the reader's other terminal: left running
        expected_all += [line for line in expected if line != INTERRUPT]
        actual_all += list(running.lines)
    if compare:
        _compare(transcript, "\n".join(expected_all), "\n".join(actual_all))
