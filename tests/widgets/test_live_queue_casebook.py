"""The casebook's live-queue cases through the widget's own controls, in real Chromium:
each failure embed played as the chapter has it, then the fix made with the field the case's
level shows (heartbeat, hand back, what the cap counts), and the chapter's number read off the
page. One page (one Pyodide start) for the module; the tests run in order on it."""
import time

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "19-casebook.html"


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return module_page


def play_to(sim, seconds, speed="50", limit=90.0):
    """Play at `speed` until the clock shows `seconds` or more, pause, and move the slider
    "Moment in the run" back to exactly `seconds` (a step is 0.1 s, and no action was taken)."""
    sim.set_speed(speed)
    sim.button("Play").click()
    started = time.monotonic()
    while sim.time() < seconds:
        assert time.monotonic() - started < limit, f"the clock is at {sim.time()} s"
        sim.page.wait_for_timeout(20)
    sim.pause()
    expect(sim.button("Play")).to_be_visible()
    sim.field("Moment in the run").fill(str(round(seconds * 10)))
    expect(sim.part("time")).to_have_text(f"{seconds:g} s", timeout=30_000)


def play_to_the_end(sim, outcome):
    """Play until the run is over (nothing more happens unless the reader acts: the widget's
    clock stops) and the outcome says `outcome`, then pause."""
    sim.set_speed("50")
    sim.button("Play").click()
    expect(sim.part("outcome")).to_contain_text(outcome, timeout=90_000)
    expect(sim.button("Play")).to_be_visible()      # every job done: Play stops by itself


def figure(sim, name):
    return sim.root.locator(f'[data-fig="{name}"]')


def set_field(sim, label, value):
    """Open "More settings" if need be and type a value; Enter starts a fresh run."""
    field = sim.field(label)
    if not field.is_visible():
        sim.root.get_by_text("More settings").click()
    field.fill(value)
    field.press("Enter")


def test_only_a_cases_own_controls_show(page):
    sim = Sim(page, id="sim-pretix-no-heartbeat")
    sim.root.locator('details[data-fold="settings"] > summary').click()   # folded under the picture
    sim.root.get_by_text("More settings").click()
    expect(sim.field("Heartbeat every (s)")).to_be_visible()
    expect(sim.field("Reaper's grace (s)")).to_be_visible()
    # Another level's controls are kept back: in the page, hidden (neither reached nor heard),
    # as every simulation's level keeps a field back (fields.js, showFields).
    expect(sim.field("Deploy at (s)")).to_be_hidden()
    expect(sim.field("Poison job")).to_be_hidden()
    older = Sim(page, id="sim-pretix-short-lease")                    # the case's first pair: none
    expect(older.root.get_by_label("Heartbeat every (s)", exact=True)).to_be_hidden()


def test_pretix_four_emails_without_heartbeats_and_one_with_them(page):
    sim = Sim(page, id="sim-pretix-no-heartbeat").start()
    play_to(sim, 70)
    expect(figure(sim, "emails_sent")).to_have_text("4")
    expect(figure(sim, "done")).to_have_text("0")
    set_field(sim, "Heartbeat every (s)", "-1")             # refused beside the field
    expect(sim.root.locator('[data-field="heartbeat"] [data-part="error"]')).to_have_text(
        "Heartbeat every (s): must be from 0 to 86400, got -1")
    set_field(sim, "Heartbeat every (s)", "3")
    expect(sim.part("log")).to_contain_text("Started again", timeout=30_000)
    play_to_the_end(sim, "1 of 1 job done, 1 email sent.")   # at 36.1 s, and so it stays
    expect(figure(sim, "emails_sent")).to_have_text("1")
    expect(figure(sim, "done")).to_have_text("1")
    expect(sim.part("log")).to_contain_text("sent a heartbeat for job 1")


def test_oban_deploy_leaves_two_jobs_running_and_handing_back_none(page):
    sim = Sim(page, id="sim-oban-deploy-orphans").start()
    play_to(sim, 70)
    expect(figure(sim, "running")).to_have_text("2")
    expect(figure(sim, "done")).to_have_text("0")
    expect(sim.part("log")).to_contain_text("was killed at the end of its shutdown grace")
    sim.root.get_by_text("More settings").click()
    sim.field("Hand running jobs back").check()
    expect(sim.part("log")).to_contain_text("Started again", timeout=30_000)
    play_to_the_end(sim, "2 of 2 jobs done, 2 emails sent.")   # at 62.1 s
    expect(figure(sim, "running")).to_have_text("0")
    expect(figure(sim, "done")).to_have_text("2")
    expect(sim.part("log")).to_contain_text("handed job 1 back unfinished")


def test_sidekiq_poison_pill_kills_24_workers_until_the_cap_counts_claims(page):
    sim = Sim(page, id="sim-poison-counts-failures").start()
    play_to(sim, 120)
    assert sim.cells(1)[1:3] == ["running", "24"]           # status, attempts: one per dead worker
    expect(figure(sim, "dead")).to_have_text("0")
    sim.root.get_by_text("More settings").click()
    sim.field("The cap counts").select_option(label="all claims, a lease that ran out too")
    expect(sim.part("log")).to_contain_text("Started again", timeout=30_000)
    play_to_the_end(sim, "1 job dead")
    assert sim.cells(1)[1:3] == ["dead", "3"]
    expect(figure(sim, "dead")).to_have_text("1")


def test_enqueue_requeue_as_new_never_dies_and_the_same_message_does(page):
    sim = Sim(page, id="sim-poison-new-message").start()
    play_to(sim, 120)
    expect(figure(sim, "dead")).to_have_text("0")
    expect(sim.part("log")).to_contain_text("requeued as a new message")
    sim.root.get_by_text("More settings").click()
    sim.field("The cap counts").select_option(label="all claims, a lease that ran out too")
    expect(sim.part("log")).to_contain_text("Started again", timeout=30_000)
    play_to_the_end(sim, "1 job dead")
    expect(figure(sim, "dead")).to_have_text("1")
    assert sim.cells(1)[1:3] == ["dead", "5"]


def test_sidekiq_splay_the_herd_ends_at_73_8_seconds_and_with_jitter_at_23_2(page):
    sim = Sim(page, id="sim-splay-no-jitter").start()
    play_to_the_end(sim, "64 of 64 jobs done")
    expect(sim.part("time")).to_have_text("73.8 s")
    expect(sim.part("log")).to_contain_text("retry in 40.00 s (attempt 3)")   # the last round
    sim.root.get_by_text("More settings").click()
    sim.field("Jitter").check()
    expect(sim.part("log")).to_contain_text("Started again", timeout=30_000)
    play_to_the_end(sim, "64 of 64 jobs done")
    expect(sim.part("time")).to_have_text("23.2 s")
