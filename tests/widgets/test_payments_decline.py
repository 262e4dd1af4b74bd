"""The akash case of the casebook (content/19-casebook.md), through the payments widget's own
controls in real Chromium: no key charges one order three times; a key replaced only after a
decline charges each order once and pays every order; a key kept after a decline leaves orders
unpaid; a bad decline chance is refused next to its field."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim

CHAPTER = "19-casebook.html"


@pytest.fixture(scope="module")
def sim(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return Sim(module_page, id="sim-akash-no-key").start()


def charged_per_order(sim):
    return [int(text) for text in sim.root.locator('tbody[data-part="jobs"] tr td:nth-of-type(4)').all_inner_texts()]


def test_with_no_key_one_order_is_charged_three_times(sim):
    sim.run_to_the_end()
    expect(sim.part("verdict")).to_have_text("Overcharged.")
    assert max(charged_per_order(sim)) == 3                       # the chapter's number
    assert sim.root.locator('[data-fig="declines"]').inner_text() == "2"
    expect(sim.root.locator('[data-part="charges"] .pay-charge[data-order="1"] .pay-try[data-code="duplicate"]')).to_have_count(2)


def test_a_key_renewed_after_a_decline_charges_each_order_once(sim):
    sim.field("Idempotency key").select_option(label="Stable, new after a decline")
    sim.run_to_the_end()
    expect(sim.part("verdict")).to_have_text("No overcharge.", timeout=LONG)
    assert charged_per_order(sim) == [1, 1, 1, 1, 1]
    assert sim.root.locator('[data-fig="declines_replayed"]').inner_text() == "0"
    expect(sim.root.locator('[data-part="taken"] .pay-coin')).to_have_count(5)
    expect(sim.root.locator('[data-part="taken"] .pay-coin.pay-dup')).to_have_count(0)


def test_a_key_kept_after_a_decline_leaves_two_orders_unpaid(sim):
    sim.field("Idempotency key").select_option(label="Stable: one key per order")
    sim.run_to_the_end()
    expect(sim.root.locator('[data-fig="declines_replayed"]')).to_have_text("5", timeout=LONG)
    expect(sim.part("outcome")).to_contain_text("2 dead jobs never charged her")
    expect(sim.root.locator('[data-part="charges"] .pay-charge[data-status="dead"]')).to_have_count(2)
    expect(sim.root.locator('.pay-charge[data-order="2"] .pay-try[data-code="redeclined"]').first).to_be_visible()


def test_a_bad_decline_chance_is_refused_next_to_its_field(sim):
    field = sim.field("Chance a card is declined")
    field.fill("1.5")
    field.press("Enter")
    expect(sim.root.locator('[data-field="decline"] [data-part="error"]')).to_have_text(
        "Chance a card is declined: must be from 0 to 1, got 1.5", timeout=LONG)
    field.fill("0.2")
    field.press("Enter")
    expect(sim.root.locator('[data-field="decline"] [data-part="error"]')).to_have_text("", timeout=LONG)
