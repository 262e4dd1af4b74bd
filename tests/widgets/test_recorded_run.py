"""A recorded run plays at once (theme/js/sims/recording.js): Play moves the picture while Python
is still loading, Python takes over at the very moment shown, and a reader's action taken before
Python was up lands at its moment once it is.

Python's start is held back on purpose: the server keeps the answer to `pyodide.asm.wasm` until the
test lets it go, so "before Python is ready" is a state the test controls, not a race it hopes to
win. tests/core/test_recordings.py proves every embed's recording equals Python's frames.
"""
from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from builder.serve import SiteHandler
from tests.support.served import serve
from tests.widgets.conftest import READY, Sim, new_watched_page

WORKER = "04-the-worker.html"   # sim-two-workers-twelve-jobs: 2 workers, 12 jobs of 2 s (12 s recorded)


class HeldSite:
    """The real site, whose Pyodide wasm is answered only once `release()` is called."""

    def __init__(self, folder):
        gate = self.gate = threading.Event()

        class Handler(SiteHandler):
            def do_GET(self):
                if self.path.split("?")[0].endswith("/pyodide/pyodide.asm.wasm"):
                    gate.wait(120)
                return super().do_GET()

        self.server, self.site = serve(folder, handler=Handler)

    def release(self):
        self.gate.set()


@pytest.fixture
def held(browser, real_site):
    site = HeldSite(real_site.folder)
    context, page, watch = new_watched_page(browser, site.site)
    page.held = site
    yield page
    site.release()
    context.close()
    site.server.shutdown()
    watch.check()


def recorded(page) -> Sim:
    page.goto(page.held.site.at(WORKER))
    sim = Sim(page, id="sim-two-workers-twelve-jobs")
    sim.root.scroll_into_view_if_needed()
    page.wait_for_selector(f"#{sim.id}[data-recorded]", timeout=READY)
    return sim


def test_play_moves_before_python_is_ready_and_python_goes_on_from_the_same_moment(held):
    sim = recorded(held)
    expect(sim.part("time")).to_have_text("0 s")
    sim.button("Play").click()
    expect(sim.part("time")).not_to_have_text("0 s")   # the picture moves...
    assert sim.state() == "loading"                    # ...while Python is still held back
    sim.pause()
    shown = sim.part("time").inner_text()
    outcome, rows = sim.outcome(), sim.part("jobs").inner_text()
    figures = sim.root.locator("[data-view-figures]").first.inner_text()
    held.held.release()
    sim.wait("ready")
    # Python took over at that moment: nothing redrawn, nothing jumped.
    assert (sim.part("time").inner_text(), sim.outcome(), sim.part("jobs").inner_text()) == (shown, outcome, rows)
    assert sim.root.locator("[data-view-figures]").first.inner_text() == figures
    assert sim.root.get_attribute("data-recorded") is None
    sim.button("Step").click()   # and Python's next step is the next tick after it
    expect(sim.part("time")).not_to_have_text(shown)
    assert sim.time() == pytest.approx(float(shown.split()[0]) + 0.1)


def test_an_action_taken_before_python_is_ready_lands_at_its_moment(held):
    sim = recorded(held)
    sim.button("Step").click()
    for _ in range(9):
        before = sim.part("time").inner_text()
        sim.button("Step").click()
        expect(sim.part("time")).not_to_have_text(before)
    expect(sim.part("time")).to_have_text("1 s")
    sim.button("Kill worker 1").click()
    expect(sim.part("message")).to_contain_text("Python is still starting")
    assert sim.state() == "loading"
    held.held.release()
    sim.wait("ready")
    expect(sim.part("message")).to_have_text("")
    expect(sim.root.locator('.lq-worker[data-worker="1"]')).to_have_attribute("data-state", "killed")
    expect(sim.part("time")).to_have_text("1 s")   # at the moment it was pressed
    # The link records it at 1 s, as if Python had been there all along.
    sim.button("Copy link").click()
    expect(sim.part("link-status")).not_to_have_text("")
    assert ".do=1:kill:1" in held.url.replace("%3A", ":")


def test_a_link_with_only_a_time_opens_drawn_from_the_recording(held):
    ident = "sim-two-workers-twelve-jobs"
    held.goto(held.held.site.at(f"{WORKER}?{ident}.workers=2&{ident}.t=3#{ident}"))
    sim = Sim(held, id=ident)
    held.wait_for_selector(f"#{ident}[data-recorded]", timeout=READY)
    expect(sim.part("time")).to_have_text("3 s")   # at its moment, while Python is held back
    assert sim.state() == "loading"
    expect(sim.part("message")).to_contain_text("This is the run the link recorded")
    shown = (sim.outcome(), sim.part("jobs").inner_text())
    held.held.release()
    sim.wait("ready")
    assert (sim.part("time").inner_text(), sim.outcome(), sim.part("jobs").inner_text()) == ("3 s", *shown)
    sim.button("Step").click()
    expect(sim.part("time")).to_have_text("3.1 s")


def test_a_link_with_an_action_waits_for_python_and_says_so(held):
    ident = "sim-two-workers-twelve-jobs"
    held.goto(held.held.site.at(f"{WORKER}?{ident}.do=1:kill:1&{ident}.t=2#{ident}"))
    sim = Sim(held, id=ident)
    sim.wait("loading")
    expect(sim.part("message")).to_contain_text("shown once the simulation starts")
    expect(sim.part("time")).to_have_text("0 s")   # the start frame meanwhile
    assert sim.root.get_attribute("data-recorded") is None
    held.held.release()
    sim.wait("ready")
    expect(sim.part("time")).to_have_text("2 s")
    expect(sim.root.locator('.lq-worker[data-worker="1"]')).to_have_attribute("data-state", "killed")
