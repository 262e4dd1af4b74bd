"""The crash-timing snapshot keys its widget draws from: the steps of worker A in the policy's
own order (each followed by the crash point named after it), the lease in seconds, and who
produced each effect that counts."""
import pytest

from simulations import CrashTiming
from simulations.crash_timing.model import CRASH_POINTS, LEASE, POLICIES


def finish(params):
    sim = CrashTiming(params)
    while sim.step():
        pass
    return sim.snapshot()


@pytest.mark.parametrize("policy", POLICIES)
def test_each_step_is_followed_by_the_crash_point_named_after_it(policy):
    snap = CrashTiming({"policy": policy}).snapshot()
    steps = [step["name"] for step in snap["steps"]]
    assert steps[0] == "claim" and sorted(steps[1:]) == ["ack", "effect"]
    assert [point["name"] for point in snap["points"]] == [f"after-{step}" for step in steps]
    assert all(step["label"] for step in snap["steps"])


def test_ack_before_work_acks_before_it_sends():
    snap = CrashTiming({"policy": "ack-before-work"}).snapshot()
    assert [step["label"] for step in snap["steps"]] == ["claim the job", "ack", "send the email"]


@pytest.mark.parametrize("scenario", ["crash", "lease-too-short"])
def test_the_lease_is_given_in_seconds(scenario):
    snap = CrashTiming({"scenario": scenario}).snapshot()
    assert snap["lease"] == LEASE[scenario]
    sim = CrashTiming({"scenario": scenario})
    sim.step()
    assert sim.snapshot()["jobs"][0]["lease_left"] == snap["lease"]   # the claim at 0 s holds it this long


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("crash", ("none",) + CRASH_POINTS)
def test_produced_lists_each_effect_that_counts(policy, crash):
    snap = finish({"policy": policy, "crash": crash})
    assert len(snap["produced"]) == snap["effects"]
    assert all(item["worker"] in ("A", "B") for item in snap["produced"])


def test_produced_names_both_workers_of_a_duplicate():
    snap = finish({"policy": "ack-after-work", "crash": "after-effect"})
    assert snap["produced"] == [{"worker": "A", "time": 1.0, "count": 1},
                                {"worker": "B", "time": 6.5, "count": 1}]


@pytest.mark.parametrize("fencing, workers", [(False, ["B", "A"]), (True, ["B"])])
def test_produced_counts_commits_not_rolled_back_points(fencing, workers):
    snap = finish({"policy": "one-transaction", "scenario": "lease-too-short", "fencing": fencing})
    assert [item["worker"] for item in snap["produced"]] == workers
