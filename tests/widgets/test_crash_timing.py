"""crash-timing in chapter 5, through its controls: a crash after the email and before the ack
gives two emails; with ack before work, a crash after the ack loses the email; a worker killed
by the reader; the lease-too-short scene drawn as two workers' timelines against the lease."""
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
    play_to_the_end(sim)
    expect(sim.part("verdict")).to_have_text("Twice")
    expect(sim.part("effects")).to_have_text("The emails: by A at 1 s; by B at 6.5 s.")
    expect(sim.part("outcome")).to_have_text("Duplicated: 2 emails sent.")
    assert sim.cells(1)[:3] == ["1", "done", "2"]
    timeline = sim.part("timeline").inner_text()
    assert "A dies: the power is cut" in timeline and "B claims the job again (attempt 2" in timeline


def test_ack_before_work_and_a_crash_after_the_ack_loses_it(sim):
    sim.root.get_by_label("Policy", exact=True).select_option("ack-before-work")
    expect(sim.root.locator('[data-part="strip"] li').nth(2)).to_have_text("ack")
    sim.root.get_by_label("A dies after the ack, before the email").check()
    play_to_the_end(sim)
    expect(sim.part("verdict")).to_have_text("Lost")
    expect(sim.part("outcome")).to_have_text("Lost: 0 emails sent, yet the queue says the job is done.")
    expect(sim.part("effects")).to_have_text("")
    assert sim.cells(1)[:3] == ["1", "done", "1"]           # done on the first attempt, and no email


def test_the_reader_can_kill_a_worker_where_it_stands(sim):
    sim.root.get_by_label("Policy", exact=True).select_option("ack-after-work")
    sim.root.get_by_label("A does not die").check()
    expect(sim.button("Kill worker A")).to_be_disabled()     # A has not claimed the job yet
    sim.button("Step").click()                               # A claims
    expect(sim.button("Kill worker A")).to_be_enabled()
    sim.button("Step").click()                               # A sends the email
    sim.button("Kill worker A").click()
    expect(sim.part("timeline")).to_contain_text("A dies: the power is cut")
    expect(sim.button("Kill worker A")).to_be_disabled()
    play_to_the_end(sim)
    expect(sim.part("verdict")).to_have_text("Twice")


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
    expect(slow.part("verdict")).to_have_text("Twice")
    slow.root.get_by_label("Fencing token", exact=True).check()
    play_to_the_end(slow)
    expect(slow.part("verdict")).to_have_text("Twice")       # the token refuses the ack, not the email
    expect(slow.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-refused')).to_have_count(1)
    slow.root.get_by_label("Policy", exact=True).select_option("one-transaction")
    play_to_the_end(slow)
    expect(slow.part("verdict")).to_have_text("Once")
    expect(slow.part("effects")).to_have_text("The points: 10 by B at 4 s.")


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
