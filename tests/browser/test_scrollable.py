"""A block wider than the column scrolls sideways and can be scrolled from the keyboard: it takes
focus (only while it is too wide), and the arrow keys then scroll it instead of changing page."""
from playwright.sync_api import expect


def test_wide_block_takes_focus_and_arrows_scroll_it(page, fixture_site):
    page.goto(fixture_site.at("02-retries.html"))
    wide = page.locator(".code-block pre").first
    expect(wide).to_have_attribute("tabindex", "0")
    wide.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    expect(page).to_have_url(fixture_site.at("02-retries.html"))
    assert wide.evaluate("e => e.scrollLeft") > 0


def test_narrow_block_is_not_a_tab_stop(page, fixture_site):
    page.goto(fixture_site.at("01-queue.html"))
    short = page.locator(".code-block", has_text="SELECT count(*)").locator("pre")
    expect(short).not_to_have_attribute("tabindex", "0")
