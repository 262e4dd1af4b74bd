"""Predict, then run: the ```predict fence is run at build time; the answer comes from
the simulation's own snapshot; a mistake in the fence stops the build at its file:line."""
import pytest

from builder import BuildError, build_site
from tests.build.book_maker import make_book
from tests.build.site_check import Page
from tests.conftest import fixture_config

EMBED = "```sim counter id=four-jobs\nworkers: 1\njobs: 4\n---\nFour jobs, one worker.\n```\n\n"   # lines 1-6
GOOD = ("```predict id=how-long sim=four-jobs\n"            # line 8
        "question: One job a second: when is the last one done?\n"
        "check: time\n"
        "unit: s\n"
        "choices: 2, 4, 8\n"
        "---\n"
        "Four seconds: **one** worker, one job at a time.\n"
        "```\n")


def _build(tmp_path, text):
    root = make_book(tmp_path / "book", {"00-a.md": text})
    out = tmp_path / "site"
    build_site(fixture_config(out, root=root))
    return out


def test_a_challenge_is_run_at_build_time_and_its_answer_folded(tmp_path):
    out = _build(tmp_path, EMBED + GOOD)
    html = (out / "00-a.html").read_text()
    page = Page(out / "00-a.html")
    assert "predict-how-long" in page.ids
    assert 'data-predict-for="sim-four-jobs" data-check="time"' in html
    assert '<input type="radio" name="predict-how-long-guess" value="4"> 4 s</label>' in html
    assert '<form class="predict-form js-only"' in html and 'role="status"' in html
    # The answer, computed by running the simulation, folded (a closed <details>) with the why.
    assert ('<details class="answer predict-answer" data-part="answer">\n<summary>Answer</summary>\n'
            '<div class="answer-body">\n<p><strong>The run ends with 4 s.</strong></p>\n'
            '<p>Four seconds: <strong>one</strong> worker, one job at a time.</p>') in html
    assert "Predict, then run 0.1" in html
    guide = (out / "guide.html").read_text()   # the all-in-one page: no form, a link to the live one
    assert 'id="ch0-predict-how-long"' in guide and "predict-form" not in guide.split("</head>")[1]
    assert '<a href="00-a.html#predict-how-long">' in guide and "The run ends with 4 s." in guide


@pytest.mark.parametrize("text, line, words", [
    (GOOD.replace("id=how-long sim=four-jobs", "sim=four-jobs"), 8, "a challenge names its id and its simulation"),
    (GOOD.replace("sim=four-jobs", "sim=three-jobs"), 8, "sim=three-jobs: no simulation with that id above this challenge (above it: four-jobs)"),
    (GOOD.replace("question: One job a second: when is the last one done?\n", ""), 8, "a challenge needs 'question:'"),
    (GOOD.replace("check: time", "check: outcome"), 8, 'check: outcome is "0 jobs waiting for 1 worker(s)" at the end of the run, not a number'),
    (GOOD.replace("check: time", "check: time[0]"), 8, "is not a dotted path into the snapshot"),
    (GOOD.replace("choices: 2, 4, 8", "choices: 2, 3, 8"), 8, "choices: none of them is the run's answer, 4 (time at the end)"),
    (GOOD.replace("choices: 2, 4, 8", "choices: 2, four"), 8, "choices: 'four' is not a number"),
    (GOOD.replace("unit: s\n", "do: soon:reset\n"), 8, "do: 'soon:reset' is not time:action:arguments"),
    (GOOD.replace("unit: s\n", "do: 1:explode\n"), 8, "do: the simulation refused it: action: unknown action 'explode'"),
    (GOOD.replace("unit: s\n", "colour: red\n"), 11, "expected one of question:, do:, check:, unit:, choices:, within: or '---'"),
    (GOOD.replace("Four seconds: **one** worker, one job at a time.\n", ""), 14, "add the why after '---'"),
    (GOOD + "\n" + GOOD, 17, "'predict-how-long' is already used on line 8"),
])
def test_a_mistake_in_a_challenge_stops_the_build_at_its_line(tmp_path, text, line, words):
    with pytest.raises(BuildError) as caught:
        _build(tmp_path, EMBED + text)
    assert f"content/00-a.md:{line}: " in str(caught.value) and words in str(caught.value), str(caught.value)
