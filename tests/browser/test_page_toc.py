"""The in-page table of contents: the page's sections, each a link to its heading, with the
section being read marked; folded on a narrow screen."""
import re

from playwright.sync_api import expect


def test_toc_lists_sections_and_jumps_to_them(page, fixture_site):
    page.set_viewport_size({"width": 1500, "height": 900})   # wide enough for its own column
    page.goto(fixture_site.at("00-start.html"))
    toc = page.get_by_role("navigation", name="On this page")
    expect(toc.get_by_role("link")).to_have_text(["What the fixture covers", "Reading order", "A short subsection"])
    toc.get_by_role("link", name="A short subsection").click()
    expect(page).to_have_url(re.compile(r"00-start\.html#a-short-subsection$"))
    heading = page.get_by_role("heading", name="A short subsection")
    expect(heading).to_be_in_viewport()
    expect(toc.locator('[aria-current="location"]')).to_have_text("A short subsection")


def test_heading_is_a_link_to_itself(page, fixture_site):
    page.goto(fixture_site.at("01-queue.html"))
    page.get_by_role("link", name="Running it", exact=True).last.click()
    expect(page).to_have_url(re.compile(r"01-queue\.html#running-it$"))


def test_toc_is_folded_on_a_narrow_screen(page, fixture_site):
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(fixture_site.at("00-start.html"))
    toc = page.get_by_role("navigation", name="On this page")
    expect(toc.get_by_role("link", name="Reading order")).to_be_hidden()
    toc.get_by_text("On this page").click()
    toc.get_by_role("link", name="Reading order").click()
    expect(page.get_by_role("heading", name="Reading order")).to_be_in_viewport()
    expect(toc.get_by_role("link", name="Reading order")).to_be_hidden()   # folds again after a jump


def test_toc_marks_where_you_are_at_1280px(page, fixture_site):
    """A laptop's 1280 px gets the contents beside the text, with "you are here"
    (it used to need 1440 px, so at 1280 the list was folded above the text)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(fixture_site.at("00-start.html"))
    toc = page.get_by_role("navigation", name="On this page")
    expect(toc.get_by_role("link", name="Reading order")).to_be_visible()
    text_box = page.locator(".chapter-body").bounding_box()
    toc_box = toc.bounding_box()
    assert toc_box["x"] >= text_box["x"] + text_box["width"], "the contents sit beside the text"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280   # no sideways scroll
    page.get_by_role("heading", name="A short subsection").scroll_into_view_if_needed()
    page.mouse.wheel(0, 2000)
    expect(toc.locator('[aria-current="location"]')).to_have_text("A short subsection")
    expect(toc).to_be_in_viewport()   # it stays in view (sticky) while the text scrolls
