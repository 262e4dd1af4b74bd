"""Teacher trial: a chapter printed after a demo. A crash-timing stepped part of the way
printed "Outcome: not yet known" above the scenario's real ending, and the predict box printed its
radio buttons and "Lock in and run". On paper neither says anything: both are left out."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim


def test_a_chapter_printed_mid_demo_leaves_out_the_unknown_verdict_and_the_guess(module_page, real_site):
    page = module_page
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, id="sim-crash-points")
    sim.start()
    for _ in range(3):
        sim.button("Step").click()
    expect(sim.part("verdict")).to_have_text("not yet known")
    verdict = sim.root.locator(".ct-verdict")
    form = page.locator("#predict-emails-after-a-kill .predict-form")
    expect(verdict).to_be_visible()
    expect(form).to_be_visible()
    page.emulate_media(media="print")
    try:
        expect(verdict).to_be_hidden()
        expect(form).to_be_hidden()
        expect(page.locator('.sim-print:near(#sim-crash-points)').first).to_be_visible()   # the ending prints
    finally:
        page.emulate_media(media="screen")
