"""crash-timing's `fail_every_attempt` and `max_attempts` (crash_timing/options.py): a later step that
fails in every attempt, not only A's, repeats the steps before it in each retry until the
attempts cap makes the job dead: a retry storm of the email."""
import pytest

from simulations import CrashTiming, ParamError


def play(**params):
    sim = CrashTiming({"fail_after_effect": True, "fail_every_attempt": True, "crash": "none",
                       **params})
    while not sim.run(until=1000):
        pass
    return sim.snapshot()


def test_ack_after_work_sends_the_email_in_every_attempt_until_the_cap_makes_it_dead():
    snap = play(policy="ack-after-work")
    assert (snap["result"], snap["effects"]) == ("dead", 5)
    assert snap["jobs"][0]["status"] == "dead" and snap["jobs"][0]["attempts"] == 5
    kinds = [m["kind"] for m in snap["timeline"]]
    assert kinds.count("claim") == 5 and kinds.count("fail") == 4 and kinds[-1] == "dead"
    assert snap["timeline"][-1]["text"] == ("B's next step fails after the email again, on "
                                            "attempt 5 of 5: the job is dead, out of attempts")
    assert snap["verdict"]["words"] == "Dead"
    assert snap["outcome"] == ("Dead: 5 emails sent in 5 attempts, and a later step failed in "
                               "each; the attempts cap (5) made the job dead.")
    # the backoff doubles between the attempts: the storm slows as it goes
    claims = [m["time"] for m in snap["timeline"] if m["kind"] == "claim"]
    gaps = [b - a for a, b in zip(claims, claims[1:])]
    assert gaps[-1] > gaps[0]
    assert not any(m["kind"] == "lease" for m in snap["timeline"])   # A's lease is not B's


@pytest.mark.parametrize("cap", [1, 2, 8])
def test_the_attempts_cap_bounds_the_storm(cap):
    snap = play(policy="ack-after-work", max_attempts=cap)
    assert (snap["effects"], snap["jobs"][0]["attempts"]) == (cap, cap)


def test_an_idempotency_key_absorbs_every_repeat_of_the_storm():
    snap = play(policy="idempotency-key")
    assert (snap["result"], snap["effects"], snap["absorbed"]) == ("dead", 1, 4)


def test_failing_only_in_as_attempt_is_still_one_retry():
    snap = play(policy="ack-after-work", fail_every_attempt=False)
    assert (snap["result"], snap["effects"], snap["jobs"][0]["attempts"]) == ("duplicated", 2, 2)


def test_a_bad_cap_is_refused_beside_its_field():
    with pytest.raises(ParamError) as caught:
        CrashTiming({"max_attempts": 0})
    assert caught.value.words.startswith("Attempts cap: must be from 1 to 20")
