"""The casebook's crash-timing cases in real Chromium and Pyodide: each failure embed,
run to its end as the chapter sets it, then the fix made through the widget's own controls (a
menu, a checkbox under "More settings", a crash point), giving the number the chapter states."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim

CHAPTER = "19-casebook.html"


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return module_page


def more_settings(sim):
    details = sim.root.locator("details.sim-more")
    if details.get_attribute("open") is None:
        details.locator("summary").click()


def test_kafka_auto_commit_loses_the_email_and_the_ack_after_the_work_sends_it(page):
    sim = Sim(page, id="sim-kafka-auto-commit").start()
    sim.run_to_the_end("Lost", "Lost: 0 emails sent, yet the queue says the job is done.")
    assert "A's auto-commit timer acks: the job is done" in sim.log()
    sim.field("Policy").select_option("ack-after-work")
    expect(sim.part("log")).to_contain_text("Started again: Policy is now Ack after the work", timeout=LONG)
    sim.root.get_by_label("A dies after the claim, before the email").check()   # answers at once
    expect(sim.part("outcome")).to_have_text("Exactly once: 1 email sent.", timeout=LONG)


def test_hypothesis_batch_of_50_sent_twice_and_once_with_a_record_of_each_send(page):
    sim = Sim(page, id="sim-fifty-no-record").start()
    sim.run_to_the_end("Duplicated", "Duplicated: 100 emails sent to 50 of 50 people.")
    more_settings(sim)
    sim.field("Record each send").check()
    expect(sim.part("log")).to_contain_text("Started again: Record each send is now on", timeout=LONG)
    sim.run_to_the_end("Exactly once", "Exactly once: 50 emails sent to 50 of 50 people; 50 sends "
                                    "skipped by the records of earlier sends.")


def test_a_bad_batch_is_refused_beside_its_field(page):
    sim = Sim(page, id="sim-fifty-no-record").start()
    more_settings(sim)
    field = sim.field("Emails in the job")
    field.fill("500")
    field.press("Enter")
    expect(sim.root.locator('[data-field="batch"] [data-part="error"]')).to_have_text(
        "Emails in the job: must be from 1 to 100, got 500", timeout=LONG)
    expect(field).to_have_attribute("aria-invalid", "true")


def test_queue_classic_early_job_finds_no_row_and_after_the_commit_it_does(page):
    sim = Sim(page, id="sim-qc-enqueue-before-commit").start()
    sim.run_to_the_end("Lost", "Lost: Ada's row is committed; her job is dead; 0 emails sent.")
    assert "B finds no row for Ada" in sim.log()
    more_settings(sim)
    sim.field("Enqueue").select_option("after-commit")
    expect(sim.part("log")).to_contain_text("Started again: Enqueue is now After the commit", timeout=LONG)
    sim.run_to_the_end("Exactly once", "Exactly once: Ada's row is committed; her job is done; 1 email sent.")


def test_brandur_crash_after_the_commit_loses_the_job_and_the_outbox_keeps_it(page):
    sim = Sim(page, id="sim-brandur-enqueue-after-commit").start()
    sim.run_to_the_end("Lost", "Lost: Ada's row is committed; no job was ever enqueued; 0 emails sent.")
    more_settings(sim)
    sim.field("Enqueue").select_option("same-transaction")
    expect(sim.part("log")).to_contain_text("Started again: Enqueue is now In the same transaction (outbox)",
                                            timeout=LONG)
    sim.run_to_the_end("Exactly once", "Exactly once: Ada's row is committed; her job is done; 1 email sent.")
