"""Crash timing's lease bars end where their claim ends, in real Chromium: with "A does not die"
or "A dies after the ack", A's lease bar ran on to 5 s, past the ack, as if A still held the job.
A dead worker's lease, which nobody gives back, still runs to its end."""
import pytest

from tests.widgets.conftest import Sim
from tests.widgets.test_crash_timing_picture import CHAPTER, COUNT, left, right, run_with


@pytest.fixture(scope="module")
def sim(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    sim = Sim(module_page, id="sim-crash-points").start()
    sim.root.evaluate(COUNT)
    return sim


@pytest.mark.parametrize("point, words, verdict", [
    ("none", "A does not die", "Exactly once"),
    ("after-ack", "A dies after the ack", "Exactly once"),
])
def test_a_lease_bar_ends_at_the_ack(sim, point, words, verdict):
    s = run_with(sim, point, words, verdict)
    ack = next(m for m in s["timeline"] if m["kind"] == "ack" and m["worker"] == "A")
    assert [bar["end"] for bar in s["leases"] if bar["worker"] == "A"] == [ack["time"]]
    lane = sim.root.locator('.ct-lane[data-lane="A"]')
    bar = lane.locator(".ct-lease-bar").bounding_box()
    assert abs(right(bar) - left(lane.locator(".ct-mark.ct-ack").bounding_box())) < 2


def test_a_dead_workers_lease_runs_to_its_end(sim):
    s = run_with(sim, "after-effect", "A dies after the email, before the ack", "Duplicated")
    assert [bar["end"] for bar in s["leases"] if bar["worker"] == "A"] == [s["lease"]]
