"""code/check_output.py: a reader checks their own run against "What you should see".
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


def test_a_pasted_session_ending_in_the_readers_bare_prompt_matches(tmp_path):
    """Copying a whole session takes the prompt that came back after the run, with nothing typed
    after it: that last line is the terminal's, not the program's."""
    for last in ("ada@laptop:~/guide/code$ ", "ada@laptop:~/guide/code$", "$ ", "$"):
        session = f"ada@laptop:~/guide/code$ python3 ex03_memory_queue.py\n{GUIDE_SHOWS}\n{last}\n"
        (tmp_path / "mine.txt").write_text(session)
        result = _check("ex03", str(tmp_path / "mine.txt"))
        assert result.returncode == 0, (last, result)


def test_a_last_line_that_is_not_a_bare_prompt_still_counts(tmp_path):
    session = f"ada@laptop:~/guide/code$ python3 ex03_memory_queue.py\n{GUIDE_SHOWS}\nbob@laptop:~$\n"
    (tmp_path / "mine.txt").write_text(session)
    result = _check("ex03", str(tmp_path / "mine.txt"))
    assert result.returncode == 1 and "+bob@laptop:~$" in result.stdout, result


def test_a_different_count_fails_and_shows_the_difference():
    mine = GUIDE_SHOWS.replace("3 accounts created, 3 welcome emails sent", "3 accounts created, 2 welcome emails sent")
    result = _check("ex03-run", stdin=mine)
    assert result.returncode == 1
    assert "-3 accounts created, 3 welcome emails sent" in result.stdout
    assert "+3 accounts created, 2 welcome emails sent" in result.stdout


def test_a_names_start_shows_the_difference_against_the_block_the_run_comes_closest_to():
    """Teacher trial: `check_output.py ex03 mine.txt` with one line changed compared the run with
    ex03-quit, the first block by name, and told the student to delete every [worker] line."""
    mine = GUIDE_SHOWS.replace("3 accounts created, 3 welcome emails sent", "3 accounts created, 2 welcome emails sent")
    result = _check("ex03", stdin=mine)
    assert result.returncode == 1
    assert result.stdout.startswith("Does not match ex03-run (nor ex03-quit"), result.stdout
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


def _saved():
    return {ident: {"path": str(t.path), "line": t.line, "attrs": t.attrs, "lines": t.lines}
            for ident, t in harness.find_all().items()}


def test_the_sites_copy_saved_alone_into_a_readers_folder_works(tmp_path):
    from builder import embed_transcripts
    mine = tmp_path / "jobs-guide"
    mine.mkdir()
    shutil.copy(CHECKER, mine)
    embed_transcripts(mine / "check_output.py", _saved())   # what the build does to the site's copy
    result = _check("ex03-run", stdin=GUIDE_SHOWS, checker=mine / "check_output.py", cwd=mine)
    assert result.returncode == 0, result
    assert not (mine / "transcripts.json").exists()


def test_a_copy_with_no_transcripts_says_how_to_get_them(tmp_path):
    shutil.copy(CHECKER, tmp_path)
    result = _check("ex03-run", stdin=GUIDE_SHOWS, checker=tmp_path / "check_output.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "Download it again" in result.stderr and "code/check_output.py ex03-run" in result.stderr


CHAOS = harness.find_all()["capstone-chaos"]


def _chaos_output(lines):
    return "\n".join(line for line in lines if not line.startswith("$ "))


def test_crash_lines_in_another_order_match_where_the_chapter_says_order_may_differ():
    lines = list(CHAOS.lines)
    at = [i for i, line in enumerate(lines) if line.startswith("  [")]
    assert len(at) > 2 and CHAOS.attrs.get("unordered") == "  ["
    for i, line in zip(at, reversed([lines[i] for i in at])):
        lines[i] = line.replace("[58", "[61")                    # another run's process ids too
    result = _check("capstone-chaos", stdin=_chaos_output(lines))
    assert result.returncode == 0, result


def test_a_different_crash_in_another_order_does_not_match():
    lines = list(CHAOS.lines)
    at = [i for i, line in enumerate(lines) if line.startswith("  [")]
    lines[at[0]], lines[at[1]] = lines[at[1]], lines[at[0]].replace("attempt 1)", "attempt 3)")
    result = _check("capstone-chaos", stdin=_chaos_output(lines))
    assert result.returncode == 1 and "attempt 3)" in result.stdout


def test_other_lines_out_of_order_still_do_not_match():
    lines = list(CHAOS.lines)
    end = lines.index("jobs by status:                done 60")
    lines[end - 1], lines[end] = lines[end], lines[end - 1]
    result = _check("capstone-chaos", stdin=_chaos_output(lines))
    assert result.returncode == 1


def _with_interrupts(name):
    return "\n".join(harness.find_all()[name].lines)


def test_every_block_with_a_ctrl_c_matches_itself_pasted_from_a_terminal():
    """The guide's own blocks, word for word (the terminal's ^C echo included), match: a reader
    who pastes a whole session is not told it differs (a fresh reader in a trial was)."""
    blocks = [name for name, block in harness.find_all().items() if "^C" in block.lines]
    assert len(blocks) >= 5
    for name in blocks:
        result = _check(name, stdin=_with_interrupts(name))
        assert result.returncode == 0, (name, result.stdout)


def test_an_echo_run_into_the_next_line_matches_and_a_changed_line_after_it_does_not():
    pasted = _with_interrupts("ex04-work").replace("^C\nworker stopped", "^Cworker stopped")
    assert _check("ex04-work", stdin=pasted).returncode == 0
    wrong = pasted.replace("^Cworker stopped", "^Cworker crashed")
    result = _check("ex04-work", stdin=wrong)
    assert result.returncode == 1 and "+worker crashed" in result.stdout


def test_a_difference_elsewhere_is_shown_without_the_ctrl_c_echo():
    mine = _with_interrupts("ex04-work").replace("^C\n", "\n").replace("job 3 is done", "job 3 is lost")
    result = _check("ex04-work", stdin=mine)
    assert result.returncode == 1 and "+ack    job 3 is lost" in result.stdout
    assert "^C" not in result.stdout and "\n+\n" not in result.stdout, result.stdout


def test_a_ctrl_c_echo_at_another_line_matches_and_says_so():
    # A fresh reader's ^C landed after "worker stopped": the checker said "Does not match" and
    # then showed no difference at all.
    moved = _with_interrupts("ex04-work").replace("^C\nworker stopped", "worker stopped\n^C")
    assert moved != _with_interrupts("ex04-work")
    result = _check("ex04-work", stdin=moved)
    assert result.returncode == 0 and "Your ^C shows at another line" in result.stdout, result.stdout
    wrong = moved.replace("worker stopped", "worker crashed")
    result = _check("ex04-work", stdin=wrong)
    assert result.returncode == 1 and "+worker crashed" in result.stdout, result.stdout


def _ex09_chaos_run():
    """ex09-chaos as a reader's run prints it: the lines its '...' stands for filled in."""
    shown = [line for line in harness.find_all()["ex09-chaos"].lines if not line.startswith("$ ")]
    at = shown.index("...")
    absorbed = ["  [worker 31] killed before the email (job 4)", "finished in 3.2s",
                "workers killed by the monkey:  1"]
    return shown[:at] + absorbed + shown[at + 1:], absorbed


def test_one_extra_last_line_is_the_only_difference_shown_after_a_dot_dot_dot():
    """Reader 15: pg_virtualenv's 'Dropping cluster' line after ex09-chaos made the checker show
    every line the '...' had absorbed as a '+' line, as if the '...' matched nothing."""
    run, absorbed = _ex09_chaos_run()
    assert _check("ex09-chaos", stdin="\n".join(run) + "\n").returncode == 0
    result = _check("ex09-chaos", stdin="\n".join(run + ["Dropping cluster 15/regress ..."]) + "\n")
    assert result.returncode == 1
    added = [line for line in result.stdout.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert added == ["+Dropping cluster 15/regress ..."], result.stdout
    assert not any(line.startswith("-") and not line.startswith("---") for line in result.stdout.splitlines())


def test_a_changed_line_after_a_dot_dot_dot_is_shown_as_changed():
    run, _ = _ex09_chaos_run()
    wrong = [line.replace("done 15", "done 14") for line in run]
    result = _check("ex09-chaos", stdin="\n".join(wrong) + "\n")
    changed = [line for line in result.stdout.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert result.returncode == 1
    assert changed == ["-jobs by status:                done 15", "+jobs by status:                done 14"], result.stdout
