"""The live queue's "your library" preset and its what-if in real Chromium (Pyodide): chapter 4's
two workers opened from a link that sets `library` (the chapter's level keeps the field back, and
a link's setting still runs), worker 1 killed mid-job by its own Kill button: under Sidekiq's
basic fetch the job is lost; with the what-if (super_fetch) the same kill loses nothing. The form
fields themselves show only in an embed at the `library` level (the casebook's). The Python of
each behaviour: tests/core/test_live_queue_libraries.py."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "04-the-worker.html"
ID = "sim-two-workers-twelve-jobs"


def kill_worker_1_mid_job(page, real_site, settings):
    page.goto(real_site.at(CHAPTER) + f"?{settings}#{ID}")
    sim = Sim(page, id=ID)
    sim.wait("ready")
    for _ in range(4):                       # 0.4 s: worker 1 has claimed job 1 and started it
        sim.button("Step").click()
    expect(sim.part("time")).to_have_text("0.4 s")
    sim.button("Kill worker 1").click()
    return sim


def test_sidekiq_basic_fetch_loses_a_killed_job(fresh_page, real_site):
    sim = kill_worker_1_mid_job(fresh_page, real_site, f"{ID}.library=sidekiq-basic")
    expect(sim.part("log")).to_contain_text("worker 1 acked job 1 as it started")
    expect(sim.part("log")).to_contain_text("the job is lost, and nobody will run it again")
    expect(sim.part("outcome")).to_contain_text("1 job lost (acked early, its worker died)")


def test_with_super_fetch_the_same_kill_loses_nothing(fresh_page, real_site):
    sim = kill_worker_1_mid_job(fresh_page, real_site,
                                f"{ID}.library=sidekiq-basic&{ID}.what_if=true")
    expect(sim.part("log")).to_contain_text("worker 1 was killed holding job 1")
    expect(sim.part("outcome")).not_to_contain_text("lost")
