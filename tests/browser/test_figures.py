"""A figure (content/figures/, shown as an <img>) is drawn in the reader's colours: chapter 10's
scaling chart has a light background in the light theme and a dark one in the dark theme, whether
the theme comes from the system or from the site's toggle."""
import re

from playwright.sync_api import expect

from tests.support.pixels import pixel


def _pixel(page, locator, dx=6, dy=6):
    """(r, g, b) of one pixel of the figure, `dx`, `dy` CSS pixels in from its top left corner
    (inside its border, on the chart's own background)."""
    box = locator.bounding_box()
    return pixel(page, box["x"] + dx, box["y"] + dy)


def _luminance(rgb):
    return sum(weight * value / 255 for weight, value in zip((0.2126, 0.7152, 0.0722), rgb))


def _chart(page, site):
    page.goto(site.at("13-the-real-world.html"))
    figure = page.locator("figure.figure img[src='figures/scaling.svg']")
    figure.scroll_into_view_if_needed()
    # The chapter's text alternative, whole (its wording is the chapter's to change).
    expect(figure).to_have_attribute("alt", re.compile(r"^Two line charts against 1 to 32 worker processes, "
                                                       r"four lines in each: .* durable PostgreSQL holds at .*"
                                                       r"The table after the chart gives the jobs per second\.$"))
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=figure.element_handle())
    return figure


def test_the_chart_follows_the_toggle_from_a_light_system(browser, real_site):
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    figure = _chart(page, real_site)
    assert _luminance(_pixel(page, figure)) > 0.9
    page.get_by_role("button", name="Dark theme").click()
    page.wait_for_timeout(200)    # the image is redrawn with the page
    assert _luminance(_pixel(page, figure)) < 0.1
    context.close()


def test_the_chart_is_dark_on_a_dark_system(browser, real_site):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    figure = _chart(page, real_site)
    assert _luminance(_pixel(page, figure)) < 0.1
    context.close()
