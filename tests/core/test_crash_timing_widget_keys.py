"""The crash-timing snapshot keys its widget draws from: the steps of worker A in the policy's
own order (each followed by the crash point named after it) and the lease in seconds."""
import pytest

from simulations import CrashTiming
from simulations.crash_timing import LEASE, POLICIES


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
