"""The race on a phone, in real Chromium at 390 px: after the duplicate, row 1's two envelopes stay
inside the red row's border (they stacked and spilled over it)."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim, new_watched_page


def test_the_duplicates_envelopes_stay_inside_their_row_on_a_phone(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": 390, "height": 844})
    try:
        page.goto(real_site.at("04-the-worker.html"))
        sim = Sim(page, "race").start()
        for name in "ABABAB":                          # both look, both grab, both send
            sim.button(f"Step worker {name}").click()
        row = sim.root.locator('.race-row[data-key="1"]')
        expect(row).to_have_attribute("data-flag", "taken-twice")
        envelopes = row.locator(".race-email")
        expect(envelopes).to_have_count(2)
        box = row.bounding_box()
        for envelope in envelopes.all():
            inner = envelope.bounding_box()
            assert box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"], (inner, box)
            assert box["y"] <= inner["y"] and inner["y"] + inner["height"] <= box["y"] + box["height"], (inner, box)
    finally:
        context.close()
