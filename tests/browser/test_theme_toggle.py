"""Dark mode: follows the system, can be toggled, and the choice is remembered across pages."""
from playwright.sync_api import expect

LIGHT_BG, DARK_BG = "rgb(253, 252, 250)", "rgb(22, 24, 28)"


def _background(page):
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_toggle_is_remembered_across_reloads_and_pages(page, fixture_site):
    page.goto(fixture_site.at("00-start.html"))
    toggle = page.get_by_role("button", name="Dark theme")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert _background(page) == LIGHT_BG
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert _background(page) == DARK_BG
    page.reload()
    expect(page.get_by_role("button", name="Dark theme")).to_have_attribute("aria-pressed", "true")
    assert _background(page) == DARK_BG
    page.goto(fixture_site.at("02-retries.html"))
    assert _background(page) == DARK_BG
    page.get_by_role("button", name="Dark theme").click()
    page.reload()
    assert _background(page) == LIGHT_BG


def test_follows_a_dark_system_until_the_reader_chooses(browser, fixture_site):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(fixture_site.at("00-start.html"))
    assert _background(page) == DARK_BG
    expect(page.get_by_role("button", name="Dark theme")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Dark theme").click()
    page.reload()
    assert _background(page) == LIGHT_BG
    context.close()
