"""live-queue's tokens (theme/js/sims/live-queue-tokens.js) cost the page little while a
large run plays. A token whose job leaves the picture is handed to a job that arrives, never
removed from the page and made again; when a draw moves many tokens they step rather than glide
(a glide of an SVG group is repainted on the main thread every frame). A small run still glides."""
import re

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim, new_watched_page

TIMEOUT = 90_000   # ms: a loaded 2-core machine draws slowly
AT_LEAST_300 = re.compile(r"^([3-9]\d\d|\d{4,})$")

# Counts, from now on, the tokens removed from the tokens' layer and added to it, and whether the
# layer was ever told to step.
WATCH = """root => {
  const layer = root.querySelector('.lqp-tokens');
  window.__tokens = { removed: 0, added: 0, stepped: layer.dataset.motion === 'step' };
  new MutationObserver((records) => {
    for (const r of records) {
      window.__tokens.removed += r.removedNodes.length;
      window.__tokens.added += r.addedNodes.length;
      if (layer.dataset.motion === 'step') window.__tokens.stepped = true;
    }
  }).observe(layer, { childList: true, attributes: true, attributeFilter: ['data-motion'] });
}"""


@pytest.fixture(scope="module")
def page(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": 1280, "height": 900})
    page.real_site = real_site
    yield page
    context.close()
    watch.check()


def test_a_small_run_glides(page):
    page.goto(page.real_site.at("03-the-queue.html"))
    sim = Sim(page, "live-queue").start()
    for _ in range(3):
        sim.button("Enqueue job").click()
    expect(sim.root.locator(".lqp-queued")).to_have_count(3, timeout=TIMEOUT)
    for _ in range(5):   # the worker claims job 1 within a step or two
        before = sim.part("time").inner_text()
        sim.button("Step").click()
        expect(sim.part("time")).not_to_have_text(before, timeout=TIMEOUT)
        expect(sim.part("picture")).to_have_attribute("data-time", sim.part("time").inner_text().split()[0], timeout=TIMEOUT)
        if sim.root.locator(".lqp-running").count():
            break
    token = sim.root.locator(".lqp-running")
    assert token.evaluate("node => getComputedStyle(node).transitionDuration") == "0.35s"
    expect(sim.root.locator(".lqp-tokens")).not_to_have_attribute("data-motion", "step")


def test_the_largest_run_steps_and_reuses_its_tokens(page):
    page.goto(page.real_site.at("03-the-queue.html?sim-1.workers=64&sim-1.jobs=5000#sim-1"))
    sim = Sim(page, "live-queue").start()
    expect(sim.root.locator(".lqp-worker")).to_have_count(64, timeout=TIMEOUT)
    sim.root.evaluate(WATCH)
    sim.set_speed("2")
    sim.button("Play").click()
    # Some 150 jobs a virtual second go from the lane to a worker to the done pile.
    expect(sim.part("picture")).to_have_attribute("data-done", AT_LEAST_300, timeout=TIMEOUT)
    sim.pause()
    seen = page.evaluate("() => window.__tokens")
    assert seen["stepped"], "the tokens glided while dozens moved in each draw"
    assert seen["removed"] == 0, f"{seen['removed']} tokens were removed from the page and {seen['added']} added"
    # Every token in the layer is either one of a shown job's or a hidden spare: the page's
    # queries (.lqp-token) find only the shown ones.
    counts = sim.root.evaluate("""root => ({
      all: root.querySelectorAll('.lqp-tokens > g').length,
      tokens: root.querySelectorAll('.lqp-token').length,
      spare: root.querySelectorAll('.lqp-spare').length,
      hidden: [...root.querySelectorAll('.lqp-spare')].every((g) => getComputedStyle(g).visibility === 'hidden'),
    })""")
    assert counts["all"] == counts["tokens"] + counts["spare"] and counts["hidden"], counts
    assert counts["all"] <= 200, counts

