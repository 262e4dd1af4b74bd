"""The keyboard's place is never lost: Start hides while Python loads, so the focus goes to the
progress text, then to Play when the widget is ready; a step button that stops applying hands
the focus to the other worker's button (or Play), never to the page's <body>."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

WORKER = "04-the-worker.html"   # sim-1 live-queue, sim-2 race (claim naive, 2 jobs)

FOCUSED = "() => { const a = document.activeElement; return [a.tagName, a.dataset.part || a.dataset.action || '']; }"


def test_focus_follows_start_to_the_progress_text_then_to_play(fresh_page, real_site):
    page = fresh_page
    page.goto(real_site.at(WORKER))
    sim = Sim(page, "live-queue")
    sim.button("Start the simulation").focus()
    page.keyboard.press("Enter")
    sim.wait("loading")
    assert page.evaluate(FOCUSED) == ["P", "progress-text"]
    sim.wait("ready")
    expect(sim.button("Play")).to_be_focused()


@pytest.mark.xfail(strict=False, reason="flaky in clean-clone CI (2 of 5 runs): both Step buttons end "
                   "disabled, as if the widget left `ready`; passes locally. Under investigation, see the issue note.")
def test_a_step_button_that_stops_hands_the_focus_on(fresh_page, real_site):
    page = fresh_page
    page.goto(real_site.at(WORKER))
    race = Sim(page, "race").start()
    step_b = race.button("Step worker B")
    step_b.focus()
    for _ in range(40):
        if step_b.is_disabled():
            break
        log = race.part("log").inner_text()
        step_b.press("Enter")   # on B itself: a stray key press must never step worker A
        expect(race.part("log")).not_to_have_text(log)
    expect(step_b).to_be_disabled()
    expect(race.button("Step worker A")).to_be_focused()
