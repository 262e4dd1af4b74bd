"""With JavaScript disabled, all of a page's text is there: chapter text, answers (in their
native <details>), the contents, the chapter list, and each simulation's starting state."""
from playwright.sync_api import expect


def test_chapter_text_is_all_there_without_javascript(no_js_page, fixture_site, browser):
    page = no_js_page
    page.goto(fixture_site.at("01-queue.html"))
    for text in ("A queue can be one SQLite table.", "A job moves from", "Here is the whole exercise file:",
                 "Enqueue three jobs and claim twice.", "Delete the WHERE clause and claim."):
        expect(page.get_by_text(text)).to_be_visible()
    expect(page.get_by_role("img", name="Three boxes in a row, labelled queued, running and done")).to_be_visible()
    expect(page.locator("figure.include").first).to_contain_text('print("claimed job", queue.claim())')
    expect(page.locator("figure.transcript")).to_contain_text("claimed job 1")
    sim = page.locator('[data-sim="counter"]')
    expect(sim.get_by_role("table")).to_contain_text("queued")
    expect(sim).to_contain_text("Without JavaScript you see the starting table.")
    expect(page.get_by_role("navigation", name="On this page").get_by_role("link", name="Running it")).to_be_visible()
    expect(page.get_by_role("navigation", name="Chapters").get_by_role("link", name="2 Retries")).to_be_visible()
    expect(page.get_by_role("button", name="Search")).to_be_hidden()       # nothing that needs scripts
    expect(page.get_by_role("button", name="Dark theme")).to_be_hidden()
    page.get_by_text("Answer", exact=True).click()                           # <details> needs no script
    expect(page.get_by_text("Three.", exact=True)).to_be_visible()

    # The same words as with JavaScript on (which adds only buttons, and the cue over a table that
    # overflows sideways: scrollable.js).
    scripted = browser.new_context().new_page()
    scripted.goto(fixture_site.at("01-queue.html"))
    words = "() => document.querySelector('main').textContent.replace(/Scroll sideways for more →|Copy|\\s+/g, ' ').split(' ').filter(Boolean)"
    assert page.evaluate(words) == scripted.evaluate(words)
    scripted.context.close()


def test_chapter_list_is_reachable_on_a_phone_without_javascript(no_js_page, fixture_site):
    page = no_js_page
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(fixture_site.at("00-start.html"))
    link = page.get_by_role("navigation", name="Chapters").get_by_role("link", name="1 A queue in a table")
    link.scroll_into_view_if_needed()
    expect(link).to_be_visible()
