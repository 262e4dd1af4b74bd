"""A simulation fills the screen for projecting in class: a real button, Escape or the
button leaves, and the focus comes back to the button."""
from playwright.sync_api import expect


def test_a_simulation_goes_full_screen_and_escape_leaves(page, fixture_site):
    page.set_viewport_size({"width": 1024, "height": 700})
    page.goto(fixture_site.at("01-queue.html"))
    button = page.get_by_role("button", name="Full screen")
    expect(button).to_have_attribute("aria-controls", "sim-1")
    button.click()
    stage = page.locator(".sim-stage")
    leave = page.get_by_role("button", name="Leave full screen")
    expect(leave).to_have_attribute("aria-pressed", "true")
    box = stage.bounding_box()
    assert box["x"] <= 0 and box["y"] <= 0 and box["width"] >= 1024 and box["height"] >= 700
    expect(page.locator("#sim-1")).to_be_in_viewport()
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Full screen")).to_be_focused()
    assert stage.bounding_box()["width"] < 1024
    assert page.evaluate("document.fullscreenElement") is None
    # The button leaves too.
    page.get_by_role("button", name="Full screen").press("Enter")
    page.get_by_role("button", name="Leave full screen").press("Enter")
    expect(page.get_by_role("button", name="Full screen")).to_have_attribute("aria-pressed", "false")


def test_without_javascript_there_is_no_full_screen_button(no_js_page, fixture_site):
    no_js_page.goto(fixture_site.at("01-queue.html"))
    expect(no_js_page.get_by_role("button", name="Full screen")).to_have_count(0)


def test_on_a_wide_screen_full_screen_makes_the_widget_larger_for_a_room(page, fixture_site):
    """A teacher projecting at 1920 px found the text as small as on the page: it grows now."""
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(fixture_site.at("01-queue.html"))
    label = page.locator("#sim-1 p:visible").first
    before = label.bounding_box()["height"]
    page.get_by_role("button", name="Full screen").click()
    expect(page.get_by_role("button", name="Leave full screen")).to_be_visible()
    assert label.bounding_box()["height"] >= 1.5 * before
