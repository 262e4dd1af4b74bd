"""Chapter 10's exercise 9 transcripts, replayed on a real PostgreSQL server.

They are `run=manual` because they need a server: each test runs the chapter's own command
in a fresh copy of code/capstone, with the PG* variables of the session's server (and a fresh
schema), exactly as the shell that `pg_virtualenv -t bash` opens would have them, and compares
the output with the chapter through harness.assert_matches.
"""
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.capstone.chaosrun import prepare
from tests.transcripts import harness


def replay_with_server(ident, pg_server, tinyq_source=None):
    (command, _), = harness.find_all()[ident].steps()
    words = shlex.split(command)
    assert words[0] == "python3", command
    schema = pg_server.fresh_schema().split("search_path=")[1].rstrip("'")
    env = dict(os.environ, **pg_server.env, PGOPTIONS=f"-c search_path={schema}",
               PYTHONDONTWRITEBYTECODE="1")
    for name in ("TINYQ_NO_KEYS", "TINYQ_BACKEND", "TINYQ_DSN"):
        env.pop(name, None)
    with tempfile.TemporaryDirectory(prefix="ex09-") as tmp:
        folder = prepare(Path(tmp) / "capstone")
        if tinyq_source is not None:         # the reader's own tinyq.py in place of ours
            (folder / "tinyq.py").write_text(tinyq_source, encoding="utf-8")
        done = subprocess.run([sys.executable, *words[1:]], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=240)
    assert done.stderr == "", done.stderr
    return done.stdout


def test_ex09_demo_transcript(pg_server):
    harness.assert_matches("ex09-demo", replay_with_server("ex09-demo", pg_server))


def test_ex09_chaos_transcript(pg_server):
    harness.assert_matches("ex09-chaos", replay_with_server("ex09-chaos", pg_server))


def test_ex09_demo_runs_on_a_tinyq_built_from_the_skeleton(pg_server):
    """tinyq_pg imports the tinyq.py beside it, which for a reader is their own: one built from
    the skeleton (as the stages ask, here filled with the reference's parts) runs there too."""
    from tests.capstone.test_check import filled_skeleton
    harness.assert_matches("ex09-demo", replay_with_server("ex09-demo", pg_server, filled_skeleton()))
