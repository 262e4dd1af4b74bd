"""On a phone: no sideways scrolling of the page; the chapter list is a drawer behind a button."""
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}


def test_page_fits_the_width(page, fixture_site):
    page.set_viewport_size(PHONE)
    for name in ("index.html", "00-start.html", "01-queue.html", "02-retries.html", "guide.html"):
        page.goto(fixture_site.at(name))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


def test_chapter_drawer_opens_and_closes(page, fixture_site):
    page.set_viewport_size(PHONE)
    page.goto(fixture_site.at("01-queue.html"))
    menu = page.get_by_role("button", name="Chapters")
    chapters = page.get_by_role("navigation", name="Chapters")
    expect(chapters).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(chapters.get_by_role("link", name="1 A queue in a table")).to_be_focused()
    page.keyboard.press("Escape")
    expect(chapters).to_be_hidden()
    expect(menu).to_be_focused()
    menu.click()
    chapters.get_by_role("link", name="2 Retries with patience").click()
    expect(page).to_have_url(fixture_site.at("02-retries.html"))
