"""The arrow keys: → for the next chapter, ← for the previous, never while typing."""
from playwright.sync_api import expect


def _press(page, key):
    with page.expect_navigation():
        page.keyboard.press(key)
    page.wait_for_load_state("domcontentloaded")   # the page's scripts have run


def test_arrows_go_to_next_and_previous_chapter(page, fixture_site):
    page.goto(fixture_site.at("01-queue.html"))
    _press(page, "ArrowRight")
    expect(page).to_have_url(fixture_site.at("02-retries.html"))
    _press(page, "ArrowLeft")
    expect(page).to_have_url(fixture_site.at("01-queue.html"))
    _press(page, "ArrowLeft")
    expect(page).to_have_url(fixture_site.at("00-start.html"))


def test_last_chapter_has_no_next(page, fixture_site):
    page.goto(fixture_site.at("02-retries.html"))
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    expect(page).to_have_url(fixture_site.at("02-retries.html"))


def test_arrows_while_typing_or_with_a_modifier_stay_on_the_page(page, fixture_site):
    page.goto(fixture_site.at("01-queue.html"))
    page.keyboard.press("/")
    page.keyboard.type("abc")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Escape")
    page.keyboard.press("Alt+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    page.wait_for_timeout(300)
    expect(page).to_have_url(fixture_site.at("01-queue.html"))


def test_arrows_after_a_click_in_a_simulation_stay_on_the_page(page, fixture_site):
    """A click on a simulation's text moves the focus to <main> (it is not
    focusable itself), and → then left the page, losing the run."""
    page.goto(fixture_site.at("01-queue.html"))
    page.locator(".sim .sim-fallback p").click()
    assert page.evaluate("document.activeElement.id") == "main"   # where the focus fell
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    expect(page).to_have_url(fixture_site.at("01-queue.html"))
    # A click elsewhere in the text gives the arrows back to the page.
    page.get_by_role("heading", name="Watching workers").click()
    _press(page, "ArrowRight")
    expect(page).to_have_url(fixture_site.at("02-retries.html"))
