"""Two runs side by side (theme/js/sims/compare.js, simulations/engine/compare.py), in real Chromium
with real Pyodide: keep a run, change something (a crash point, the claim, the key), compare, and
the widget shows two pictures side by side at 1280 px (stacked at 390 px), at the same moment, with
what sets them apart and where they part in words; the slider moves both."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim


def pictures(sim):
    """The two pictures' boxes, the kept run's first: their bounding boxes, once both are drawn."""
    expect(sim.root.locator(".sim-pair-run")).to_have_count(2, timeout=LONG)
    return [sim.root.locator(f".sim-pair-run[data-run={run}]").bounding_box() for run in ("kept", "live")]


def side_by_side(sim, picture):
    kept, live = pictures(sim)
    assert sim.root.locator(f".sim-pair-run[data-run=kept] {picture}").count() == 1
    assert sim.root.locator(f".sim-pair-run[data-run=live] {picture}").count() == 1
    assert abs(kept["y"] - live["y"]) < 2 and kept["x"] + kept["width"] <= live["x"] + 1, (kept, live)


def kept_and_compared(sim):
    sim.button("Keep this run to compare").click()
    expect(sim.button("Compare with the kept run")).to_be_enabled(timeout=LONG)


def compare(sim):
    button = sim.button("Compare with the kept run")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true", timeout=LONG)


def test_crash_timing_another_crash_point_beside_the_kept_one(module_page, real_site):
    page = module_page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, id="sim-crash-points").start()
    sim.run_to_the_end(outcome="Exactly once", whole=False)
    kept_and_compared(sim)
    sim.root.get_by_label("A dies after the email, before the ack").check()
    expect(sim.button("Play again")).to_be_visible(timeout=LONG)        # it runs to its end at once
    expect(sim.part("outcome")).to_contain_text("Duplicated", timeout=LONG)
    compare(sim)
    side_by_side(sim, ".ct-lanes")
    words = sim.part("compare-words")
    expect(words).to_contain_text("They part at ", timeout=LONG)
    expect(words).to_contain_text("in the kept run, ")
    expect(sim.root.locator(".sim-pair-run[data-run=kept]")).to_contain_text("Crash point: After the claim")
    expect(sim.root.locator(".sim-pair-run[data-run=kept] .sim-pair-outcome")).to_contain_text("Exactly once")
    expect(sim.root.locator(".sim-pair-run[data-run=live] .sim-pair-outcome")).to_contain_text("Duplicated")
    # one slider for both: back to the start, and the kept run is at its start too
    slider = sim.root.get_by_role("slider", name="Moment in the run", exact=True)
    slider.focus()
    page.keyboard.press("Home")
    expect(sim.root.locator(".sim-pair-run[data-run=kept] .sim-pair-name")).to_have_text("The kept run, at 0 s", timeout=LONG)
    # Reset keeps the comparison (it used to turn itself off)
    sim.button("Reset").click()
    expect(sim.root.locator(".sim-pair-run")).to_have_count(2)
    compare_off = sim.button("Compare with the kept run")
    compare_off.click()
    expect(compare_off).to_have_attribute("aria-pressed", "false", timeout=LONG)
    expect(sim.root.locator(".sim-pair")).to_have_count(0)
    expect(sim.root.locator(".ct-lanes")).to_have_count(1)


def test_race_naive_beside_atomic(module_page, real_site):
    page = module_page
    page.goto(real_site.at("04-the-worker.html"))
    sim = Sim(page, id="sim-race-to-claim").start()
    for _ in range(6):
        sim.button("Step").click()
        expect(sim.root.get_by_role("slider", name="Moment in the run", exact=True)).to_have_value(str(_ + 1), timeout=LONG)
    kept_and_compared(sim)
    sim.field("Claim").select_option("atomic")
    expect(sim.part("time")).to_have_text("0 statements", timeout=LONG)
    compare(sim)
    side_by_side(sim, ".race-picture")
    expect(sim.part("compare-words")).to_contain_text("They part at ", timeout=LONG)
    expect(sim.root.locator(".sim-pair-run[data-run=kept] .sim-pair-about")).to_have_text("Claim: Naive: look, then grab")
    expect(sim.root.locator(".sim-pair-run[data-run=live] .sim-pair-about")).to_have_text("Claim: Atomic: one statement")
    # the atomic run was brought to the kept run's moment: both pictures at 6 statements
    expect(sim.root.locator(".sim-pair-run[data-run=kept] .sim-pair-name")).to_contain_text("6 statements")
    expect(sim.part("time")).to_have_text("6 statements")


@pytest.mark.parametrize("width", [1280, 390])
def test_payments_no_key_beside_a_stable_key(module_page, real_site, width):
    page = module_page
    page.set_viewport_size({"width": width, "height": 800 if width > 400 else 844})
    page.goto(real_site.at("08-retry.html"))
    sim = Sim(page, id="sim-flaky-bank-no-key").start()
    sim.run_to_the_end()
    kept_and_compared(sim)
    sim.field("Idempotency key").select_option("stable")
    expect(sim.part("time")).to_have_text("0 s", timeout=LONG)
    compare(sim)
    if width > 400:
        side_by_side(sim, ".pay-picture")
    else:                                   # a phone: one above the other
        kept, live = pictures(sim)
        assert kept["y"] + kept["height"] <= live["y"] + 1 and abs(kept["x"] - live["x"]) < 2
    expect(sim.part("compare-words")).to_contain_text("the bank had seen the key", timeout=LONG)
    expect(sim.root.locator(".sim-pair-run[data-run=kept] .sim-pair-about")).to_have_text("Idempotency key: No key")
    expect(sim.root.locator(".sim-pair-run[data-run=kept] .sim-pair-outcome")).to_contain_text("too much")
