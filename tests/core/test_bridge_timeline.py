"""Time travel through the page's bridge: every simulation's id holds a Timeline,
so "back" and "seek" show exactly the snapshot the run had then, acting at an earlier moment
starts a branch and says so, and a moment (time, nth) finds its position again."""
import random

import pytest

from tests.support.bridge_calls import call, fresh_bridge  # noqa: F401 (an autouse fixture)

ACTIONS = {"live-queue": [("kill", {"worker": 1}), ("enqueue", {}), ("restart", {"worker": 1})],
           "race": [("step_a", {}), ("step_b", {})],
           "crash-timing": [("crash", {"worker": "A"})],
           "payments": []}


def without_timeline(snapshot):
    return {key: value for key, value in snapshot.items() if key != "travel"}


@pytest.mark.parametrize("sim", list(ACTIONS))
@pytest.mark.parametrize("seed", [1, 7])
def test_back_shows_each_earlier_snapshot_exactly(sim, seed):
    rng = random.Random(seed)
    params = {"jobs": 8} if sim == "live-queue" else {}
    seen = [call(op="create", id="w", sim=sim, params=params, seed=seed)["snapshot"]]
    for _ in range(30):
        if ACTIONS[sim] and rng.random() < 0.3:
            name, args = rng.choice(ACTIONS[sim])
            reply = call(op="act", id="w", name=name, args=args)
            if not reply["ok"]:          # refused (a worker already dead): nothing recorded
                continue
        else:
            reply = call(op="step", id="w", count=1)
            if reply["steps"] == 0:
                break
        seen.append(reply["snapshot"])
    assert seen[-1]["travel"]["length"] == len(seen) - 1 >= 5
    for k in range(len(seen) - 2, -1, -1):
        back = call(op="back", id="w")["snapshot"]
        assert back["travel"]["at"] == k
        assert without_timeline(back) == without_timeline(seen[k])
    middle = len(seen) // 2
    there = call(op="seek", id="w", at=middle)["snapshot"]
    assert without_timeline(there) == without_timeline(seen[middle])
    moment = there["travel"]
    again = call(op="seek", id="w", time=moment["moment"], nth=moment["nth"])["snapshot"]
    assert again["travel"]["at"] == middle


def test_acting_at_an_earlier_moment_starts_a_branch_and_says_so():
    call(op="create", id="w", sim="live-queue", params={"jobs": 5}, seed=2)
    call(op="act", id="w", name="kill", args={"worker": 1})
    assert call(op="step", id="w", count=10)["steps"] == 10
    assert call(op="act", id="w", name="enqueue", args={})["branch"] == ""   # at the end: no branch
    assert call(op="seek", id="w", at=3)["ok"]
    reply = call(op="act", id="w", name="enqueue", args={})
    assert reply["branch"].startswith("A new branch: you acted at 0.2 s")
    assert "(9 steps and actions)" in reply["branch"]
    line = reply["snapshot"]["travel"]
    assert line["at"] == line["length"] == 4
    assert [mark["words"] for mark in line["marks"]] == ["kill worker 1 at 0 s", "enqueue a job at 0.2 s"]


def test_the_race_counts_statements_and_reset_starts_a_fresh_run():
    call(op="create", id="w", sim="race")
    call(op="act", id="w", name="step_a", args={})
    line = call(op="step", id="w", count=2)["snapshot"]["travel"]
    assert line["words"] == "3 statements, of 3 statements so far"
    assert call(op="back", id="w")["snapshot"]["travel"]["words"] == "2 statements, of 3 statements so far"
    fresh = call(op="act", id="w", name="reset", args={})["snapshot"]["travel"]
    assert (fresh["length"], fresh["marks"]) == (0, [])


def test_bad_positions_are_refused_with_a_field():
    call(op="create", id="w", sim="race")
    assert call(op="seek", id="w", at=5)["error"]["field"] == "at"
    assert call(op="seek", id="w", at="1")["error"]["field"] == "at"
    assert call(op="seek", id="w", time=1, nth=-1)["error"]["field"] == "nth"
    assert call(op="run", id="w", until="soon")["error"]["field"] == "until"


def test_a_kept_run_and_a_branch_are_compared_side_by_side():
    call(op="create", id="w", sim="live-queue", params={"jobs": 3}, seed=4)
    assert call(op="compare", id="w")["error"]["field"] == "compare"     # nothing kept yet
    call(op="step", id="w", count=5)
    assert call(op="keep", id="w")["kept"].startswith("Kept this run, to 0.5 s")
    call(op="seek", id="w", at=2)
    call(op="act", id="w", name="kill", args={"worker": 1})
    call(op="step", id="w", count=30)
    reply = call(op="compare", id="w")
    shown = reply["snapshot"]["compare"]
    assert shown["moment"] == "3.2 s" and shown["kept"]["time"] > 0.5   # played on past its end
    assert shown["kept_about"] == "none of your actions"
    assert shown["live_about"] == "kill worker 1 at 0.2 s"
    assert shown["differ"].startswith("They part at 0.2 s: ")
    assert call(op="snapshot", id="w")["snapshot"]["travel"]["at"] == 33   # compare moves nothing
