"""crash-timing's "A later step fails after the email" in real Chromium and Pyodide:
ticked under "More settings" on a casebook explorer (its level shows every control; chapter 5's
embeds keep it back), it turns a run that sent the email
once into one that sends it twice (A fails the job after the email, B retries it), and the
idempotency key makes it once again."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

LONG = 90_000   # ms: a loaded 2-core machine


def test_a_later_step_that_fails_after_the_email_sends_it_twice_unless_it_has_a_key(fresh_page, real_site):
    fresh_page.goto(real_site.at("19-casebook.html"))
    sim = Sim(fresh_page, id="sim-popped-ack-first").start()   # the pair's fix: ack after the work
    sim.field("Policy").select_option("ack-after-work")
    expect(sim.part("log")).to_contain_text("Started again: Policy is now Ack after the work", timeout=LONG)
    sim.button("Run to the end").click()                      # A dies after the ack, as the incident's
    expect(sim.part("outcome")).to_have_text("Exactly once: 1 email sent.", timeout=LONG)
    sim.root.locator("details.sim-more summary").click()
    sim.field("A later step fails after the email").check()
    expect(sim.part("log")).to_contain_text("Started again: A later step fails after the email is now on",
                                            timeout=LONG)
    sim.button("Run to the end").click()
    expect(sim.part("verdict")).to_have_text("Duplicated", timeout=LONG)
    expect(sim.part("outcome")).to_have_text("Duplicated: 2 emails sent.", timeout=LONG)
    assert "A's next step fails after the email: the job is failed and will be retried" in sim.log()
    sim.field("Policy").select_option("idempotency-key")
    expect(sim.part("log")).to_contain_text("Started again: Policy is now Send with an idempotency key",
                                            timeout=LONG)
    sim.button("Run to the end").click()
    expect(sim.part("verdict")).to_have_text("Exactly once", timeout=LONG)
    expect(sim.part("outcome")).to_have_text(
        "Exactly once: 1 email sent; 1 repeat absorbed by the idempotency key.", timeout=LONG)
