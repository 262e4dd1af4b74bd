"""The picture first: for every simulation's first embed, at a desktop's 1280x800 and a phone's
390x844, Play, the picture, the moment slider and the outcome fit on one screen under the site's
bar, at the start and at the end of the chapter's run; full screen at 1280x800 puts the picture
and the controls on one screen; a played live queue prints its picture; a fold the reader opened
stays open; "Step to the next event" lands on exactly the next event's time."""
import re

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim, new_watched_page

FIRST = {"live-queue": "03-the-queue.html", "race": "04-the-worker.html",
         "crash-timing": "05-leases.html", "payments": "08-retry.html"}
PICTURE = {"live-queue": ".lqp", "race": ".race-picture", "crash-timing": ".ct-lanes",
           "payments": ".pay-picture"}
SIZES = [(1280, 800), (390, 844)]

# Each part's top and bottom in the window, and the bottom of the site's bar.
BOXES = """([root, picture]) => {
  const box = (node) => { const b = node.getBoundingClientRect(); return [b.top, b.bottom]; };
  return {bar: document.querySelector('.topbar').getBoundingClientRect().bottom, height: innerHeight,
          play: box(root.querySelector('[data-action="play"]')), picture: box(root.querySelector(picture)),
          slider: box(root.querySelector('[data-part="moment"]')),
          outcome: box(root.querySelector('[data-part="outcome"]'))};
}"""
PLAY_UNDER_BAR = """(root) => {
  const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
  scrollBy(0, root.querySelector('[data-action="play"]').getBoundingClientRect().top - bar - 8);
}"""


def on_one_screen(sim, name):
    """Scroll Play just under the bar; then Play, the picture, the slider and the outcome are in
    the window. Returns the boxes, for the message."""
    sim.root.evaluate(PLAY_UNDER_BAR)
    boxes = sim.page.evaluate(BOXES, [sim.root.element_handle(), PICTURE[name]])
    for part in ("play", "picture", "slider", "outcome"):
        top, bottom = boxes[part]
        assert top >= boxes["bar"] - 1 and bottom <= boxes["height"] + 1, f"{name}: {part} at {top:.0f}-{bottom:.0f}, window {boxes['bar']:.0f}-{boxes['height']}"
    return boxes


def play_to_the_end(sim, name):
    """The story's key event: the chapter's run played to its end (the live queue's jobs done)."""
    if name in ("crash-timing", "payments"):
        sim.run_to_the_end()
    elif name == "race":
        sim.set_speed("5")
        sim.button("Play").click()
        expect(sim.button("Play again")).to_be_visible(timeout=LONG)
    else:   # chapter 3's queue starts empty: three jobs, then play until every one is done
        for count in (1, 2, 3):
            sim.button("Enqueue job").click()
            expect(sim.part("jobs").locator("tr")).to_have_count(count)
        sim.set_speed("10")
        sim.button("Play").click()
        expect(sim.part("step-note")).to_have_text(re.compile("every job is finished"), timeout=LONG)


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("name", list(FIRST))
def test_play_the_picture_and_the_outcome_share_one_screen(browser, real_site, name, width, height):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": width, "height": height})
    page.goto(real_site.at(FIRST[name]))
    sim = Sim(page, name).start(folds=False)
    on_one_screen(sim, name)
    play_to_the_end(sim, name)
    on_one_screen(sim, name)
    context.close()
    watch.check()


def test_full_screen_puts_the_picture_beside_the_controls(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": 1280, "height": 800})
    page.goto(real_site.at(FIRST["payments"]))
    sim = Sim(page, "payments").start(folds=False)
    page.locator(f'[data-stage-for="{sim.id}"]').get_by_role("button", name="Full screen").click()
    expect(page.locator(".sim-stage.is-fullscreen")).to_have_count(1)
    boxes = page.evaluate("""(root) => Object.fromEntries(['[data-action="play"]', '.pay-picture', '[data-part="outcome"]',
        '[data-part="moment"]', '[data-part="params"] .sim-field'].map((sel) => { const b = root.querySelector(sel).getBoundingClientRect();
        return [sel, [b.left, b.top, b.right, b.bottom]]; }))""", sim.root.element_handle())
    for selector, (left, top, right, bottom) in boxes.items():
        assert top >= 0 and bottom <= 800 and right <= 1280, f"{selector} off the screen: {boxes}"
    picture, play = boxes[".pay-picture"], boxes['[data-action="play"]']
    assert play[0] >= picture[2], f"the controls are not beside the picture: {boxes}"
    context.close()
    watch.check()


def test_a_played_live_queue_prints_its_picture(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": 1280, "height": 800})
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, "live-queue").start()
    sim.button("Step").click()
    expect(sim.part("time")).to_have_text("0.1 s")
    page.emulate_media(media="print")
    picture = sim.root.locator(".lqp")
    expect(picture).to_be_visible()
    assert picture.bounding_box()["height"] > 100
    expect(sim.root.locator(".lqp .lqp-token").first).to_be_visible()
    context.close()
    watch.check()


def test_a_fold_opened_stays_open_on_the_next_visit(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": 1280, "height": 800})
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, "crash-timing")
    log = sim.root.locator('details[data-fold="log"]')
    expect(log).not_to_have_attribute("open", "")
    log.locator("summary").click()
    expect(log).to_have_attribute("open", "")
    page.goto(real_site.at("09-did-it-happen.html"))   # another page, the same simulation
    expect(Sim(page, "crash-timing").root.locator('details[data-fold="log"]')).to_have_attribute("open", "")
    expect(Sim(page, "crash-timing").root.locator('details[data-fold="table"]')).not_to_have_attribute("open", "")
    context.close()
    watch.check()


def test_step_to_the_next_event_lands_on_its_time(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": 1280, "height": 800})
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, "live-queue").start()   # its folds open: the log shows
    entries = sim.part("log").locator("li")
    button = sim.button("Step to the next event")
    expect(button).to_be_enabled()
    seen = entries.count()
    times = []
    for _ in range(3):
        button.click()
        expect(entries).not_to_have_count(seen)
        seen = entries.count()
        now = sim.time()
        newest = float(entries.last.locator(".sim-log-time").inner_text().split()[0])
        assert newest == now, f"the clock shows {now} s, the newest event was at {newest} s"
        times.append(now)
    assert times == sorted(times) and times[-1] - times[0] >= 0.5   # it skipped quiet ticks
    # one tick back, the log had nothing at that time: the event was the next one, not a later one
    sim.button("Step back").click()
    expect(sim.part("time")).not_to_have_text(f"{times[-1]:g} s")
    context.close()
    watch.check()


CLS = """() => new Promise((done) => {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const shift of list.getEntries()) if (!shift.hadRecentInput) total += shift.value;
  }).observe({ type: "layout-shift", buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => done(total)));
})"""


@pytest.mark.parametrize("width,height", SIZES)
def test_layout_shift_stays_small_while_a_widget_starts_and_plays(browser, real_site, width, height):
    """The page's cumulative layout shift (shifts no input caused) stays under 0.1 from loading
    chapter 5 through starting its crash-timing widget and playing its run to the end."""
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": width, "height": height})
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, "crash-timing").start(folds=False)
    sim.set_speed("5")
    sim.button("Play").click()
    expect(sim.button("Play again")).to_be_visible(timeout=LONG)
    shifted = page.evaluate(CLS)
    assert shifted < 0.1, f"layout shift {shifted:.3f} at {width}x{height}"
    context.close()
    watch.check()
