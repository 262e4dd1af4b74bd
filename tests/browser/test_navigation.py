"""Moving between chapters: the sidebar (current chapter marked), previous/next at the top and
the bottom, each a full page load."""
from playwright.sync_api import expect


def test_sidebar_lists_chapters_and_marks_the_current_one(page, fixture_site):
    page.goto(fixture_site.at("01-queue.html"))
    sidebar = page.get_by_role("navigation", name="Chapters")
    expect(sidebar.get_by_role("link")).to_have_text(
        ["Contents", "0Start here", "1A queue in a table", "2Retries with patience", "The whole guide on one page"])
    expect(sidebar.locator('[aria-current="page"]')).to_have_text("1A queue in a table")
    sidebar.get_by_role("link", name="2 Retries with patience").click()
    expect(page).to_have_url(fixture_site.at("02-retries.html"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Chapter 2 Retries with patience")


def test_next_and_previous_at_top_and_bottom_are_full_page_loads(page, fixture_site):
    page.goto(fixture_site.at("00-start.html"))
    page.evaluate("window.sameDocument = true")
    top = page.get_by_role("navigation", name="Previous and next chapter", exact=True)
    top.get_by_role("link", name="Next: A queue in a table").click()
    expect(page).to_have_url(fixture_site.at("01-queue.html"))
    assert page.evaluate("window.sameDocument") is None   # a new document, not client-side routing
    bottom = page.get_by_role("navigation", name="Previous and next chapter, end of page")
    bottom.get_by_role("link", name="Previous: Start here").click()
    expect(page).to_have_url(fixture_site.at("00-start.html"))
    page.get_by_role("navigation", name="Previous and next chapter", exact=True).get_by_role(
        "link", name="Previous: Contents").click()
    expect(page).to_have_url(fixture_site.at("index.html"))


def test_cross_chapter_link_reaches_the_section(page, fixture_site):
    page.goto(fixture_site.at("00-start.html"))
    page.get_by_role("link", name="the retry section").click()
    expect(page).to_have_url(fixture_site.at("02-retries.html#waiting-between-attempts"))
    expect(page.get_by_role("heading", name="Waiting between attempts")).to_be_in_viewport()


def test_all_in_one_page_links_stay_inside_it(page, fixture_site):
    page.goto(fixture_site.at("guide.html"))
    contents = page.get_by_role("navigation", name="Contents")
    expect(contents.get_by_role("link", name="1 A queue in a table")).to_have_attribute("href", "#ch1")
    page.locator("#ch0").get_by_role("link", name="the retry section").click()
    expect(page).to_have_url(fixture_site.at("guide.html#ch2-waiting-between-attempts"))
    expect(page.locator("#ch2-waiting-between-attempts")).to_be_in_viewport()
