"""A link replays by itself only so far: a run longer than a page replays (a link naming 99,999 s of
chapter 15's ever-growing queue kept the page busy until the queue's 5,000 jobs were done, and heavier
ones for ten minutes) stops, says so next to the widget, and leaves a widget ready to use; the reader
can stop a replay, and leaving the page stops it. Real Pyodide in real Chromium."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim

SIM = "sim-queue-that-grows"
HEAVY = f"15-capacity-and-watching.html?{SIM}.do=0:enqueue,1:enqueue&{SIM}.t=99999#{SIM}"


@pytest.fixture
def heavy(fresh_page, real_site):
    fresh_page.goto(real_site.at(HEAVY))
    return Sim(fresh_page, id=SIM)


def test_a_link_longer_than_a_page_replays_stops_and_says_so(heavy):
    heavy.wait("ready", timeout=LONG)
    message = heavy.part("message")
    expect(message).to_contain_text("so the replay stopped at ")
    expect(message).to_contain_text(" s of 99999 s, after 2 of its 2 actions. Press Play to go on from there")
    assert heavy.time() < 5000     # the whole run would end when its 5,000 jobs are done
    assert heavy.button("Play").is_enabled()
    heavy.button("Reset").click()  # and the widget is the reader's again
    expect(heavy.part("time")).to_have_text("0 s")


def test_the_reader_can_stop_a_replay(heavy):
    stop = heavy.root.get_by_role("button", name="Stop replaying")
    expect(stop).to_be_visible(timeout=LONG)
    expect(heavy.part("progress-text")).to_have_text("Replaying the run…")
    stop.focus()
    heavy.page.keyboard.press("Enter")
    heavy.wait("ready", timeout=LONG)
    expect(heavy.part("message")).to_contain_text("The replay stopped, as you asked, at ")
    expect(stop).to_have_count(0)
    expect(heavy.button("Play")).to_be_focused()   # the focus is not lost with the button
    assert heavy.time() < 2400


def test_leaving_the_page_stops_a_replay(heavy):
    expect(heavy.root.get_by_role("button", name="Stop replaying")).to_be_visible(timeout=LONG)
    # The event a browser sends as the reader leaves (a page kept in the back/forward cache would
    # otherwise go on replaying while it waits there).
    heavy.page.evaluate("() => window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}))")
    heavy.wait("ready", timeout=LONG)
    expect(heavy.part("message")).to_contain_text("The replay stopped when the page was left, at ")
    assert heavy.time() < 2400
