"""A link copied from chapter 5's lease-too-short embed opens the same run (its
snapshot's params used to name a crash point, which the same widget then refused).
tests/core/test_links.py checks the same for every embed of every chapter, in Python."""
import re

from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "05-leases.html"   # sim-lease-too-short: crash-timing, lease-too-short, no fencing


def test_the_lease_too_short_link_replays_the_run_it_recorded(fresh_page, real_site):
    page = fresh_page
    page.goto(real_site.at(CHAPTER))
    sim = Sim(page, id="sim-lease-too-short").start()
    entries = sim.part("log").locator("li")
    for step in range(1, 4):        # each step is one moment of the timeline, one event
        sim.button("Step").click()
        expect(entries).to_have_count(step)
    sim.button("Copy link").click()
    expect(sim.part("link-status")).to_contain_text("address bar")
    link = page.url
    assert "sim-lease-too-short.scenario" not in link     # the chapter sets it: a link writes what differs
    seen = {"time": sim.time(), "outcome": sim.outcome(),
            "log": sim.part("log").locator("li").all_inner_texts()}

    other = page.context.new_page()
    other.goto(link)
    again = Sim(other, id="sim-lease-too-short")
    again.wait("ready")          # the link's #sim-lease-too-short scrolled to it: it started by itself
    expect(again.part("message")).to_contain_text("This is the run the link recorded")
    assert {"time": again.time(), "outcome": again.outcome(),
            "log": again.part("log").locator("li").all_inner_texts()} == seen


def test_a_link_copied_before_the_embeds_had_names_still_replays(fresh_page, real_site):
    """Chapter 5's first embed was `sim-1` until it declared `id=kill-a-worker`: a link
    a reader copied then, with `sim-1.` keys and `#sim-1`, is rewritten and replays the same run."""
    page = fresh_page
    old = "05-leases.html?sim-1.workers=2&sim-1.jobs=4&sim-1.do=0.5:kill:2&sim-1.t=3#sim-1"
    page.goto(real_site.at(old))
    expect(page).to_have_url(re.compile(
        r"\?sim-kill-a-worker\.workers=2&sim-kill-a-worker\.jobs=4&sim-kill-a-worker\.do=0\.5%3Akill%3A2"
        r"&sim-kill-a-worker\.t=3#sim-kill-a-worker$"))
    sim = Sim(page, id="sim-kill-a-worker")
    sim.wait("ready")            # the rewritten #fragment scrolled to it: it started by itself
    expect(sim.part("message")).to_contain_text("This is the run the link recorded")
    expect(sim.field("Workers")).to_have_value("2")
    expect(sim.part("time")).to_have_text("3 s")
    expect(sim.part("log")).to_contain_text("was killed")
