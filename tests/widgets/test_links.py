"""A link copied from chapter 5's lease-too-short embed opens the same run (issue 12, defect 1:
its snapshot's params used to name a crash point, which the same widget then refused).
tests/core/test_links.py checks the same for every embed of every chapter, in Python."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "05-leases.html"   # sim-3: crash-timing, lease-too-short, no fencing


def test_the_lease_too_short_link_replays_the_run_it_recorded(fresh_page, real_site):
    page = fresh_page
    page.goto(real_site.at(CHAPTER))
    sim = Sim(page, id="sim-3").start()
    entries = sim.part("log").locator("li")
    for step in range(1, 4):        # each step is one moment of the timeline, one event
        sim.button("Step").click()
        expect(entries).to_have_count(step)
    sim.button("Copy link").click()
    expect(sim.part("link-status")).to_contain_text("address bar")
    link = page.url
    assert "sim-3.scenario=lease-too-short" in link
    seen = {"time": sim.time(), "outcome": sim.outcome(),
            "log": sim.part("log").locator("li").all_inner_texts()}

    other = page.context.new_page()
    other.goto(link)
    again = Sim(other, id="sim-3")
    again.wait("ready")          # the link's #sim-3 scrolled to it: it started by itself
    expect(again.part("message")).to_contain_text("This is the run the link recorded")
    assert {"time": again.time(), "outcome": again.outcome(),
            "log": again.part("log").locator("li").all_inner_texts()} == seen
