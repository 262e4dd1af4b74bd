"""The keyboard's place is never lost: Start hides while Python loads, so the focus goes to the
progress text (or to Play, once the recorded run plays), then to Play when the widget is ready; a step button that stops applying hands
the focus to the other worker's button (or Play), never to the page's <body>."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

WORKER = "04-the-worker.html"   # sim-two-workers-twelve-jobs (live-queue), sim-race-to-claim (race, claim naive, 2 jobs)

FOCUSED = "() => { const a = document.activeElement; return [a.tagName, a.dataset.part || a.dataset.action || '']; }"


def test_focus_follows_start_to_the_progress_text_then_to_play(fresh_page, real_site):
    page = fresh_page
    page.goto(real_site.at(WORKER))
    sim = Sim(page, "live-queue")
    sim.button("Start the simulation").focus()
    page.keyboard.press("Enter")
    sim.wait("loading")
    # The progress text, or Play already: the embed's recorded run arrived and plays while
    # Python starts (recording.js), in Start's place.
    assert page.evaluate(FOCUSED) in (["P", "progress-text"], ["BUTTON", "play"])
    sim.wait("ready")
    expect(sim.button("Play")).to_be_focused()


def test_a_step_button_that_stops_hands_the_focus_on(fresh_page, real_site):
    page = fresh_page
    page.goto(real_site.at(WORKER))
    race = Sim(page, "race").start()
    step_b = race.button("Step worker B")
    step_b.focus()
    entries = race.part("log").locator("li")
    for _ in range(40):
        if step_b.is_disabled():
            break
        count = entries.count()
        step_b.press("Enter")   # on B itself: a stray key press must never step worker A
        # Wait for this step's answer (each step logs one event) before the next key. Comparing
        # the log's text with its innerText waited for nothing (to_have_text reads textContent,
        # which has no line breaks between entries): under load the keys ran ahead of the
        # replies, and the one pressed just as B stopped went to A, where the focus had moved.
        expect(entries).to_have_count(count + 1)
    expect(step_b).to_be_disabled()
    expect(race.button("Step worker A")).to_be_focused()
