"""live-queue's picture in small worker boxes (a phone's "beside" boxes, the "narrow" boxes
of many workers) draws each held job's lease as a bar, as a desktop's roomy box does: inside the
box, filled as much as the lease has left (the share its token's ring shows), readable in both
themes, a killed worker's job outlined as not renewed. And one vocabulary: a takeover says "was
worker 2" wherever it is said, never "was W2". One page (one Pyodide start) for the module, but
for 64 workers on a phone (its own context, as tests/widgets/test_live_queue_picture.py's)."""
import pytest
from playwright.sync_api import expect

from tests.support.colours import contrast, rgb
from tests.widgets.conftest import Sim, new_watched_page

TIMEOUT = 90_000   # ms: a loaded 2-core machine draws slowly
PHONE = {"width": 390, "height": 844}

# Each worker box holding a job (its token drawn in the box): its form, its bar's track and fill
# (px and colours), the share of the lease the token's ring shows (the snapshot's `lease`, in 2%
# steps), and what of the bar lies outside the box or over the token.
BARS = """root => [...root.querySelectorAll('.lqp-worker')].map((g, index) => {
  const box = g.querySelector('.lqp-worker-box').getBoundingClientRect();
  const token = [...root.querySelectorAll('.lqp-running')].find((t) => {
    const r = t.querySelector('.lqp-token-body').getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x > box.left && x < box.right && y > box.top && y < box.bottom; });
  if (!token) return null;
  const track = g.querySelector('.lqp-lease-track'), fill = g.querySelector('.lqp-lease-fill');
  const shown = getComputedStyle(track).visibility !== 'hidden' && getComputedStyle(fill).visibility !== 'hidden';
  const t = track.getBoundingClientRect(), f = fill.getBoundingClientRect();
  const body = token.querySelector('.lqp-token-body').getBoundingClientRect();
  const inside = (r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  const over = (r, s) => r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
  const ring = token.querySelector('.lqp-ring').getAttribute('stroke-dasharray');
  return { worker: index + 1, job: token.dataset.job, form: g.dataset.form, shown, width: t.width, height: t.height,
           share: f.width / t.width, lease: Number(ring.split(' ')[0]) / 100, inside: inside(t) && inside(f),
           over_token: over(t, body), dropped: token.classList.contains('lqp-dropped'),
           dashed: getComputedStyle(track).strokeDasharray, track: getComputedStyle(track).fill, fill: getComputedStyle(fill).fill };
}).filter(Boolean)"""


@pytest.fixture(scope="module")
def page(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, reduced_motion="reduce", viewport=PHONE)
    page.real_site = real_site
    yield page
    context.close()
    watch.check()


def open_at(page, query, time):
    """Chapter 5's kill-a-worker embed opened by a link (`query`), drawn at `time` (a string)."""
    page.goto(page.real_site.at(f"05-leases.html?{query}"))
    sim = Sim(page, id="sim-kill-a-worker")
    sim.root.scroll_into_view_if_needed()                 # a widget starts when it is seen
    sim.wait("ready", timeout=TIMEOUT)
    expect(sim.part("picture")).to_have_attribute("data-time", time, timeout=TIMEOUT)
    return sim


def check_bars(page, sim, form, count):
    """Every held job's box of `form` draws its bar: inside the box, clear of the token, as full as
    the lease has left, its fill at least 3:1 against its track in both themes. At least `count`."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        try:
            bars = sim.root.evaluate(BARS)
            assert len(bars) >= count, bars
            for bar in bars:
                assert bar["form"] == form and bar["shown"], bar
                assert bar["inside"] and not bar["over_token"], bar
                assert bar["width"] >= 20 and bar["height"] >= 3, bar
                assert abs(bar["share"] - bar["lease"]) <= 0.03 and 0 < bar["share"] <= 1, bar
                assert contrast(rgb(bar["fill"]), rgb(bar["track"])) >= 3, (scheme, bar)
        finally:
            page.emulate_media(color_scheme="light")
    return bars


def test_on_a_phone_each_held_jobs_box_draws_its_lease_as_a_bar(page):
    """Glance trial: "lease 3.1 s" does not say whether a lease is nearly over; a phone's boxes
    (beside) had only those words. Killed worker 2's job waits out a lease nobody renews: its bar
    is outlined dashed, as its token is."""
    sim = open_at(page, "sim-kill-a-worker.t=1.5", "1.5")   # 3 workers, lease 5 s
    check_bars(page, sim, "beside", 3)
    sim.part("picture").get_by_role("button", name="Kill worker 2", exact=True).click()
    boxes = sim.root.locator(".lqp-worker")
    expect(boxes.nth(1)).to_have_attribute("data-dropped", "true", timeout=TIMEOUT)
    sim.button("Step").click()
    expect(sim.part("picture")).to_have_attribute("data-time", "1.6", timeout=TIMEOUT)
    bars = check_bars(page, sim, "beside", 3)
    assert [bar["worker"] for bar in bars if bar["dropped"]] == [2], bars
    for bar in bars:
        assert (bar["dashed"] not in ("none", "")) == bar["dropped"], bar


def test_a_takeover_says_was_worker_n_in_every_form(page):
    """Chapter 5's lease shorter than the work, at 3.1 s: worker 1 runs job 2's 2nd try, taken
    over from worker 2. A phone's box said "was W2", a roomy one "was worker 2"."""
    sim = open_at(page, "sim-kill-a-worker.lease=1&sim-kill-a-worker.duration=3&sim-kill-a-worker.t=3.1", "3.1")
    box = sim.root.locator(".lqp-worker").nth(0)
    expect(box).to_have_attribute("data-form", "beside")
    expect(box.locator(".lqp-worker-try")).to_have_text("2nd try, was worker 2")
    picture = sim.part("picture")
    assert "was W" not in picture.inner_html() and "was W" not in picture.inner_text()
    check_bars(page, sim, "beside", 3)


@pytest.mark.parametrize("workers", [24, 32])
def test_many_workers_narrow_boxes_draw_their_bars(page, workers):
    """24 or 32 workers on a desktop: narrow boxes, which drew the lease only as the ring round
    the token (and the try as "2nd"; the key says so)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    try:
        sim = open_at(page, f"sim-kill-a-worker.workers={workers}&sim-kill-a-worker.jobs=500&sim-kill-a-worker.t=1", "1")
        expect(sim.root.locator(".lqp-worker")).to_have_count(workers)
        check_bars(page, sim, "narrow", workers)
        expect(sim.root.locator(".lqp-key")).to_contain_text("a small box says 2nd, and 5 for worker 5")
        assert "was W" not in sim.part("picture").inner_html()
    finally:
        page.set_viewport_size(PHONE)


def test_64_workers_on_a_phone_keep_the_lease_to_the_ring(browser, real_site):
    """Compact boxes (64 workers on a phone) draw no bar: a 3 px line under a 24 px button added
    nothing to the token's ring, and its row height pushed the picture past one phone screen
    (test_live_queue_picture.py's test_64_workers_fit_one_phone_screen). Each held job's ring
    still shows its lease."""
    context, page, watch = new_watched_page(browser, real_site, viewport=PHONE, reduced_motion="reduce")
    page.real_site = real_site
    try:
        sim = open_at(page, "sim-kill-a-worker.workers=64&sim-kill-a-worker.jobs=500&sim-kill-a-worker.t=1", "1")
        expect(sim.root.locator(".lqp-worker").first).to_have_attribute("data-compact", "true")
        bars = sim.root.evaluate(BARS)
        assert len(bars) >= 64, bars
        for bar in bars:
            assert bar["form"] == "narrow" and not bar["shown"], bar
            assert 0 < bar["lease"] <= 1, bar
        assert "was W" not in sim.part("picture").inner_html()
    finally:
        context.close()
    watch.check()
