"""The capstone's transcripts (chapter 9): real chaos runs, compared with the chapter.

The chaos test runs three worker processes at once, so the harness cannot replay it line by
line (run=manual). These tests run the same command in a fresh copy of code/capstone and
compare its output with the chapter through harness.assert_matches.

What is compared exactly: every line, every figure, every audit problem, and *which* crash
lines appear (each names its moment, its job and its attempt). What is not: the order of
the crash lines among themselves. The seed fixes which crashes happen (the dice depend on
the job and its attempt, not on the worker), but which of three processes reaches its
crash first is up to the operating system's scheduler, and the chapter says so: its transcript
is marked unordered='  [', and harness.assert_matches, with the reader's own checker's function,
puts the crash lines in the chapter's order when they are the same set as the chapter's; when
they are not, the comparison fails and shows both.

A run is tried a second time if the first differs: on a heavily loaded machine a worker
can stall for longer than the one-second lease, another worker then claims its job
legitimately, and the attempt count moves. A real change in behaviour fails both times.
"""
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.capstone.chaosrun import CRASH, prepare
from tests.transcripts import harness


def expected_lines(ident):
    transcript = harness.find_all()[ident]
    return [line for _, output in transcript.steps() for line in output]


def chaos_output(ident):
    """Run the chapter's own command for transcript `ident` in a fresh copy of the capstone."""
    (command, _), = harness.find_all()[ident].steps()
    words = shlex.split(command)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("TINYQ_NO_KEYS", None)
    while "=" in words[0]:                       # VAR=value before the command
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    assert words[:2] == ["python3", "chaos.py"], command
    with tempfile.TemporaryDirectory(prefix="part3-") as tmp:
        folder = prepare(Path(tmp) / "capstone")
        done = subprocess.run([sys.executable, *words[1:]], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=240)
        assert done.stderr == "", done.stderr
        return done.stdout


def check_twice(compare):
    try:
        compare()
    except AssertionError:
        compare()          # see the module docstring: one retry for a stall under heavy load


def test_capstone_chaos_transcript():
    def compare():
        output = chaos_output("capstone-chaos")
        harness.assert_matches("capstone-chaos", output)
    check_twice(compare)


def test_capstone_chaos_without_keys_transcript():
    def compare():
        harness.assert_matches("capstone-chaos-no-keys", chaos_output("capstone-chaos-no-keys"))
    check_twice(compare)


def test_reordering_only_forgives_the_order_of_the_same_crashes():
    shown = [line for line in expected_lines("capstone-chaos") if CRASH.match(line)]
    lines = expected_lines("capstone-chaos")
    shuffled = "\n".join(lines[:3] + list(reversed(shown)) + lines[3 + len(shown):])
    harness.assert_matches("capstone-chaos", shuffled)
    one_different = shuffled.replace("attempt 1)", "attempt 3)", 1)
    try:
        harness.assert_matches("capstone-chaos", one_different)
    except AssertionError:
        pass
    else:
        raise AssertionError("a different crash was forgiven")
