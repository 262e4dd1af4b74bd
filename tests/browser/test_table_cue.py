"""A simulation's table fits at 1280 px where it can, and one that still scrolls sideways says so
(issues 22 and 23: the learner found sim 8.1's "Attempts, in order" column cut off, with no sign
that the box scrolls)."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

IDEMPOTENCY = "10-idempotency.html"
BOX = "#sim-stable-key .sim-table-box"
OVERFLOWS = "(box) => box.scrollWidth > box.clientWidth + 1"


def test_the_payments_table_fits_at_1280_and_says_when_it_scrolls(real_page, real_site):
    page = real_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(real_site.at(IDEMPOTENCY))
    Sim(page, id="sim-stable-key").open_folds()       # its table, as a reader opens it
    box = page.locator(BOX)
    box.scroll_into_view_if_needed()
    expect(box.locator("th", has_text="Attempts, in order")).to_be_visible()
    assert not box.evaluate(OVERFLOWS), "the payments table scrolls sideways at 1280 px"
    cue = page.locator("#sim-stable-key .scroll-cue")
    expect(cue).not_to_be_visible()                   # it fits: nothing to say
    page.set_viewport_size({"width": 390, "height": 800})
    assert box.evaluate(OVERFLOWS)
    expect(cue).to_be_visible()
    expect(cue).to_have_text("Scroll sideways for more →")
    expect(box).to_have_attribute("data-scrolls-sideways", "")
