"""Chapter 15's backpressure embed: the prose says what the reader will see, so check it.

With jobs arriving at about three a second and each taking a worker a second, the chapter says:
one or two workers fall further and further behind, three only just keep pace, and four drain the
queue. The parameters are read from the chapter's own embed, so the two cannot drift apart.
"""
import re
from pathlib import Path

import pytest

from simulations.live_queue import LiveQueue

CHAPTER = Path(__file__).resolve().parents[2] / "content" / "15-capacity-and-watching.md"


def backpressure_params():
    text = CHAPTER.read_text(encoding="utf-8")
    block = re.search(r"backpressure you can watch.*?```sim live-queue[^\n]*\n(.*?)\n---\n", text, re.S)
    assert block, "chapter 15 no longer has its backpressure embed"
    return dict(line.split(": ", 1) for line in block.group(1).splitlines())


def depths(workers, seed=0, at=(30, 60, 120)):
    sim = LiveQueue(backpressure_params(), seed=seed)
    for _ in range(workers - len(sim.workers)):
        sim.act("add_worker")
    found = []
    for seconds in at:
        sim.run(seconds)
        found.append(sim.stats()["depth"])
    return found


def test_the_embed_starts_with_one_worker_and_arrivals_of_three_a_second():
    params = backpressure_params()
    assert params["workers"] == "1" and params["rate"] == "3" and params["duration"] == "1"


@pytest.mark.parametrize("workers", [1, 2])
def test_one_or_two_workers_fall_further_and_further_behind(workers):
    at_30, at_60, at_120 = depths(workers)
    assert 20 < at_30 < at_60 < at_120


def test_three_workers_only_just_keep_pace():
    for seed in range(4):
        found = depths(3, seed)
        assert max(found) < 40, found          # nothing like the pile of one or two workers
        assert any(depth > 0 for depth in found), found   # but the queue never stays clear


def test_four_workers_drain_the_queue_and_keep_it_near_empty():
    for seed in range(4):
        found = depths(4, seed)
        assert max(found) <= 5 and min(found) <= 1, found
