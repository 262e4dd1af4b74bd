"""The casebook's free-play embed (`level: free`) in real Chromium and Pyodide: every control of
the live queue at once, from every level (heartbeats, deploys, poison, retries, your library), and
every worker's buttons, Stall and Drop lock included; two controls from different levels combined
through their own fields change the run as they would alone. The Python: tests/core/
test_live_queue_free_play.py."""
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim

LABELS = ("Heartbeat every (s)", "Reaper's grace (s)", "Deploy at (s)", "Shutdown grace (s)",
          "Poison job", "Delivery cap (attempts)", "Service capacity (calls/s)", "Jitter",
          "Your library", "What would change if…", "Ack", "Scheduled for (s)",
          "A worker whose claim is lost", "Queue capacity (jobs)", "Crash chance per job",
          "Restart dead workers")


def test_free_play_shows_every_control_and_combines_two_levels(fresh_page, real_site):
    fresh_page.goto(real_site.at("19-casebook.html"))
    sim = Sim(fresh_page, id="sim-free-play").start()
    sim.root.locator("details.sim-more summary").first.click()
    for label in LABELS:
        expect(sim.field(label)).to_be_visible()
    for _ in range(3):                                  # 0.3 s: every worker holds a job
        sim.button("Step").click()
    for name in ("Kill worker 1", "Stall worker 1", "Drop worker 1's lock"):
        expect(sim.button(name)).to_be_visible()
    # a poison job (the poison level) under Sidekiq's basic fetch (the library level)
    sim.field("Poison job").select_option("kills")
    expect(sim.part("log")).to_contain_text("Started again: Poison job is now", timeout=LONG)
    sim.field("Your library").select_option("sidekiq-basic")
    expect(sim.part("log")).to_contain_text("Started again: Your library is now Sidekiq, basic fetch",
                                            timeout=LONG)
    sim.set_speed("50")
    sim.button("Play").click()
    # acked as it started, so the job that kills its worker is lost with it, not retried
    expect(sim.part("outcome")).to_contain_text("1 job lost (acked early, its worker died)", timeout=LONG)
    sim.pause()
