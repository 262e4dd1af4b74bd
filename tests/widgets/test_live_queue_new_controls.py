"""The live queue's and crash timing's newer controls, each through its own field or
button in real Chromium and Pyodide, on the casebook's embeds that show them (`level: library`,
and crash timing's default level): the ack ("early"), a job's schedule ("Scheduled for (s)"), what a
worker does when its claim is lost with the "Drop worker N's lock" button, the queue's capacity,
crash timing's "It fails on every attempt" with its attempts cap, and a library preset with its
what-if. The Python of each: tests/core/test_live_queue_delivery.py, test_live_queue_libraries.py,
test_crash_timing_fail_every_attempt.py; the numbers: tests/casebook/test_replays.py."""
import re
import time

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim

CHAPTER = "19-casebook.html"


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return module_page


def field(sim, label):
    """A field by its label, "More settings" opened first if it is folded there."""
    found = sim.field(label)
    if not found.is_visible():
        sim.root.locator("details.sim-more summary").first.click()
    expect(found).to_be_visible()
    return found


def restarted(sim, words):
    expect(sim.part("log")).to_contain_text(f"Started again: {words}", timeout=LONG)


def step_to(sim, seconds):
    for _ in range(round(seconds * 10)):
        sim.button("Step").click()
    expect(sim.part("time")).to_have_text(re.compile(rf"^{seconds:g}(\.0)? s$"), timeout=LONG)


def play_to(sim, seconds, limit=90.0):
    sim.set_speed("50")
    sim.button("Play").click()
    started = time.monotonic()
    while sim.time() < seconds:
        assert time.monotonic() - started < limit, f"the clock is at {sim.time()} s"
        sim.page.wait_for_timeout(50)
    sim.pause()
    expect(sim.button("Play")).to_be_visible()


def play_to_the_end(sim, outcome):
    """Play at 50x until the outcome says `outcome` (the live queue has no "Run to the end": an
    idle queue still takes new jobs), then pause."""
    sim.set_speed("50")
    sim.button("Play").click()
    expect(sim.part("outcome")).to_have_text(outcome, timeout=LONG)
    sim.pause()


def test_drop_lock_button_and_a_worker_that_carries_on_or_stops(page):
    sim = Sim(page, id="sim-bullmq-stalled-twice").start()
    step_to(sim, 1)
    drop = sim.button("Drop worker 1's lock")
    expect(drop).to_be_visible()
    expect(sim.button("Drop worker 2's lock")).to_be_hidden()   # worker 2 holds no job
    drop.click()
    expect(sim.part("log")).to_contain_text("worker 1's lock on job 1 was dropped", timeout=LONG)
    expect(drop).to_be_hidden()                 # no lock left to drop: the snapshot no longer offers it
    play_to_the_end(sim, "1 of 1 job done, 2 emails sent (1 duplicate).")
    assert "but the worker carries on" in sim.log()             # BullMQ's preset: carry on
    field(sim, "A worker whose claim is lost").select_option("stop")
    restarted(sim, "A worker whose claim is lost is now stops that job")
    step_to(sim, 1)
    sim.button("Drop worker 1's lock").click()
    play_to_the_end(sim, "1 of 1 job done, 1 email sent.")
    assert "so the worker stops that job" in sim.log()


def test_ack_early_loses_the_jobs_of_killed_workers(page):
    sim = Sim(page, id="sim-sidekiq-basic-fetch").start()     # the pair's fix: super_fetch
    field(sim, "What would change if…").check()
    restarted(sim, "What would change if… is now on")           # nothing lost
    play_to_the_end(sim, "6 of 6 jobs done, 6 emails sent.")
    field(sim, "Ack").select_option("early")
    restarted(sim, "Ack is now early: as the work starts")
    play_to_the_end(sim, "4 of 6 jobs done, 4 emails sent; 2 jobs lost (acked early, their "
                               "workers died).")
    sim.button("Use the chapter’s settings").click()          # as the next test finds it
    expect(sim.part("log")).to_contain_text("Started again with the chapter's settings", timeout=LONG)


def test_a_job_scheduled_past_the_lease_runs_once_per_worker(page):
    sim = Sim(page, id="sim-celery-eta-past-lease").start()     # the pair's fix: due in 290 s
    field(sim, "Scheduled for (s)").fill("290")                 # lease 310 s
    sim.field("Scheduled for (s)").press("Enter")
    restarted(sim, "Scheduled for (s) is now 290")
    play_to_the_end(sim, "1 of 1 job done, 1 email sent.")
    field(sim, "Scheduled for (s)").fill("700")                 # past two leases: 3 workers hold it
    sim.field("Scheduled for (s)").press("Enter")
    restarted(sim, "Scheduled for (s) is now 700")
    play_to_the_end(sim, "1 of 1 job done, 3 emails sent (2 duplicates).")


def test_a_full_queue_refuses_new_jobs_and_no_limit_refuses_none(page):
    sim = Sim(page, id="sim-capacity-one-worker").start()       # room for 20
    capacity = field(sim, "Queue capacity (jobs)")
    capacity.fill("10")
    capacity.press("Enter")
    restarted(sim, "Queue capacity (jobs) is now 10")
    play_to(sim, 20)
    expect(sim.part("outcome")).to_contain_text("enqueues refused (the queue was full).")
    expect(sim.part("log")).to_contain_text("the queue is full (10 waiting, its capacity)")
    capacity.fill("0")
    capacity.press("Enter")
    restarted(sim, "Queue capacity (jobs) is now 0")
    play_to(sim, 20)
    expect(sim.part("outcome")).not_to_contain_text("refused")
    assert "the queue is full" not in sim.log()


def test_a_later_step_that_fails_every_attempt_sends_the_email_each_time(page):
    sim = Sim(page, id="sim-ofn-retried-every-time").start()    # the pair's fix: one attempt
    cap = field(sim, "Attempts cap")
    cap.fill("1")
    cap.press("Enter")
    restarted(sim, "Attempts cap is now 1")
    sim.run_to_the_end(verdict="Dead")
    expect(sim.part("outcome")).to_contain_text("Dead: 1 email sent in 1 attempt")
    cap = field(sim, "Attempts cap")
    cap.fill("13")
    cap.press("Enter")
    restarted(sim, "Attempts cap is now 13")
    sim.run_to_the_end(verdict="Dead")
    expect(sim.part("outcome")).to_contain_text("Dead: 13 emails sent in 13 attempts", timeout=LONG)
    field(sim, "It fails on every attempt").uncheck()
    restarted(sim, "It fails on every attempt is now off")
    sim.run_to_the_end(verdict="Duplicated", outcome="Duplicated: 2 emails sent.")


def test_a_library_chosen_in_the_form_takes_its_defaults_and_its_what_if(page):
    sim = Sim(page, id="sim-capacity-one-worker").start()       # no library: ack late
    field(sim, "Your library").select_option("sidekiq-basic")
    restarted(sim, "Your library is now Sidekiq, basic fetch")
    expect(sim.field("Ack")).to_have_value("early")             # the preset's, shown in its field
    step_to(sim, 1)
    sim.button("Kill worker 1").click()
    expect(sim.part("log")).to_contain_text("the job is lost, and nobody will run it again", timeout=LONG)
    sim.field("What would change if…").check()
    restarted(sim, "What would change if… is now on")
    expect(sim.field("Ack")).to_have_value("late")              # super_fetch
    step_to(sim, 1)
    sim.button("Kill worker 1").click()
    expect(sim.part("log")).to_contain_text("worker 1 was killed holding job", timeout=LONG)
    expect(sim.part("outcome")).not_to_contain_text("lost")


def test_the_casebooks_what_if_on_sidekiqs_basic_fetch_loses_nothing(page):
    sim = Sim(page, id="sim-sidekiq-basic-fetch").start()
    play_to_the_end(sim, "4 of 6 jobs done, 4 emails sent; 2 jobs lost (acked early, their workers died).")
    field(sim, "What would change if…").check()           # as the chapter says: super_fetch
    restarted(sim, "What would change if… is now on")
    expect(sim.field("Ack")).to_have_value("late")
    play_to_the_end(sim, "6 of 6 jobs done, 6 emails sent.")
