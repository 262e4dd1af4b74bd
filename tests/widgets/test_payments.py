"""payments in chapter 6, through its controls: with no key Alice is overcharged, with a stable
key she pays exactly, with a new key each attempt she is overcharged again (the same network
luck each time: same seed)."""

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "08-retry.html"   # payments: 5 charges, 30% requests and 30% replies lost, no key, seed 0


@pytest.fixture(scope="module")
def sim(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return Sim(module_page, "payments")


def figure(sim, key):
    """A figure of the view (simulations/payments/view.py) as drawn: its value's element."""
    return sim.root.locator(f'[data-fig="{key}"]')


def money(sim, key):
    return int(figure(sim, key).inner_text().lstrip("$"))


def test_the_ledger_starts_full(sim):
    expect(figure(sim, "expected")).to_have_text("$100")
    expect(figure(sim, "actual")).to_have_text("$100")
    expect(sim.part("verdict")).to_have_text("Nothing charged yet.")


def test_no_key_overcharges_alice(sim):
    sim.start()
    sim.run_to_the_end()
    verdict = sim.part("verdict")
    expect(verdict).to_have_text("Overcharged.")   # the figures are said once, in the outcome below
    expect(sim.part("ledger")).to_have_attribute("data-verdict", "over")
    assert verdict.evaluate("node => getComputedStyle(node).color") == figure(sim, "actual").evaluate(
        "node => getComputedStyle(node).color")                      # the overcharge in red, beside the balance
    expect(sim.part("outcome")).to_contain_text("Alice was charged $")
    assert money(sim, "actual") < money(sim, "expected")
    lost_replies = int(sim.root.locator('[data-fig="lost_replies"]').inner_text())
    assert money(sim, "expected") - money(sim, "actual") == 10 * lost_replies
    assert sim.root.locator('tbody[data-part="jobs"] td.sim-bad').count() >= 1   # an order charged twice


def test_a_stable_key_charges_exactly(sim):
    sim.root.get_by_label("Idempotency key", exact=True).select_option("stable")
    sim.run_to_the_end()
    expect(sim.part("verdict")).to_have_text("No overcharge.")
    expect(sim.part("ledger")).to_have_attribute("data-verdict", "exact")
    assert money(sim, "actual") == money(sim, "expected") == 50
    assert int(sim.root.locator('[data-fig="duplicates_absorbed"]').inner_text()) >= 1
    expect(sim.part("outcome")).to_contain_text("Alice paid exactly what she owes: $50")


def test_a_new_key_each_attempt_overcharges_again(sim):
    sim.root.get_by_label("Idempotency key", exact=True).select_option("per-attempt")
    sim.run_to_the_end()
    expect(sim.part("ledger")).to_have_attribute("data-verdict", "over")
    assert money(sim, "actual") < money(sim, "expected")
    assert sim.root.locator('[data-fig="duplicates_absorbed"]').inner_text() == "0"


def test_a_bad_chance_is_refused_next_to_its_field(sim):
    field = sim.field("Chance a reply is lost")
    field.fill("1.5")
    field.press("Enter")
    expect(sim.root.locator('[data-field="lose_reply"] [data-part="error"]')).to_have_text(
        "Chance a reply is lost: must be from 0 to 1, got 1.5")
    field.fill("0")
    field.press("Enter")
    sim.run_to_the_end()
    expect(sim.part("ledger")).to_have_attribute("data-verdict", "exact")   # no lost reply, no duplicate
