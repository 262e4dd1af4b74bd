"""crash-timing's picture: worker A's lane is the control "Where worker A dies" (a
slider: dragged with a pointer, moved with the arrow keys), and choosing there answers at once, as
the radio list does; each attempt's work is drawn under its lease, so a lease too short shows the
work going on past its end; the lanes' marks name the effect (the email, the points), in the
simulation's words; axe finds nothing."""
import re

import pytest
from playwright.sync_api import expect

from tests.quality.axe import axe_violations
from tests.widgets.conftest import Sim

CHAPTER = "05-leases.html"   # sim-crash-points (crash after-claim), sim-lease-too-short
RUN = 90_000                 # ms: a new run to its end on a loaded 2-core machine

COUNT = """(root) => {
  if (!root.dataset.counted) {
    root.dataset.counted = "true";
    window.__ctSnapshots = [];
    root.addEventListener("sim-snapshot", (event) => window.__ctSnapshots.push(
      { crash: event.detail.params.crash, finished: event.detail.finished, outcome: event.detail.outcome }));
  }
  return window.__ctSnapshots.length;
}"""


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return module_page


@pytest.fixture(scope="module")
def sim(page):
    sim = Sim(page, id="sim-crash-points").start()
    sim.root.evaluate(COUNT)
    return sim


def snapshots(sim):
    return sim.page.evaluate("() => window.__ctSnapshots")


def answered(sim, point, words, since):
    """A new run with A dying at `point` went to its end (counted by sim-snapshot events after
    `since`), the radio list agrees, and the slider says the same point."""
    expect(sim.root.get_by_label(words, exact=True)).to_be_checked()
    slider = sim.root.get_by_role("slider", name="Where worker A dies")
    expect(slider).to_have_attribute("aria-valuetext", words)
    expect(sim.part("verdict")).not_to_have_text("not yet known", timeout=RUN)
    # The verdict may still be the last run's for a moment: wait for the new run's end itself.
    sim.page.wait_for_function("([since, point]) => { const seen = window.__ctSnapshots.slice(since);"
                               " return seen.length > 0 && seen[seen.length - 1].crash === point"
                               " && seen[seen.length - 1].finished; }", arg=[since, point], timeout=RUN)
    seen = snapshots(sim)[since:]
    assert seen and seen[-1]["crash"] == point and seen[-1]["finished"], seen[-3:]
    return sim.outcome()


def tick_x(sim, t):
    box = sim.root.locator(f'.ct-lane[data-lane="A"] .ct-track').bounding_box()
    tick = sim.root.locator(f'.ct-tick[data-t="{t}"]').bounding_box()
    return box, tick["x"] + (tick["width"] / 2 if t else 0)


def test_the_lane_is_a_slider_kept_in_step_with_the_radio_list(sim):
    slider = sim.root.get_by_role("slider", name="Where worker A dies")
    expect(slider).to_be_visible()
    expect(slider).to_have_attribute("aria-valuetext", "A dies after the claim, before the email")   # the chapter's
    by_radio = {}
    for point, words in (("after-effect", "A dies after the email, before the ack"),
                         ("none", "A does not die")):
        before = len(snapshots(sim))
        sim.root.get_by_label(words, exact=True).check()
        by_radio[point] = answered(sim, point, words, before)
    assert by_radio["after-effect"] == "Duplicated: 2 emails sent."

    # The keyboard: Home, then one step right, is the email-then-die point: the radio's outcome.
    before = len(snapshots(sim))
    slider.focus()
    slider.press("Home")
    answered(sim, "after-claim", "A dies after the claim, before the email", before)
    before = len(snapshots(sim))
    slider.press("ArrowRight")
    assert answered(sim, "after-effect", "A dies after the email, before the ack", before) == by_radio["after-effect"]
    before = len(snapshots(sim))
    slider.press("End")
    assert answered(sim, "none", "A does not die", before) == by_radio["none"]

    # A pointer: drag "A dies here" from the far end of A's lane back to just past 1 s.
    handle = sim.root.locator('[data-part="dies-handle"]')
    start = handle.bounding_box()
    track, x1 = tick_x(sim, 1)
    _, x2 = tick_x(sim, 2)
    y = start["y"] + start["height"] / 2
    before = len(snapshots(sim))
    sim.page.mouse.move(start["x"] + 4, y)
    sim.page.mouse.down()
    sim.page.mouse.move((x1 + x2) / 2, y, steps=5)
    sim.page.mouse.move(x1 + (x2 - x1) * 0.3, y, steps=3)     # 1.3 s: nearest is 1.25 s, after the email
    sim.page.mouse.up()
    assert answered(sim, "after-effect", "A dies after the email, before the ack", before) == by_radio["after-effect"]
    expect(handle).to_have_text(re.compile("^A dies here"))
    # The handle stands where the run's A died (its "dies" mark).
    dies = sim.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-crash').bounding_box()
    assert abs(handle.bounding_box()["x"] - dies["x"]) < 3


def test_the_marks_name_the_effect(sim):
    sim.root.get_by_label("Policy", exact=True).select_option("ack-after-work")
    sim.root.get_by_label("A does not die", exact=True).check()
    expect(sim.part("verdict")).to_have_text("Exactly once", timeout=RUN)
    expect(sim.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-effect')).to_have_text("sends the email")
    expect(sim.root.locator(".ct-mark").filter(has_text=re.compile(r"^effect$"))).to_have_count(0)
    # "adds 10 points": chapter 8's embed, whose level offers that policy (test_crash_timing_level.py)


# The line drawn under worker A's lane (the track's bottom border, or the slider's under it):
# the lowest visible bottom border of the two.
LANE_FOOT = """(lane) => Math.max(...[...lane.querySelectorAll('.ct-track, .ct-dies')].map((node) => {
  const style = getComputedStyle(node);
  const drawn = parseFloat(style.borderBottomWidth) > 0 && style.borderBottomColor !== 'rgba(0, 0, 0, 0)' && !node.hidden;
  return drawn ? node.getBoundingClientRect().bottom : -Infinity; }))"""


def test_the_picture_names_its_job_and_the_handle_sits_on_as_lane(sim):
    """Shots 11-13 of the glance trial: no job named anywhere, so "which job?" had no
    answer; "A dies here" sat in the gap between the lanes, its arrow unexplained."""
    expect(sim.part("lanes-job")).to_have_text("Both lanes are job 1 (ada): her welcome email")
    expect(sim.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-claim')).to_have_text("claims job 1", timeout=RUN)
    slider = sim.root.get_by_role("slider", name="Where worker A dies")
    expect(slider).to_have_accessible_description(re.compile(r"^Drag “A dies here” along worker A’s lane "
                                                             r"\(or focus it and press ← →\)"))
    expect(sim.part("dies-hint")).to_be_visible()
    lane = sim.root.locator('.ct-lane[data-lane="A"]')
    handle = sim.root.locator('[data-part="dies-handle"]').bounding_box()
    track = lane.locator(".ct-track").bounding_box()
    foot = lane.evaluate(LANE_FOOT)
    assert track["y"] < handle["y"] and handle["y"] + handle["height"] <= foot, (track, handle, foot)
    other = sim.root.locator('.ct-lane[data-lane="B"]').bounding_box()
    assert foot < other["y"], (foot, other)


def test_a_lease_too_short_shows_the_work_going_on_past_its_end(page):
    slow = Sim(page, id="sim-lease-too-short").start()
    expect(slow.root.get_by_role("slider", name="Where worker A dies")).to_be_hidden()   # nobody dies here
    slow.button("Run to the end").click()
    expect(slow.part("verdict")).not_to_have_text("not yet known", timeout=RUN)
    lane = slow.root.locator('.ct-lane[data-lane="A"]')
    lease, work = lane.locator(".ct-lease-bar").bounding_box(), lane.locator(".ct-work-bar").bounding_box()
    assert work["x"] + work["width"] > lease["x"] + lease["width"] + 20, (lease, work)
    late = lane.locator(".ct-work-late").bounding_box()
    assert abs(late["x"] - (lease["x"] + lease["width"])) < 3          # hatched from the lease's end
    # B's work fits inside its lease: nothing hatched on its lane.
    expect(slow.root.locator('.ct-lane[data-lane="B"] .ct-work-late')).to_have_count(0)


LAST = """(root) => {
  if (!root.dataset.lastKept) {
    root.dataset.lastKept = "true";
    root.addEventListener("sim-snapshot", (event) => { window.__ctLast = event.detail; });
  }
}"""


def last_snapshot(sim):
    return sim.page.evaluate("() => window.__ctLast")


def run_with(sim, point, words, verdict):
    """Under ack-after-work, a run with A dying at `point` (its radio's `words`) to its end: its
    verdict shown, its last snapshot returned."""
    sim.root.evaluate(LAST)
    policy = sim.root.get_by_label("Policy", exact=True)
    if policy.input_value() != "ack-after-work":
        sim.page.evaluate("() => { window.__ctLast = null; }")
        policy.select_option("ack-after-work")
        sim.page.wait_for_function("() => window.__ctLast && window.__ctLast.params.policy === 'ack-after-work'",
                                   timeout=RUN)
    sim.page.evaluate("() => { window.__ctLast = null; }")
    radio = sim.root.get_by_label(words, exact=True)
    if radio.is_checked():
        sim.button("Run to the end").click()
    else:
        radio.check()
    sim.page.wait_for_function(f"() => window.__ctLast && window.__ctLast.finished && window.__ctLast.params.crash === '{point}'",
                               timeout=RUN)
    expect(sim.part("verdict")).to_have_text(verdict, timeout=RUN)
    return last_snapshot(sim)


def left(box):
    return box["x"]


def right(box):
    return box["x"] + box["width"]


def overlaps(a, b):
    return (a["x"] < right(b) - 0.5 and b["x"] < right(a) - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


def test_a_worker_s_work_bar_ends_where_its_work_ends(sim):
    """At the ack (not half a second later, in the pause after it), or at the worker's death."""
    s = run_with(sim, "none", "A does not die", "Exactly once")
    [work] = s["work"]
    ack = next(m for m in s["timeline"] if m["kind"] == "ack")
    assert work["end"] == ack["time"]
    lane = sim.root.locator('.ct-lane[data-lane="A"]')
    bar = lane.locator(".ct-work-bar").bounding_box()
    assert abs(right(bar) - left(lane.locator(".ct-mark.ct-ack").bounding_box())) < 2

    s = run_with(sim, "after-effect", "A dies after the email, before the ack", "Duplicated")
    died = next(m for m in s["timeline"] if m["kind"] == "crash")
    assert s["work"][0]["end"] == died["time"]
    bar = lane.locator(".ct-work-bar").bounding_box()
    assert abs(right(bar) - left(lane.locator(".ct-mark.ct-crash").bounding_box())) < 2
    b_lane = sim.root.locator('.ct-lane[data-lane="B"]')
    assert abs(right(b_lane.locator(".ct-work-bar").bounding_box())
               - left(b_lane.locator(".ct-mark.ct-ack").bounding_box())) < 2


def test_the_second_email_is_marked_as_the_duplicate(sim):
    s = run_with(sim, "after-effect", "A dies after the email, before the ack", "Duplicated")
    [dup] = s["duplicates"]
    moment = s["timeline"][dup["index"]]
    assert (moment["worker"], moment["kind"], dup["label"]) == ("B", "effect", "2nd email: duplicate")
    marks = sim.root.locator(".ct-mark.ct-duplicate")
    expect(marks).to_have_count(len(s["duplicates"]))
    mark = sim.root.locator('.ct-lane[data-lane="B"] .ct-mark.ct-duplicate')
    expect(mark).to_have_text(dup["label"])
    expect(mark).to_have_attribute("title", re.compile(re.escape(dup["alt"])))
    first = sim.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-effect')
    expect(first).to_have_text("sends the email")
    expect(first).not_to_have_class(re.compile("ct-duplicate"))
    colour = lambda loc: loc.evaluate("(n) => getComputedStyle(n).backgroundColor")   # noqa: E731
    red = colour(sim.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-crash'))
    assert colour(mark) == red != colour(first)
    expect(sim.part("effects")).to_contain_text(f"by B at 6.5 s ({dup['label']})")
    # Nothing repeats: no duplicate mark.
    run_with(sim, "none", "A does not die", "Exactly once")
    expect(marks).to_have_count(0)


def test_the_now_line_is_labelled_without_covering_other_labels(sim):
    s = run_with(sim, "after-effect", "A dies after the email, before the ack", "Duplicated")
    label = sim.part("now-label")
    expect(label).to_have_text(f"now {s['time']:g} s")
    now = sim.root.locator('.ct-lane[data-lane="A"] .ct-now').bounding_box()
    box = label.bounding_box()
    assert left(box) - 1 <= now["x"] + now["width"] / 2 <= right(box) + 1, (box, now)
    others = sim.root.locator(".ct-tick, .ct-mark, .ct-dies-handle, .ct-legend > span")
    for i in range(others.count()):
        other = others.nth(i)
        if other.is_visible():
            assert not overlaps(box, other.bounding_box()), other.inner_text()
    # Stepping from the start: the label follows the snapshot's time.
    sim.button("Reset").click()
    expect(label).to_have_text("now 0 s")
    for _ in range(2):   # A claims (at 0 s), then sends the email (at 1 s)
        expect(sim.button("Step")).to_be_enabled(timeout=RUN)
        sim.button("Step").click()
    expect(label).to_have_text("now 1 s", timeout=RUN)
    assert last_snapshot(sim)["time"] == 1.0


def test_axe_finds_nothing_in_the_picture(page, sim):
    assert axe_violations(page, ".sim[data-sim='crash-timing']") == []


# Worker A's death line, as drawn: the slider handle's dashed line up the lane (its ::before,
# clipped by the slider), and the stretch across the bars when that line stops under the marks;
# and every mark of A's lane that crosses a piece of it (the one starting at the line, "dies",
# marks its time with its left edge there and does not count).
CROSSED = """lane => {
  const handle = lane.querySelector('.ct-dies-handle'), slider = lane.querySelector('.ct-dies');
  const h = handle.getBoundingClientRect(), clip = slider.getBoundingClientRect();
  const up = parseFloat(getComputedStyle(handle, '::before').height);
  const pieces = [{ left: h.left, right: h.left + 2, top: Math.max(clip.top, h.top - up), bottom: h.top }];
  for (const bars of lane.querySelectorAll('.ct-death-bars')) pieces.push(bars.getBoundingClientRect());
  const crossed = [];
  for (const mark of lane.querySelectorAll('.ct-mark')) {
    const m = mark.getBoundingClientRect();
    if (Math.abs(m.left - h.left) <= 1) continue;
    for (const p of pieces) {
      if (m.left < p.right && p.left < m.right && m.top < p.bottom && p.top < m.bottom) crossed.push(mark.textContent);
    }
  }
  return { crossed, pieces: pieces.length, x: h.left };
}"""


@pytest.mark.parametrize("point, words, outcome", [
    ("after-claim", "A dies after the claim, before the email", re.compile(r"\w")),
    ("after-effect", "A dies after the email, before the ack", "Duplicated")])
def test_no_mark_of_a_lane_crosses_the_line_where_a_dies(sim, point, words, outcome):
    """Glance trial, shot 13: "claims job 1" lay under A's death line. The line stops under the
    marks it would cross; a stretch of it still crosses the lease and the work, at A's death."""
    run_with(sim, point, words, outcome)
    lane = sim.root.locator('.ct-lane[data-lane="A"]')
    drawn = lane.evaluate(CROSSED)
    assert drawn["crossed"] == [], drawn
    if point != "after-effect":
        return
    work = lane.locator(".ct-work-bar").first.bounding_box()
    assert work["x"] < drawn["x"] <= work["x"] + work["width"] + 3, (work, drawn)   # the work ends where A dies
    if drawn["pieces"] > 1:
        bars = lane.locator(".ct-death-bars").bounding_box()
        assert abs(bars["x"] - drawn["x"]) <= 1 and bars["y"] <= work["y"] + work["height"] <= bars["y"] + bars["height"] + 1
