"""A finished run's link reopens it finished, in real Chromium: the casebook's akash case ends
with a charge attempt at 4.8165 s, which a link rounded to the millisecond (4.816 s) reopened one
attempt short and unfinished. A link writes only the settings that differ from the embed's. tests/core/test_links_exact.py checks every simulation in Python."""
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim


def test_a_finished_payments_run_reopens_from_its_link_finished(fresh_page, real_site):
    page = fresh_page
    page.goto(real_site.at("19-casebook.html"))
    sim = Sim(page, id="sim-akash-no-key").start()
    sim.run_to_the_end()
    sim.button("Copy link").click()
    expect(sim.part("link-status")).to_contain_text("address bar")
    link = page.url
    seen = {"time": sim.time(), "outcome": sim.outcome(), "log": sim.part("log").locator("li").all_inner_texts()}

    other = page.context.new_page()
    other.goto(link)
    again = Sim(other, id="sim-akash-no-key")
    again.wait("ready")          # the link's #fragment scrolled to it: it started by itself
    expect(again.part("message")).to_contain_text("This is the run the link recorded", timeout=LONG)
    expect(again.button("Play again")).to_be_visible()   # finished, as the run it was copied from
    assert {"time": again.time(), "outcome": again.outcome(),
            "log": again.part("log").locator("li").all_inner_texts()} == seen
    assert "sim-akash-no-key.t=4.816461342388714" in link   # the time exact, as JavaScript writes it
    # Only what differs from the embed's own settings: nothing here, so the time alone (it wrote
    # all of the simulation's settings, defaults too).
    assert link.count("sim-akash-no-key.") == 1, link
