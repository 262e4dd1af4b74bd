"""Without JavaScript, every page's full text, code and diagrams are shown, each simulation
shows its starting state and its words for readers without scripts, every link is shown and
goes somewhere, and the reading text is word for word what a reader with JavaScript gets."""
import pytest

from tests.quality.checks import report
from tests.quality.site_pages import PAGES


def _problems(reading, words_with_js):
    problems = [f"hidden: {line}" for line in reading.hidden_text]
    problems += [f"link: {line}" for line in reading.links]
    problems += [f"simulation: {line}" for line in reading.simulations]
    if reading.words != words_with_js:
        missing = [w for w in words_with_js if w not in set(reading.words)][:20]
        problems.append(f"the text differs from what JavaScript shows ({len(reading.words)} words "
                        f"without, {len(words_with_js)} with; only with JavaScript: {missing})")
    return problems


@pytest.mark.parametrize("name", PAGES)
def test_page_reads_fully_without_javascript(no_js, name):
    problems = _problems(*no_js(name))
    assert not problems, report(f"{name} without JavaScript", problems)


def test_every_page_has_its_text(no_js):
    reading, _ = no_js("guide.html")
    assert len(reading.words) > 10000   # the checks above looked at a real page, not an empty one


def test_the_control_fixture_passes(no_js):
    assert _problems(*no_js(("fixture", "good.html"))) == []


def test_text_only_a_script_shows_fails(no_js):
    reading, words_with_js = no_js(("fixture", "hidden-without-js.html"))
    problems = _problems(reading, words_with_js)
    assert any(p.startswith("hidden:") and "Only a script shows this sentence." in p for p in problems), problems
    assert any(p.startswith("link:") and "needs a script" in p for p in problems), problems
    assert any(p.startswith("the text differs") for p in problems), problems
