"""The casebook's first six cases through the widgets' own controls, in real Chromium:
each failure embed played as the chapter sets it, then the fix made with the one field the case
changes (the lease, the policy, the key, the claim), and the chapter's bold number read off the
page. content/19-casebook.md says "The number: ..., X against Y" for each; tests/casebook checks
the same numbers in CPython. One page (one Pyodide start) for the module."""
import re

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim
from tests.widgets.test_live_queue_casebook import figure, play_to, play_to_the_end

CHAPTER = "19-casebook.html"


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return module_page


def new_lease(sim, value):
    """Reset to the embed's start (0 s, as the chapter sets it), then type the fix's lease: a
    lease may change while a run plays, and set at 0 s it holds from the first claim on."""
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 s", timeout=LONG)
    field = sim.field("Lease (s)")
    field.fill(value)
    field.press("Enter")
    expect(sim.part("log")).to_contain_text(f"Lease (s) is now {value}", timeout=LONG)
    expect(sim.part("time")).to_have_text("0 s")


def test_oban_two_jobs_stay_running_at_60_seconds_and_none_with_a_short_lease(page):
    sim = Sim(page, id="sim-oban-no-lease").start()
    play_to(sim, 60)
    expect(figure(sim, "running")).to_have_text("2")
    expect(figure(sim, "done")).to_have_text("4")
    new_lease(sim, "10")
    play_to_the_end(sim, "6 of 6 jobs done, 6 emails sent.")   # at 14.2 s, and so it stays
    expect(figure(sim, "running")).to_have_text("0")
    expect(figure(sim, "done")).to_have_text("6")


def test_pretix_four_emails_by_70_seconds_and_one_with_a_lease_longer_than_the_work(page):
    sim = Sim(page, id="sim-pretix-short-lease").start()
    play_to(sim, 70)
    expect(figure(sim, "emails_sent")).to_have_text("4")
    expect(figure(sim, "done")).to_have_text("0")
    new_lease(sim, "60")
    play_to_the_end(sim, "1 of 1 job done, 1 email sent.")     # at 36.1 s, and so it stays
    expect(figure(sim, "emails_sent")).to_have_text("1")
    expect(figure(sim, "done")).to_have_text("1")


def test_sidekiq_pop_loses_the_email_and_the_ack_after_the_work_sends_it(page):
    sim = Sim(page, id="sim-popped-ack-first").start()
    sim.run_to_the_end("Lost", "Lost: 0 emails sent, yet the queue says the job is done.", whole=False)
    sim.field("Policy").select_option("ack-after-work")
    expect(sim.part("log")).to_contain_text("Started again: Policy is now Ack after the work", timeout=LONG)
    sim.root.get_by_label("A dies after the claim, before the email").check()   # answers at once
    expect(sim.part("outcome")).to_have_text("Exactly once: 1 email sent.", timeout=LONG)


def test_hypothesis_digest_sent_twice_and_once_with_the_providers_key(page):
    sim = Sim(page, id="sim-digests-no-key").start()
    sim.run_to_the_end("Duplicated", "Duplicated: 2 emails sent.", whole=False)
    sim.field("Policy").select_option("idempotency-key")
    expect(sim.part("log")).to_contain_text("Started again: Policy is now", timeout=LONG)
    sim.run_to_the_end("Exactly once", "Exactly once: 1 email sent; 1 repeat absorbed by the idempotency key.",
                       whole=False)


def test_adyen_a_key_per_attempt_overcharges_30_dollars_and_one_key_per_order_none(page):
    sim = Sim(page, id="sim-adyen-key-per-attempt").start()
    sim.run_to_the_end("Overcharged.", "$30 too much (3 duplicate charges)", whole=False)
    sim.field("Idempotency key").select_option(label="Stable: one key per order")
    sim.run_to_the_end("No overcharge.", "the bank's key table absorbed 3 repeats", whole=False)


def test_djjob_three_emails_for_two_jobs_and_two_with_the_atomic_claim(page):
    sim = Sim(page, id="sim-djjob-naive-claim").start()
    play = sim.root.get_by_role("button", name=re.compile(r"^Play( again)?$"))
    play.click()
    expect(sim.part("outcome")).to_contain_text("alan@example.com got 2 emails", timeout=LONG)
    sim.field("Claim").select_option("atomic")
    expect(sim.part("log")).to_contain_text("Started again", timeout=LONG)
    play.click()
    expect(sim.part("outcome")).to_contain_text("2 emails sent: every address got exactly one.", timeout=LONG)
