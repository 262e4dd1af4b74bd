"""code/check_output.py: a reader checks their own run against "What you should see" (issue 23).
It reads and normalises as this folder's harness does (the harness imports it)."""
import json
import shutil
import subprocess
import sys

from tests.transcripts import harness

CHECKER = harness.ROOT / "code" / "check_output.py"
GUIDE_SHOWS = "\n".join(line for line in harness.find_all()["ex03-run"].lines if not line.startswith("$ "))


def _check(*args, stdin="", cwd=None, checker=CHECKER):
    return subprocess.run([sys.executable, str(checker), *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=30)


def test_the_harness_and_the_checker_share_one_normalisation():
    assert harness.normalise is harness.checker.normalise and harness.matches is harness.checker.matches


def test_a_run_that_differs_only_in_timings_matches():
    mine = GUIDE_SHOWS.replace("0.0001s", "0.0004s").replace("0.0002s", "0.013s")
    result = _check("ex03-run", stdin=mine)
    assert result.returncode == 0 and result.stdout.startswith("Matches ex03-run"), result


def test_a_pasted_terminal_session_with_the_readers_prompt_matches(tmp_path):
    session = f"ada@laptop:~/guide/code$ python3 ex03_memory_queue.py\n{GUIDE_SHOWS}\n"
    (tmp_path / "mine.txt").write_text(session)
    result = _check("ex03", str(tmp_path / "mine.txt"))
    assert result.returncode == 0, result


def test_a_different_count_fails_and_shows_the_difference():
    mine = GUIDE_SHOWS.replace("3 accounts created, 3 welcome emails sent", "3 accounts created, 2 welcome emails sent")
    result = _check("ex03-run", stdin=mine)
    assert result.returncode == 1
    assert "-3 accounts created, 3 welcome emails sent" in result.stdout
    assert "+3 accounts created, 2 welcome emails sent" in result.stdout


def test_an_unknown_name_is_a_clear_usage_error():
    result = _check("ex3-run", stdin="")
    assert result.returncode == 2 and "no transcript called 'ex3-run'" in result.stderr
    assert "ex03-run" in result.stderr   # a suggestion


def test_in_the_built_site_it_reads_the_transcripts_saved_beside_it(tmp_path):
    code = tmp_path / "site" / "code"
    code.mkdir(parents=True)
    shutil.copy(CHECKER, code)
    saved = {ident: {"path": str(t.path), "line": t.line, "attrs": t.attrs, "lines": t.lines}
             for ident, t in harness.find_all().items()}
    (code / "transcripts.json").write_text(json.dumps(saved))
    result = _check("ex03-run", stdin=GUIDE_SHOWS, checker=code / "check_output.py", cwd=tmp_path)
    assert result.returncode == 0, result


def test_list_names_every_transcript_with_its_first_command():
    result = _check("--list")
    assert result.returncode == 0
    assert "ex03-run" in result.stdout and "$ python3 ex03_memory_queue.py" in result.stdout
    assert len(result.stdout.splitlines()) == len(harness.find_all())
