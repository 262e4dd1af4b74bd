"""Nothing moves under the reader's pointer: the live queue's worker cards keep their size while
it plays (so "Kill worker N", on the picture, stays put) and hold their contents when a worker is killed; the
crash-timing axis labels do not run together on a phone; a printed widget stays in its column."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim, new_watched_page

LEASES = "05-leases.html"      # live-queue (sim-kill-a-worker), crash-timing (sim-crash-points, sim-lease-too-short)
RETRY = "08-retry.html"        # payments

PLACES = """root => [...root.querySelectorAll('.lqp-button:not([hidden]), .lq-worker button, .lq-actions button, .sim-table-box')]
  .filter((node) => node.getClientRects().length)   // a hidden card button has no box to move
  .map((node) => { const box = node.getBoundingClientRect();
                   return `${Math.round(box.left + scrollX)},${Math.round(box.top + scrollY)}`; }).join(' ')"""

OVERFLOW = """root => [...root.querySelectorAll('.lq-worker')].flatMap((card) => {
  const edge = card.getBoundingClientRect();
  return [...card.querySelectorAll('*')].filter((node) => {
    const box = node.getBoundingClientRect();
    return box.width && (box.right > edge.right + 0.5 || box.left < edge.left - 0.5);
  }).map((node) => `worker ${card.dataset.worker}: ${node.className || node.tagName}`);
})"""


def places_while_playing(sim, page, seconds=1.0):
    seen = set()
    for _ in range(int(seconds * 20)):
        seen.add(sim.root.evaluate(PLACES))
        page.wait_for_timeout(50)
    return seen


@pytest.mark.parametrize("width", [1280, 390])
def test_worker_cards_keep_their_size_and_hold_their_contents(browser, real_site, width):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": width, "height": 900})
    page.goto(real_site.at(LEASES))
    sim = Sim(page, "live-queue").start()
    sim.root.locator(".lq-workers").scroll_into_view_if_needed()
    before = sim.root.evaluate(PLACES)
    sim.set_speed("10")
    sim.button("Play").click()
    seen = places_while_playing(sim, page)
    sim.pause()
    assert seen == {before}, f"the buttons moved while playing: {sorted(seen)}"
    expect(sim.part("outcome")).not_to_have_text("0 of 6 jobs done, 0 emails sent.")   # it did play

    sim.button("Reset").click()
    for tick in (1, 2):
        sim.button("Step").click()
        expect(sim.part("time")).to_have_text(f"0.{tick} s")
    sim.button("Kill worker 2").click()
    expect(sim.button("Restart worker 2")).to_be_visible()
    assert sim.root.evaluate(OVERFLOW) == []
    assert sim.root.evaluate(PLACES) == before                # killed, the card keeps its size
    context.close()
    watch.check()


TICKS = """root => [...root.querySelectorAll('.ct-tick')]
  .filter((tick) => getComputedStyle(tick).visibility !== 'hidden')
  .map((tick) => { const box = tick.getBoundingClientRect(); return [box.left, box.right, tick.textContent]; })"""


def test_the_time_axis_labels_do_not_run_together_on_a_phone(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": 390, "height": 844})
    page.goto(real_site.at(LEASES))
    for sim_id in ("sim-crash-points", "sim-lease-too-short"):
        sim = Sim(page, id=sim_id).start()
        sim.set_speed("5")
        sim.button("Play").click()
        expect(sim.button("Play again")).to_be_visible(timeout=30_000)
        ticks = sim.root.evaluate(TICKS)
        assert len(ticks) >= 4 and ticks[0][2] == "0 s"
        for (_, right, text), (left, _, following) in zip(ticks, ticks[1:]):
            assert right + 4 <= left, f"{sim_id}: '{text}' runs into '{following}'"
    context.close()
    watch.check()


def test_a_printed_payments_widget_stays_inside_its_column(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport={"width": 695, "height": 900})
    page.goto(real_site.at(RETRY))
    page.emulate_media(media="print")
    roots = page.locator('.sim[data-sim="payments"]')
    assert roots.count() >= 1
    for root in roots.all():
        wide = root.evaluate("""root => { const edge = root.getBoundingClientRect().right;
          return [...root.querySelectorAll('.sim-widget *')].filter((node) => node.getBoundingClientRect().right > edge + 0.5)
            .map((node) => node.tagName + '.' + node.className).slice(0, 5); }""")
        assert wide == []
        clipped = root.evaluate("""root => [...root.querySelectorAll('.sim-table-box')]
          .filter((box) => box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1).length""")
        assert clipped == 0
    context.close()
    watch.check()
