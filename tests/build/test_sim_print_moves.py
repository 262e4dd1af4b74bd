"""An embed's `print:` line (asked for in a teacher trial): the printed run of a scenario that starts
empty makes the reader's moves the chapter tells of, and a mistake in the line stops the build at it."""
import pytest

from builder import BuildError, build_site
from tests.build.book_maker import make_book
from tests.conftest import fixture_config

EMBED = "```sim counter id=four-jobs\nworkers: 1\njobs: 4\n{moves}---\nFour jobs, one worker.\n```\n"


def _build(tmp_path, moves):
    root = make_book(tmp_path / "book", {"00-a.md": EMBED.format(moves=moves)})
    out = tmp_path / "site"
    build_site(fixture_config(out, root=root))
    return (out / "00-a.html").read_text()


def test_without_moves_the_print_runs_the_scenario_alone(tmp_path):
    html = _build(tmp_path, "")
    assert "Simulation 0.1 as the chapter sets it up, run to its end</summary>" in html
    assert "<strong>Outcome at 4 s:</strong>" in html


def test_the_printed_run_makes_the_moves_at_their_times_and_says_so(tmp_path):
    html = _build(tmp_path, "print: 2:reset\n")
    assert ("Simulation 0.1 as the chapter sets it up, run to its end, after the reader's moves: "
            "reset at 2 s</summary>") in html
    # A reset at 2 s starts the four jobs again: two jobs done before it, then all four again.
    assert html.count("1 job(s) done</li>") == 6


@pytest.mark.parametrize("moves, words", [
    ("print: soon:reset\n", "print: 'soon:reset' is not time:action:arguments"),
    ("print: 3:reset,1:reset\n", "print: '1:reset' comes before the action listed ahead of it"),
    ("print: 1:explode\n", "running it to the end for print failed: ParamError"),
])
def test_a_mistake_in_the_moves_stops_the_build_at_the_embed(tmp_path, moves, words):
    with pytest.raises(BuildError) as caught:
        _build(tmp_path, moves)
    assert "content/00-a.md:1: " in str(caught.value) and words in str(caught.value), str(caught.value)
