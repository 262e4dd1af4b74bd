"""crash-timing in chapter 5, through its controls: a crash after the email and before the ack
gives two emails (ack before the work, and the one-transaction policy under a lease too short,
are chapter 8's embed's: test_crash_timing_level.py); a worker killed
by the reader (the crash points then show where it died); "Run to the end"; each moment told
once in text; the lease-too-short scene drawn as two workers' timelines against the lease."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "05-leases.html"   # sim-crash-points: ack-after-work, crash after-claim; sim-lease-too-short: lease-too-short, no fencing


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return module_page


@pytest.fixture(scope="module")
def sim(page):
    return Sim(page, id="sim-crash-points")


def play_to_the_end(sim):
    sim.set_speed("5")
    sim.button("Play").click()
    expect(sim.button("Play again")).to_be_visible(timeout=30_000)


def test_the_crash_points_are_the_policys_own(sim):
    assert sim.state() == "idle"
    points = sim.root.locator('[data-part="strip"] li')
    expect(points).to_have_text(["claim the job", "A dies after the claim, before the email", "send the email",
                                 "A dies after the email, before the ack", "ack", "A dies after the ack"])
    expect(sim.root.get_by_label("A dies after the claim, before the email")).to_be_checked()   # the chapter's choice


def test_a_crash_after_the_email_and_before_the_ack_sends_it_twice(sim):
    sim.start()
    sim.root.get_by_label("A dies after the email, before the ack").check()
    expect(sim.part("log")).to_contain_text("Started again: A dies after the email, before the ack.")
    # the choice answers at once: the run goes to its end, no Play needed
    expect(sim.part("verdict")).to_have_text("Duplicated", timeout=30_000)   # the outcome's own words
    expect(sim.part("effects")).to_have_text("The emails: by A at 1 s; by B at 6.5 s (2nd email: duplicate).")
    expect(sim.part("outcome")).to_have_text("Duplicated: 2 emails sent.")
    assert sim.cells(1)[:3] == ["1", "done", "2"]
    timeline = sim.log()
    assert "A dies: the power is cut" in timeline and "B claims the job again (attempt 2" in timeline


def test_the_reader_can_kill_a_worker_where_it_stands(sim):
    sim.root.get_by_label("Policy", exact=True).select_option("ack-after-work")
    sim.root.get_by_label("A does not die").check()
    expect(sim.part("verdict")).to_have_text("Exactly once", timeout=30_000)   # answered at once
    sim.button("Reset").click()                              # back to the start, to step through it
    expect(sim.part("verdict")).to_have_text("not yet known")
    expect(sim.button("Kill worker A")).to_be_disabled()     # A has not claimed the job yet
    sim.button("Step").click()                               # A claims
    expect(sim.button("Kill worker A")).to_be_enabled()
    sim.button("Step").click()                               # A sends the email
    sim.button("Kill worker A").click()
    expect(sim.part("log")).to_contain_text("A dies: the power is cut")
    expect(sim.button("Kill worker A")).to_be_disabled()
    # The crash points say where A died, never "A does not die" beside it
    expect(sim.root.get_by_label("A dies after the email, before the ack")).to_be_checked()
    expect(sim.root.get_by_label("A does not die")).not_to_be_checked()
    expect(sim.part("kill-note")).to_have_text("You killed A by hand at 1 s, after the email, before the ack.")
    play_to_the_end(sim)
    expect(sim.part("verdict")).to_have_text("Duplicated")
    expect(sim.root.get_by_label("A dies after the email, before the ack")).to_be_checked()
    sim.button("Play again").click()                         # a new run: the chosen point again
    expect(sim.root.get_by_label("A does not die")).to_be_checked()
    expect(sim.part("kill-note")).to_be_hidden()


def test_run_to_the_end_gives_what_play_gives_at_once(sim):
    # No 7 s replay per crash point
    sim.start()
    sim.root.get_by_label("Policy", exact=True).select_option("ack-after-work")
    sim.root.get_by_label("A dies after the email, before the ack").check()
    expect(sim.part("verdict")).to_have_text("Duplicated", timeout=30_000)
    sim.button("Reset").click()
    expect(sim.part("verdict")).to_have_text("not yet known")
    sim.button("Run to the end").click()
    expect(sim.part("verdict")).to_have_text("Duplicated", timeout=30_000)
    expect(sim.part("outcome")).to_have_text("Duplicated: 2 emails sent.")   # what Play reaches (above)
    expect(sim.part("effects")).to_have_text("The emails: by A at 1 s; by B at 6.5 s (2nd email: duplicate).")
    sim.root.get_by_label("A dies after the claim, before the email").check()
    expect(sim.part("outcome")).to_have_text("Exactly once: 1 email sent.", timeout=30_000)


def test_each_moment_is_told_once_in_words(sim):
    # No second list repeating the event log line for line
    sim.start()
    sim.root.get_by_label("A dies after the email, before the ack").check()   # a new run, to its end
    expect(sim.part("verdict")).to_have_text("Duplicated", timeout=30_000)
    expect(sim.part("log")).to_contain_text("B claims the job again")
    in_log = sim.part("log").locator("li").filter(has_text="B claims the job again").count()
    told = sim.root.locator("li:not([aria-hidden=true] li)").filter(has_text="B claims the job again")
    expect(told).to_have_count(in_log)                 # the log is the one list of the moments


def test_help_texts_use_the_words_the_reader_sees(sim):
    # "lease-too-short:" and "crash scenario" are the simulation's own names
    helps = sim.root.locator(".sim-help").all_inner_texts()
    values = sim.root.locator('[data-field] option, [data-field] input[type="radio"]').evaluate_all(
        "(inputs) => inputs.map((input) => input.value)")
    for value in values:
        for help_text in helps:
            assert f"{value}:" not in help_text and f" {value} " not in help_text, (value, help_text)


def test_lease_too_short_is_drawn_as_two_timelines_against_the_lease(page):
    slow = Sim(page, id="sim-lease-too-short").start()
    expect(slow.part("slow-note")).to_contain_text("its 2-second lease runs out while it is still working")
    expect(slow.root.locator('[data-field="crash"]')).to_be_hidden()
    play_to_the_end(slow)
    for name in ("A", "B"):
        lane = slow.root.locator(f'.ct-lane[data-lane="{name}"]')
        expect(lane.locator(".ct-lease-bar")).to_have_count(1)
        expect(lane.locator(".ct-mark.ct-claim")).to_have_count(1)
    expect(slow.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-lease')).to_have_text("lease runs out")
    expect(slow.part("verdict")).to_have_text("Duplicated")
    slow.root.get_by_label("Fencing token", exact=True).check()
    play_to_the_end(slow)
    expect(slow.part("verdict")).to_have_text("Duplicated")  # the token refuses the ack, not the email
    expect(slow.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-refused')).to_have_count(1)


def test_killing_both_workers_is_told_as_it_stands_never_as_a_verdict(page):
    # The breaker's steps: the lease-too-short scene, B has just claimed, then both workers die.
    slow = Sim(page, id="sim-lease-too-short")
    slow.button("Use the chapter’s settings").click()
    expect(slow.part("slow-note")).to_be_visible()
    for _ in range(3):
        slow.button("Step").click()
    slow.button("Kill worker A").click()
    slow.button("Kill worker B").click()
    expect(slow.part("slow-note")).to_be_hidden()             # "Nobody dies here" is no longer true
    assert slow.cells(1)[1] == "running"
    expect(slow.part("outcome")).to_contain_text("The job is still running and nobody is left to finish it")
    expect(slow.part("outcome")).not_to_contain_text("the queue says the job is done")
    play_to_the_end(slow)
    expect(slow.part("verdict")).to_have_text("Unfinished")
    assert slow.cells(1)[1] == "running"
