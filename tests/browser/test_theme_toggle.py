"""Dark mode: follows the system, can be toggled, and the choice is remembered across pages; a
reader who chose it never sees a light frame while a page loads."""
import re
import time

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


# The page's colour in each frame, read in a requestAnimationFrame callback: the browser runs those
# just before it styles, lays out and paints the frame ("update the rendering", HTML's event loop),
# and runs none while the page's head stylesheets keep it from rendering. Before <body> exists the
# canvas shows the root's colour scheme.
FRAMES = """(() => {
  window.__frames = [];
  const look = (at) => {
    const body = document.body;
    window.__frames.push({ at, colour: body ? getComputedStyle(body).backgroundColor
                                            : "canvas " + getComputedStyle(document.documentElement).colorScheme });
    if (window.__frames.length < 120) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();"""
FIRST_PAINT = "() => performance.getEntriesByName('first-paint')[0]?.startTime ?? null"
CHOSE_DARK = "try { localStorage.setItem('theme', 'dark'); } catch (e) {}"
HEAD_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def _frames_of_a_reader_who_chose_dark(browser, url, late_theme=False):
    """The colour of each frame drawn while `url` loads, for a reader whose system is light and who
    chose the dark theme on an earlier visit. late_theme: the page's theme code is moved out of the
    <head> into a script that arrives 0.5 s late (the flash this test exists to catch)."""
    context = browser.new_context(color_scheme="light")
    context.add_init_script(CHOSE_DARK)
    context.add_init_script(FRAMES)
    page = context.new_page()
    if late_theme:
        code = {}

        def without_the_head_script(route):
            response = route.fetch()
            text = response.text()
            code["theme"] = HEAD_SCRIPT.search(text).group(1)
            text = HEAD_SCRIPT.sub("", text, count=1).replace("</body>", '<script src="late-theme.js" defer></script></body>')
            route.fulfill(response=response, body=text)

        def late(route):
            time.sleep(0.5)
            route.fulfill(body=code["theme"], content_type="text/javascript")

        page.route(url, without_the_head_script)
        page.route(re.compile(r".*/late-theme\.js$"), late)
    page.goto(url)
    page.wait_for_function("() => window.__frames.length >= 20", timeout=30_000)
    frames, first_paint = page.evaluate("window.__frames"), page.evaluate(FIRST_PAINT)
    context.close()
    return frames, first_paint


def test_a_reader_who_chose_dark_sees_no_light_frame(browser, fixture_site):
    for name in ("00-start.html", "guide.html", "index.html"):
        frames, first_paint = _frames_of_a_reader_who_chose_dark(browser, fixture_site.at(name))
        # The first frame looked at is the first one painted, so no frame went unseen.
        assert first_paint is not None and frames[0]["at"] <= first_paint, (name, frames[:3], first_paint)
        light = [f for f in frames if f["colour"] not in (DARK_BG, "canvas dark")]
        assert not light, (name, light[:3])


def test_a_theme_applied_late_shows_light_frames_first(browser, fixture_site):
    """The control: the same reader, with the theme code run after the first paint, sees the flash."""
    frames, _ = _frames_of_a_reader_who_chose_dark(browser, fixture_site.at("00-start.html"), late_theme=True)
    assert frames[0]["colour"] == LIGHT_BG, frames[:3]
    assert frames[-1]["colour"] == DARK_BG, frames[-3:]
