"""The reader's progress: chapters read and checks answered, marked in the sidebar and
the contents, "Resume where you left off", kept in this browser only, and forgotten on request."""
import re

from playwright.sync_api import expect


def _sidebar_link(page, title):
    return page.locator(".chapter-list").get_by_role("link", name=re.compile(title))


def test_progress_is_marked_kept_and_forgotten(page, fixture_site):
    page.set_viewport_size({"width": 1280, "height": 700})
    page.goto(fixture_site.at("00-start.html"))
    sidebar = page.get_by_role("navigation", name="Chapters")
    expect(sidebar.get_by_role("button", name="Forget my progress")).to_be_visible()   # this visit counts
    # Open one of the two answers: one of two checks answered.
    page.locator(".pause").first.get_by_text("Answer").click()
    expect(_sidebar_link(page, "Start here")).to_have_accessible_name(re.compile(r"1 of 2 checks answered"))
    expect(page.locator('[data-part="progress-note"]')).to_have_text("Your progress: 1 of 2 checks answered")
    # Read to the end, then leave for another chapter: the mark stays.
    page.locator(".prevnext-bottom").scroll_into_view_if_needed()
    expect(_sidebar_link(page, "Start here")).to_have_accessible_name(re.compile(r"\(read, 1 of 2 checks answered\)"))
    page.goto(fixture_site.at("01-queue.html"))
    page.get_by_role("heading", name="Running it").scroll_into_view_if_needed()
    page.mouse.wheel(0, 50)
    page.wait_for_timeout(700)
    expect(_sidebar_link(page, "Start here")).to_have_accessible_name(re.compile(r"read, 1 of 2"))
    # The contents page offers to resume at the section being read.
    page.goto(fixture_site.at("index.html"))
    resume = page.locator("main").get_by_role("link", name=re.compile("Resume where you left off"))
    expect(resume).to_have_attribute("href", re.compile(r"^01-queue\.html#"))
    expect(page.locator(".contents a").first).to_contain_text("✓ 1/2")
    resume.click()
    expect(page).to_have_url(re.compile(r"01-queue\.html#[\w-]+$"))
    # Forget it all.
    page.get_by_role("button", name="Forget my progress").click()
    expect(page.get_by_role("status").filter(has_text="forgotten")).to_have_count(1)
    assert page.evaluate("localStorage.getItem('guide-progress')") is None or \
        "00-start" not in page.evaluate("localStorage.getItem('guide-progress')")
    expect(_sidebar_link(page, "Start here")).to_have_accessible_name(re.compile(r"Start here$"))


def test_without_javascript_there_is_no_progress(no_js_page, fixture_site):
    no_js_page.goto(fixture_site.at("index.html"))
    for link in no_js_page.get_by_text("Resume where you left off").all():
        expect(link).to_be_hidden()
    expect(no_js_page.get_by_role("button", name="Forget my progress")).to_be_hidden()


def test_forget_my_progress_can_be_undone_from_the_keyboard(page, fixture_site):
    """Learner trial: one click wiped everything, with no way back."""
    page.set_viewport_size({"width": 1280, "height": 700})
    page.goto(fixture_site.at("00-start.html"))
    page.locator(".pause").first.get_by_text("Answer").click()
    expect(_sidebar_link(page, "Start here")).to_have_accessible_name(re.compile(r"1 of 2 checks answered"))
    page.get_by_role("button", name="Forget my progress").click()
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_focused()                                     # the Forget button is gone
    expect(page.get_by_role("status").filter(has_text="Undo brings it back")).to_have_count(1)
    expect(_sidebar_link(page, "Start here")).to_have_accessible_name(re.compile(r"Start here$"))
    page.keyboard.press("Enter")
    expect(_sidebar_link(page, "Start here")).to_have_accessible_name(re.compile(r"1 of 2 checks answered"))
    expect(page.get_by_role("status").filter(has_text="Your progress is back")).to_have_count(1)
    expect(undo).to_be_hidden()
    expect(page.get_by_role("button", name="Forget my progress")).to_be_focused()


def test_a_chapter_is_read_when_its_last_section_is_reached(real_page, real_site):
    """Learner trial: a chapter (then 8, now 11) was marked read three quarters down, after a simulation went full
    screen (it leaves the page's flow, and the end of the text moved up behind it)."""
    page = real_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(real_site.at("11-effect-with-the-ack.html"))
    link = _sidebar_link(page, "One transaction")
    stage = page.locator(".sim-stage", has=page.locator("#sim-points-in-one-transaction"))
    stage.scroll_into_view_if_needed()
    page.mouse.wheel(0, 50)
    page.wait_for_timeout(700)
    stage.get_by_role("button", name="Full screen").click()
    page.wait_for_timeout(700)
    page.keyboard.press("Escape")
    page.wait_for_timeout(700)
    page.mouse.wheel(0, 50)
    page.wait_for_timeout(700)
    expect(link).not_to_have_accessible_name(re.compile(r"\(read"))
    page.get_by_role("heading", name="Further reading").scroll_into_view_if_needed()
    page.mouse.wheel(0, 50)
    expect(link).to_have_accessible_name(re.compile(r"\(read"))
