"""The casebook's Akeneo case (content/19-casebook.md, "Ten daemons at once: Akeneo") replayed
through the race widget's own controls in real Chromium: ten workers on five jobs send 13 emails
with the look-then-grab claim, four job rows end red; the atomic claim sends 5 and no row is
flagged, as the chapter says. (Its "Workers set to 2 sends eight" is checked in Python, in
tests/casebook/test_replays.py.)"""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "19-casebook.html"
PLAYED = 120_000   # ms: 62 statements at 5x on a loaded 2-core machine, with room to spare


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return module_page


def play_to_the_end(sim):
    sim.set_speed("5")
    sim.button("Play").click()
    expect(sim.button("Play again")).to_be_visible(timeout=PLAYED)   # it stops by itself at the end


def test_ten_workers_with_the_naive_claim_send_13_emails_for_5_jobs(page):
    sim = Sim(page, id="sim-akeneo-ten-naive").start()
    expect(sim.root.locator(".race-worker")).to_have_count(10)
    expect(sim.button("Step worker J")).to_be_enabled()
    play_to_the_end(sim)
    expect(sim.part("outbox").locator("li")).to_have_count(13)
    expect(sim.root.locator('.race-row[data-flag="taken-twice"]')).to_have_count(4)
    expect(sim.part("outcome")).to_contain_text("alan@example.com got 4 emails")
    expect(sim.part("time")).to_have_text("62 statements")


def test_the_same_ten_workers_with_the_atomic_claim_send_5(page):
    sim = Sim(page, id="sim-akeneo-ten-naive").start()          # the pair's fix: the atomic claim
    sim.field("Claim").select_option("atomic")
    expect(sim.part("log")).to_contain_text("Started again: Claim is now Atomic", timeout=PLAYED)
    expect(sim.field("Workers")).to_have_value("10")
    play_to_the_end(sim)
    expect(sim.part("outbox").locator("li")).to_have_count(5)
    expect(sim.root.locator(".race-row[data-flag]")).to_have_count(0)
    expect(sim.part("outcome")).to_have_text("5 emails sent: every address got exactly one.")
