"""Time travel in every simulation, in real Chromium with real Pyodide: after a few
steps and one of the reader's actions, "Step back" (button and the "," key) and the slider
(arrows, Home) show exactly what was drawn at each earlier moment; acting at an earlier moment
starts a branch and says so, and the kept run and the branch are compared; a link copied at an earlier moment opens at that moment (live-queue).
Two chapters hold all four simulations, so the module starts Python twice (and once more for the
link's page)."""
import re

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

MOVES = 6     # steps and actions taken before going back; the action is move 2
CASES = [     # chapter, simulation, the action (a button's name), whether to act again as a branch
    ("04-the-worker.html", "live-queue", "Kill worker 1", "Enqueue job"),
    ("04-the-worker.html", "race", "Step worker A", "Step worker B"),
    ("11-effect-with-the-ack.html", "crash-timing", "Kill worker A", None),
    ("10-idempotency.html", "payments", None, None),
]
SLOW = 60_000  # ms: a reply on a loaded 2-core machine


def drawn(sim):
    """What the widget shows of the run: its time, outcome and jobs table, as text."""
    return {"time": sim.part("time").inner_text(), "outcome": sim.outcome(),
            "jobs": sim.part("jobs").inner_text()}


def slider(sim):
    return sim.root.get_by_role("slider", name="Moment in the run", exact=True)


def settle(sim, at):
    """Wait until the slider's requests are answered and it stands at position `at`."""
    expect(slider(sim)).not_to_have_attribute("aria-busy", "true", timeout=SLOW)
    expect(slider(sim)).to_have_value(str(at), timeout=SLOW)


@pytest.mark.parametrize(("chapter", "name", "action", "branch"), CASES, ids=[case[1] for case in CASES])
def test_going_back_shows_each_earlier_moment_as_it_was(module_page, real_site, chapter, name, action, branch):
    page = module_page
    if name == "payments":
        page.emulate_media(reduced_motion="reduce")    # nothing in time travel moves: the same
    if not page.url.endswith(chapter):   # the next simulation on the same page: no new start
        page.goto(real_site.at(chapter))
    sim = Sim(page, name).start()
    expect(sim.button("Step back")).to_be_disabled()
    seen = [drawn(sim)]
    for move in range(1, MOVES + 1):
        sim.button(action if action and move == 2 else "Step").click()
        settle(sim, move)
        seen.append(drawn(sim))
    if branch:                                          # kept, to compare with a branch below
        sim.button("Keep this run to compare").click()
        expect(sim.button("Compare with the kept run")).to_be_enabled(timeout=SLOW)
    if action:
        marks = sim.part("marks")
        expect(marks).to_contain_text(re.compile(f"Marked on the timeline: {action} at ", re.I))

    for at in (MOVES - 1, MOVES - 2):                   # the button
        sim.button("Step back").click()
        settle(sim, at)
        assert drawn(sim) == seen[at], f"after stepping back to position {at}"
    expect(sim.part("announce")).to_contain_text("Stepped back to")
    sim.button("Step").focus()                          # the keyboard, from elsewhere in the widget
    page.keyboard.press(",")
    settle(sim, MOVES - 3)
    assert drawn(sim) == seen[MOVES - 3]

    scrub = slider(sim)
    scrub.focus()
    page.keyboard.press("Home")
    settle(sim, 0)
    assert drawn(sim) == seen[0]
    end = seen[MOVES]["time"]          # the race's clock counts statements ("6 statements")
    words = f"0 statements, of {end}" if name == "race" else f"0 s, of {end}"
    expect(scrub).to_have_attribute("aria-valuetext", f"{words} so far")
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    settle(sim, 2)
    assert drawn(sim) == seen[2]
    if name == "live-queue":
        link_opens_at_this_moment(sim, seen[2])

    if branch:                                          # acting at an earlier moment: a new branch
        sim.button(branch).click()
        expect(sim.part("message")).to_contain_text("A new branch:", timeout=SLOW)
        expect(scrub).to_have_attribute("max", "3")
        sim.button("Compare with the kept run").click()
        expect(sim.root.locator(".sim-pair-run")).to_have_count(2, timeout=SLOW)   # two pictures
        # (the race's seed may have chosen B at that moment too: then the runs agree so far)
        expect(sim.part("compare-words")).to_contain_text(re.compile("They part at|Nothing differs|The same events"))


def link_opens_at_this_moment(sim, seen):
    """Copy the link at position 2 (the kill, at the time of the step before it) and open it in
    a new page: the same run, at that moment."""
    sim.button("Copy link").click()
    expect(sim.part("link-status")).to_contain_text("address bar")
    link = sim.page.url
    assert f"{sim.id}.at=0.1" in link and f"{sim.id}.n=1" in link and f"{sim.id}.do=0.1%3Akill%3A1" in link
    other = sim.page.context.new_page()
    try:
        other.goto(link)
        again = Sim(other, id=sim.id)
        again.wait("ready")
        expect(again.part("message")).to_contain_text("at the moment it names", timeout=SLOW)
        expect(slider(again)).to_have_value("2")
        expect(slider(again)).to_have_attribute("max", str(MOVES))
        assert drawn(again) == seen
    finally:
        other.close()
