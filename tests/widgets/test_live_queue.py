"""live-queue in chapter 5, through its buttons: kill a worker holding a job, and after the lease
the job is claimed again and done on attempt 2; add workers and work; a bad lease typed in gets
the simulation's own message next to the field. One page (one Pyodide start) for the module;
the tests run in order on it."""
import re

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "05-leases.html"   # live-queue: 3 workers, 6 jobs, lease 5 s, jobs of 2 s


@pytest.fixture(scope="module")
def sim(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return Sim(module_page, "live-queue")


def worker(sim, number):
    return sim.root.locator(f'.lq-worker[data-worker="{number}"]')


def status(sim, job_id):
    return sim.row(job_id).locator("td").nth(0)


def test_the_starting_state_is_there_before_python(sim):
    assert sim.state() == "idle"
    expect(sim.button("Start the simulation")).to_be_visible()
    expect(sim.root.locator('tbody[data-part="jobs"] tr')).to_have_count(6)
    expect(status(sim, 6)).to_have_text("queued")
    expect(sim.part("outcome")).to_have_text("0 of 6 jobs done, 0 emails sent.")
    # Kill is drawn on the picture, with Python: the cards below have no button of that name.
    expect(sim.button("Kill worker 3")).to_have_count(0)


def test_a_killed_workers_job_is_claimed_again_after_the_lease_and_done_on_attempt_2(sim):
    sim.start()
    for tick in (1, 2, 3):                                   # 0.3 s: worker 1 holds job 1 (steps, not a race with Play)
        sim.button("Step").click()
        expect(sim.part("time")).to_have_text(f"0.{tick} s")
    expect(worker(sim, 1)).to_have_attribute("data-state", "working")
    sim.button("Kill worker 1").click()
    expect(worker(sim, 1)).to_have_attribute("data-state", "killed")
    expect(sim.button("Restart worker 1")).to_be_visible()
    expect(status(sim, 1)).to_have_text("running")          # nobody works on it, yet it stays running
    assert sim.cells(1)[2] == "1"                           # attempts
    expect(worker(sim, 1).locator(".lq-lease-text")).to_contain_text("Job 1's lease")
    sim.set_speed("10")
    sim.button("Play").click()
    expect(status(sim, 1)).to_have_text("done", timeout=60_000)
    expect(sim.button("Play")).to_be_visible()              # job 1 was the last: Play stops by itself
    cells = sim.cells(1)
    assert cells[:3] == ["1", "done", "2"]                 # done on attempt 2
    log = sim.log()
    assert "worker 1 was killed holding job 1" in log
    assert re.search(r"job 1's lease ran out \(worker 1, which held it, is dead\)", log)
    assert re.search(r"worker [23] claimed job 1 again \(attempt 2, token \d+\)", log)
    assert sim.time() >= 5.0                                # not before the lease ran out


def test_add_worker_enqueue_and_burst(sim):
    sim.button("Add worker").click()
    expect(worker(sim, 4)).to_be_visible()
    expect(sim.button("Kill worker 4")).to_be_enabled()
    sim.button("Enqueue job").click()
    expect(sim.row(7)).to_be_visible()
    expect(status(sim, 7)).to_have_text("queued")
    sim.button("Burst of 100 jobs").click()
    expect(sim.part("jobs-note")).to_have_text("(running, then queued: 1–50 of 107 jobs)")
    expect(sim.root.locator('[data-fig="depth"]')).to_have_text("101 jobs waiting")
    assert "jobs 8–107 enqueued" in sim.log()
    # A page of 50 rows at a time, and every job can be found (by number, or by status).
    sim.root.get_by_label("Show").select_option(label="Every job, by number")
    later = sim.button("Later jobs")
    later.click()
    expect(sim.part("jobs-note")).to_have_text("(every job, by number: 51–100 of 107 jobs)")
    later.click()
    expect(sim.row(107)).to_be_visible()
    expect(later).to_be_disabled()
    expect(sim.button("Earlier jobs")).to_be_focused()        # the focus stays among the pages
    sim.root.get_by_label("Show").select_option(label="Queued")
    expect(sim.part("jobs-note")).to_have_text("(queued: 1–50 of 101 jobs)")
    expect(sim.root.locator('tbody[data-part="jobs"] tr')).to_have_count(50)
    sim.root.get_by_label("Show").select_option(label="Running, then queued")
    points = sim.part("depth-line").get_attribute("points")
    sim.button("Step").click()
    expect(sim.part("depth-line")).not_to_have_attribute("points", points)   # the chart moved on


def test_a_bad_lease_gets_the_simulations_message_next_to_the_field(sim):
    lease = sim.field("Lease (s)")
    before = sim.time()
    lease.fill("-1")
    lease.press("Enter")
    error = sim.root.locator('[data-field="lease"] [data-part="error"]')
    expect(error).to_have_text("Lease (s): must be from 0.5 to 86400, got -1")
    expect(lease).to_have_attribute("aria-invalid", "true")
    assert sim.state() == "ready" and sim.time() == before   # nothing restarted, nothing lost
    lease.fill("2")
    lease.press("Tab")
    expect(error).to_have_text("")
    expect(lease).not_to_have_attribute("aria-invalid", "true")
    expect(sim.part("log")).to_contain_text("Lease (s) is now 2")   # "2.0" before simulations/ wrote numbers as typed


def test_a_setting_that_needs_a_fresh_run_starts_one(sim):
    sim.root.get_by_text("More settings").click()
    workers = sim.field("Workers")
    workers.fill("5")
    workers.press("Enter")
    expect(worker(sim, 5)).to_be_visible()
    expect(sim.root.locator(".lq-worker")).to_have_count(5)
    expect(sim.part("time")).to_have_text("0 s")
    expect(sim.part("log")).to_contain_text("Started again: Workers is now 5.")
    expect(sim.field("Lease (s)")).to_have_value("2")       # the lease set before carries over
    workers.fill("1.5")
    workers.press("Enter")
    expect(sim.root.locator('[data-field="workers"] [data-part="error"]')).to_have_text(
        "Workers: must be a whole number from 1 to 64, got '1.5'")
    expect(sim.root.locator(".lq-worker")).to_have_count(5)   # the run it had goes on


def test_reset_and_the_chapters_settings(sim):
    sim.button("Use the chapter’s settings").click()
    expect(sim.root.locator(".lq-worker")).to_have_count(3)
    expect(sim.field("Lease (s)")).to_have_value("5")
    expect(sim.root.locator('[data-field="workers"] [data-part="error"]')).to_have_text("")
    sim.button("Step").click()
    expect(sim.part("time")).to_have_text("0.1 s")
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 s")
    expect(sim.part("outcome")).to_have_text("0 of 6 jobs done, 0 emails sent.")


def test_a_stalled_worker_is_slow_not_dead_and_the_token_refuses_its_ack(sim):
    """Chapter 5's slow-but-alive worker, through its own button."""
    expect(sim.part("time")).to_have_text("0 s")             # after Reset, chapter's settings
    sim.part("picture").scroll_into_view_if_needed()         # Stall sits on the picture's worker box
    stall = sim.button("Stall worker 1")
    expect(stall).to_be_disabled()                          # idle: no job to stall in
    sim.button("Step").click()
    expect(worker(sim, 1)).to_have_attribute("data-state", "claimed")
    expect(stall).to_be_enabled()
    seconds = sim.field("Stall for (s)")
    seconds.fill("0")
    stall.click()
    expect(sim.part("message")).to_contain_text("must be from 0.1 to 600, got 0")
    seconds.fill("8")                                       # longer than the 5 s lease
    stall.click()
    expect(sim.part("log")).to_contain_text("worker 1 freezes for 8 s in the middle of job 1")
    sim.set_speed("10")
    sim.button("Play").click()
    expect(sim.root.locator('[data-fig="acks_refused"]')).to_have_text("1", timeout=60_000)
    sim.pause()
    log = sim.log()
    assert "job 1's lease ran out (worker 1 is still working: slow, not dead)" in log
    assert "worker 1's ack of job 1 was refused" in log
    expect(sim.root.locator('[data-fig="duplicate_emails"]')).to_have_text("1")


LINES = "button => { const range = document.createRange(); range.selectNodeContents(button); " \
        "return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size; }"


def test_enter_twice_on_kill_does_not_restart_and_restart_fits_one_line(sim):
    """"Kill worker N" used to become "Restart worker N" in place, so a second
    Enter brought the worker straight back, and the longer label wrapped in a narrow card."""
    sim.start()
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 s")
    sim.button("Step").click()
    expect(worker(sim, 2)).to_have_attribute("data-state", "claimed")
    kill = sim.button("Kill worker 2")
    kill.focus()
    kill.press("Enter")
    expect(worker(sim, 2)).to_have_attribute("data-state", "killed")
    kill.press("Enter")                                      # the same key again, on what has the focus
    expect(sim.part("message")).to_contain_text("worker 2 is already dead")
    expect(worker(sim, 2)).to_have_attribute("data-state", "killed")
    assert "restarted" not in sim.log()
    restart = sim.button("Restart worker 2")
    expect(restart).to_be_visible()
    assert sim.root.evaluate("root => root.contains(document.activeElement) && "
                             "document.activeElement.getAttribute('aria-label')") == "Kill worker 2"
    sim.page.set_viewport_size({"width": 390, "height": 844})   # the narrowest boxes
    try:
        for button in (restart, sim.button("Kill worker 2")):   # Stall: not for a dead worker
            assert button.evaluate(LINES) == 1, f"{button.inner_text()!r} wraps"
    finally:
        sim.page.set_viewport_size({"width": 1280, "height": 720})
    restart.click()                                          # a click: no focus kept for it
    expect(worker(sim, 2)).not_to_have_attribute("data-state", "killed")
    expect(sim.button("Restart worker 2")).to_be_hidden()


TEXT = "node => node.textContent.trim()"


def test_folded_details_wait_while_it_plays_and_are_drawn_when_unfolded(sim):
    """While the run plays, the workers' cards and the jobs table are not drawn while the
    reader has folded them away; unfolded, they show the run as it stands at once, and the event
    log misses nothing."""
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 s")
    details = sim.part("details")
    details.locator("summary").click()                       # fold the cards and the table
    expect(details).not_to_have_attribute("open", "")
    # At 1x: the run (6 jobs of 2 s on 3 workers) ends at 4 s and then stops by itself, which
    # draws everything; job 1 is done at 2 s, so the check below has 2 s before that.
    sim.set_speed("1")
    sim.button("Play").click()
    expect(sim.root.locator('[data-fig="done"]')).not_to_have_text("0", timeout=60_000)
    assert status(sim, 1).evaluate(TEXT) == "queued"        # as drawn at 0 s: job 1 was claimed since
    details.locator("summary").click()                       # unfold while it plays: drawn now
    expect(status(sim, 1)).not_to_have_text("queued", timeout=30_000)
    sim.pause()
    # Every ack since Reset is in the log once paused (events go in a few times a second while
    # it plays), as many as the figures count done.
    run = sim.log().split("Started again from the beginning.")[-1]
    done = int(sim.root.locator('[data-fig="done"]').inner_text())
    assert done and run.count(": done") == done, run
