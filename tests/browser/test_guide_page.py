"""guide.html, every chapter on one page, on the real guide: the browser skips styling and laying
out the chapters far off screen (content-visibility: auto, 60-navigation.css), yet a link to a
heading deep in the page lands on it, a chapter not yet drawn is never shorter than once drawn,
and print draws every chapter. Why: laying out the whole page took ~2 s of a phone's main thread."""
import pytest

PHONE = {"width": 412, "height": 823}     # Lighthouse's phone, in CSS pixels
DESKTOP = {"width": 1280, "height": 900}

# checkVisibility({contentVisibilityAuto: true}) is false inside a chapter the browser skips.
DRAWN = "(e) => e.checkVisibility({ contentVisibilityAuto: true })"

LANDING = """(id) => {
  const heading = document.getElementById(id);
  const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  const scroller = document.scrollingElement;
  // A heading too near the page's end to reach the top lands as high as the page scrolls.
  const bottom = scroller.scrollTop + innerHeight >= scroller.scrollHeight - 2;
  return { top: heading.getBoundingClientRect().top, padding, bottom, height: innerHeight,
           drawn: heading.checkVisibility({ contentVisibilityAuto: true }) };
}"""


def _landed_on(landed):
    return landed["drawn"] and (abs(landed["top"] - landed["padding"]) <= 2
                                or (landed["bottom"] and landed["padding"] - 2 <= landed["top"] < landed["height"] / 2))

HEIGHTS = """() => [...document.querySelectorAll('.guide-chapter')].map((s) => s.getBoundingClientRect().height)"""


def _wait_for_frames(page, frames=10):
    page.evaluate("""(n) => new Promise((done) => {
      const step = () => (n-- > 0 ? requestAnimationFrame(step) : done());
      step();
    })""", frames)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_chapters_far_below_are_skipped_until_the_reader_nears_them(real_page, real_site, viewport):
    real_page.set_viewport_size(viewport)
    real_page.goto(real_site.at("guide.html"))
    last = real_page.locator(".guide-chapter").last.locator("h2").first
    assert last.evaluate(DRAWN) is False
    last.scroll_into_view_if_needed()
    _wait_for_frames(real_page)
    assert last.evaluate(DRAWN) is True


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_link_to_a_heading_deep_in_the_page_lands_on_it(real_page, real_site, viewport):
    real_page.set_viewport_size(viewport)
    real_page.goto(real_site.at("guide.html"))
    ids = real_page.eval_on_selector_all(".guide-toc a", "(links) => links.map((a) => a.hash.slice(1))")
    # From the page's own contents (a click), and from another page (a URL with the fragment).
    for target in (ids[len(ids) // 2], ids[-1]):
        real_page.locator(f'.guide-toc a[href="#{target}"]').click()
        _wait_for_frames(real_page)
        landed = real_page.evaluate(LANDING, target)
        assert _landed_on(landed), (target, landed)
    real_page.goto("about:blank")
    real_page.goto(real_site.at(f"guide.html#{ids[-3]}"))
    real_page.wait_for_load_state("load")
    _wait_for_frames(real_page, 30)
    landed = real_page.evaluate(LANDING, ids[-3])
    assert _landed_on(landed), (ids[-3], landed)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_guessed_heights_are_a_little_above_the_drawn_ones(real_page, real_site, viewport):
    # The scroll bar, and where a link lands before the chapters above it are drawn, follow them.
    real_page.set_viewport_size(viewport)
    real_page.goto(real_site.at("guide.html"))
    guessed = real_page.evaluate(HEIGHTS)
    real_page.evaluate("() => document.querySelectorAll('.guide-chapter').forEach((s) => { s.style.contentVisibility = 'visible'; })")
    drawn = real_page.evaluate(HEIGHTS)
    # Never lower: a chapter laid out while skipped (axe, Lighthouse) would spill into the next.
    assert all(g >= d for g, d in zip(guessed, drawn)), list(zip(guessed, drawn))
    assert sum(guessed) / sum(drawn) < 1.8, (guessed, drawn)


def test_print_draws_every_chapter(real_page, real_site):
    real_page.goto(real_site.at("guide.html"))
    real_page.emulate_media(media="print")
    styles = real_page.eval_on_selector_all(".guide-chapter", "(all) => all.map((s) => getComputedStyle(s).contentVisibility)")
    assert styles and set(styles) == {"visible"}, styles
    assert real_page.locator(".guide-chapter").last.locator("h2").first.evaluate(DRAWN) is True


def test_a_wide_code_block_drawn_late_still_scrolls_with_the_keyboard(real_page, real_site):
    # scrollable.js measures each block when the browser lays it out (a ResizeObserver), so a
    # chapter drawn only when the reader reaches it gets its tabindex then.
    real_page.set_viewport_size(PHONE)
    real_page.goto(real_site.at("guide.html"))
    blocks = real_page.locator(".guide-chapter:has(.code-block pre)").last.locator(".code-block pre")
    assert blocks.first.evaluate(DRAWN) is False
    wide = 0
    for i in range(blocks.count()):
        blocks.nth(i).scroll_into_view_if_needed()
        _wait_for_frames(real_page, 3)
        if blocks.nth(i).evaluate("(e) => e.scrollWidth > e.clientWidth + 1"):
            wide += 1
            assert blocks.nth(i).get_attribute("tabindex") == "0", i
    assert wide, "no code block in that chapter is wider than a phone: pick another"
