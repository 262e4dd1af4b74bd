"""The transcript harness forgives pids, durations and temp paths, and nothing else."""
from tests.transcripts import harness


def test_normalise_blanks_pids_and_durations_only():
    a = "worker 846 waiting\n  signup finished in 2.0s\n[1234] CRASH\njob 3 attempt 2"
    b = "worker 12 waiting\n  signup finished in 2.1s\n[99] CRASH\njob 3 attempt 2"
    assert harness.normalise(a) == harness.normalise(b)
    assert harness.normalise("job 3 attempt 2") != harness.normalise("job 3 attempt 3")


def test_ellipsis_stands_for_any_lines_but_order_matters():
    assert harness.matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert harness.matches(["a", "...", "d"], ["a", "d"])
    assert not harness.matches(["a", "...", "d"], ["d", "a"])
    assert not harness.matches(["a", "b"], ["a", "b", "c"])


def test_a_wrong_line_fails(tmp_path):
    t = harness.Transcript("x", harness.ROOT / "content" / "x.md", 1, {}, ["$ echo hi", "bye"])
    try:
        harness._compare(t, "bye", "hi")
    except AssertionError as error:
        assert "does not match" in str(error)
    else:
        raise AssertionError("a wrong transcript passed")


def test_interrupt_matches_the_newline_a_program_prints_or_nothing():
    assert harness.matches(["working", "^C", "stopped"], ["working", "", "stopped"])
    assert harness.matches(["working", "^C", "stopped"], ["working", "stopped"])
    assert not harness.matches(["working", "^C", "stopped"], ["working", "", "", "stopped"])
