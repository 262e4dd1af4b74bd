"""Search: finds a word that only another chapter holds and opens it there; the index is
fetched only when the reader opens search."""
import re

from playwright.sync_api import expect


def test_finds_a_word_from_another_chapter_and_opens_it(watched, fixture_site):
    page = watched.page
    page.goto(fixture_site.at("00-start.html"))
    page.wait_for_load_state("networkidle")
    assert watched.requested("search-index.json") == [] and watched.requested("minisearch") == []
    page.get_by_role("button", name="Search").click()
    dialog = page.get_by_role("dialog", name="Search the guide")
    expect(dialog).to_be_visible()
    dialog.get_by_role("searchbox", name="Search the guide").fill("zeppelin")
    result = dialog.get_by_role("link", name=re.compile("Waiting between attempts"))
    expect(result).to_contain_text("2. Retries with patience")
    expect(result.locator("mark")).to_have_text("zeppelin")
    expect(dialog.get_by_role("status")).to_have_text("1 section found.")
    assert len(watched.requested("search-index.json")) == 1
    result.click()
    expect(page).to_have_url(fixture_site.at("02-retries.html#waiting-between-attempts"))
    expect(page.get_by_text("The zeppelin rule")).to_be_in_viewport()


def test_keyboard_slash_opens_and_enter_takes_the_first_result(page, fixture_site):
    page.goto(fixture_site.at("02-retries.html"))
    page.keyboard.press("/")
    box = page.get_by_role("searchbox", name="Search the guide")
    expect(box).to_be_focused()
    box.fill("subsection")
    expect(page.get_by_role("dialog").get_by_role("link").first).to_contain_text("A short subsection")
    box.press("Enter")
    expect(page).to_have_url(fixture_site.at("00-start.html#a-short-subsection"))


def test_nothing_found_is_said_and_escape_closes(page, fixture_site):
    page.goto(fixture_site.at("00-start.html"))
    page.get_by_role("button", name="Search").click()
    box = page.get_by_role("searchbox", name="Search the guide")
    box.fill("xylophonequartz")
    expect(page.get_by_role("dialog").get_by_role("status")).to_have_text("Nothing found for “xylophonequartz”.")
    box.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(page.get_by_role("button", name="Search")).to_be_focused()
