"""crash-timing: the whole table of outcomes (every crash point x every policy) against what
the guide teaches in chapters 5, 7 and 8, plus the "lease too short" case with and without
the fencing token."""
import json

import pytest

from simulations import CrashTiming, ParamError

# What the guide teaches. Effects are emails, or 10-point awards for one-transaction.
CRASH_TABLE = {
    # ack after the work: at-least-once. Only a crash between the email and the ack repeats it.
    ("ack-after-work", "none"): ("exactly once", 1),
    ("ack-after-work", "after-claim"): ("exactly once", 1),
    ("ack-after-work", "after-effect"): ("duplicated", 2),
    ("ack-after-work", "after-ack"): ("exactly once", 1),
    # ack before the work: at-most-once. A crash between the ack and the email loses it.
    ("ack-before-work", "none"): ("exactly once", 1),
    ("ack-before-work", "after-claim"): ("exactly once", 1),
    ("ack-before-work", "after-ack"): ("lost", 0),
    ("ack-before-work", "after-effect"): ("exactly once", 1),
    # effect and ack in one transaction: no crash point can separate them.
    ("one-transaction", "none"): ("exactly once", 1),
    ("one-transaction", "after-claim"): ("exactly once", 1),
    ("one-transaction", "after-effect"): ("exactly once", 1),
    ("one-transaction", "after-ack"): ("exactly once", 1),
    # an idempotency key: the repeat after a crash is absorbed by the receiver.
    ("idempotency-key", "none"): ("exactly once", 1),
    ("idempotency-key", "after-claim"): ("exactly once", 1),
    ("idempotency-key", "after-effect"): ("exactly once", 1),
    ("idempotency-key", "after-ack"): ("exactly once", 1),
    # a timer acks 1.5 s after the claim (the default), after the 1 s of work: as ack after work
    ("auto-commit", "none"): ("exactly once", 1),
    ("auto-commit", "after-claim"): ("exactly once", 1),
    ("auto-commit", "after-effect"): ("duplicated", 2),
    ("auto-commit", "after-ack"): ("exactly once", 1),
}

# A healthy but slow worker whose lease runs out: (policy, fencing) -> outcome.
SLOW_TABLE = {
    # the email leaves twice: a token cannot call back an email, it only refuses the ack
    ("ack-after-work", True): ("duplicated", 2),
    ("ack-after-work", False): ("duplicated", 2),
    # acked at once, so the job is never claimed again
    ("ack-before-work", True): ("exactly once", 1),
    ("ack-before-work", False): ("exactly once", 1),
    # the token refuses the slow worker's commit, and its points roll back with it
    ("one-transaction", True): ("exactly once", 1),
    ("one-transaction", False): ("duplicated", 2),
    # the receiver's key absorbs the second email, token or not
    ("idempotency-key", True): ("exactly once", 1),
    ("idempotency-key", False): ("exactly once", 1),
    # the timer acks at 1.5 s, before the 2 s lease runs out: never claimed again
    ("auto-commit", True): ("exactly once", 1),
    ("auto-commit", False): ("exactly once", 1),
}


def play(params):
    sim = CrashTiming(params)
    while not sim.run(until=1000):
        pass
    return sim, sim.snapshot()


def test_the_tables_cover_every_policy_and_crash_point():
    policies = CrashTiming.PARAMS[0]["choices"]
    crashes = CrashTiming.PARAMS[3]["choices"]
    assert set(CRASH_TABLE) == {(p, c) for p in policies for c in crashes}
    assert set(SLOW_TABLE) == {(p, f) for p in policies for f in (True, False)}


@pytest.mark.parametrize("policy, crash", sorted(CRASH_TABLE))
@pytest.mark.parametrize("fencing", [True, False])
def test_a_crash_at_each_point_under_each_policy(policy, crash, fencing):
    sim, snap = play({"policy": policy, "crash": crash, "fencing": fencing})
    assert (snap["result"], snap["effects"]) == CRASH_TABLE[policy, crash]
    assert snap["finished"] and not snap["in_transaction"]
    row = snap["jobs"][0]
    assert row["status"] == "done"  # even the lost one: the queue believes it is done
    died = crash != "none"
    assert (snap["workers"][0]["state"] == "killed") == died
    # retried when A died before the job was marked done
    retried = crash == "after-claim" or (crash == "after-effect" and policy != "ack-before-work")
    assert row["attempts"] == (2 if retried else 1)


@pytest.mark.parametrize("policy, fencing", sorted(SLOW_TABLE))
def test_a_lease_too_short_for_a_slow_worker(policy, fencing):
    sim, snap = play({"policy": policy, "scenario": "lease-too-short", "crash": "none",
                      "fencing": fencing})
    assert (snap["result"], snap["effects"]) == SLOW_TABLE[policy, fencing]
    kinds = [(m["worker"], m["kind"]) for m in snap["timeline"]]
    if policy not in ("ack-before-work", "auto-commit"):   # both ack before the lease runs out
        assert ("lease", "lease") in kinds and ("B", "claim") in kinds
        assert (("A", "refused") in kinds) == fencing  # the token refuses A's late finish
    assert all(w["state"] != "killed" for w in snap["workers"])  # nobody died


def test_the_idempotency_key_reports_the_absorbed_repeat():
    _, snap = play({"policy": "idempotency-key", "crash": "after-effect"})
    assert snap["absorbed"] == 1
    assert snap["outcome"] == ("Exactly once: 1 email sent; 1 repeat absorbed by the "
                               "idempotency key.")


def test_the_lost_job_is_done_in_the_queue_with_no_email():
    _, snap = play({"policy": "ack-before-work", "crash": "after-ack"})
    assert snap["outcome"] == "Lost: 0 emails sent, yet the queue says the job is done."
    assert any(m["text"].startswith("B finds nothing to claim") for m in snap["timeline"])


def test_a_crash_inside_the_transaction_rolls_the_points_back():
    sim = CrashTiming({"policy": "one-transaction", "crash": "after-effect"})
    sim.run(until=1.0)
    snap = sim.snapshot()
    assert snap["in_transaction"] and snap["position"]["A"] == "after-effect"
    assert snap["outcome"] == "So far: 10 loyalty points awarded (not committed yet)."
    sim.run(until=2.0)
    after = sim.snapshot()
    assert not after["in_transaction"] and after["effects"] == 0
    assert [m["kind"] for m in after["timeline"]][-2:] == ["crash", "rollback"]


def test_the_reader_can_crash_the_worker_at_the_point_where_it_stands():
    sim = CrashTiming({"policy": "ack-after-work", "crash": "none"})
    sim.step()  # A claims
    sim.step()  # A sends the email, and stands after the effect
    assert sim.snapshot()["position"]["A"] == "after-effect"
    sim.act("crash")
    while sim.step():
        pass
    snap = sim.snapshot()
    assert (snap["result"], snap["effects"]) == ("duplicated", 2)
    with pytest.raises(ParamError, match="worker A is dead"):
        sim.act("crash", worker="A")


def test_crash_cannot_be_chosen_for_the_lease_too_short_scenario():
    with pytest.raises(ParamError) as caught:
        CrashTiming({"scenario": "lease-too-short", "crash": "after-claim"})
    assert caught.value.field == "crash"
    CrashTiming({"scenario": "lease-too-short"})  # the default crash point is simply unused


def test_points_are_listed_in_the_policys_own_order():
    snap = CrashTiming({"policy": "ack-before-work"}).snapshot()
    assert [p["name"] for p in snap["points"]] == ["after-claim", "after-ack", "after-effect"]
    assert snap["points"][1]["label"] == "after the ack, before the email"


def test_replays_are_identical():
    first = play({"policy": "one-transaction", "scenario": "lease-too-short", "crash": "none"})[1]
    second = play({"policy": "one-transaction", "scenario": "lease-too-short", "crash": "none"})[1]
    assert json.dumps(first) == json.dumps(second)


@pytest.mark.parametrize("policy, crash", sorted(CRASH_TABLE))
def test_the_headline_says_the_verdict_in_the_outcomes_own_words(policy, crash):
    """One vocabulary: the verdict's words are the words the outcome sentence opens with."""
    sim = CrashTiming({"policy": policy, "crash": crash})
    while sim.step():
        pass
    snap = sim.snapshot()
    assert snap["outcome"].startswith(snap["verdict"]["words"] + ": ")


def test_a_kill_by_hand_shows_where_a_stood_as_the_crash_point():
    """"A does not die" and an A killed by hand never show together."""
    sim = CrashTiming({"policy": "ack-after-work", "crash": "none"})
    assert sim.snapshot()["crash_shown"] == {"point": "none", "note": None}
    sim.step()   # A claims
    sim.step()   # A sends the email, at 1 s
    sim.act("crash", worker="A")
    assert sim.snapshot()["crash_shown"] == {
        "point": "after-effect", "note": "You killed A by hand at 1 s, after the email, before the ack."}
    sim.act("reset")
    assert sim.snapshot()["crash_shown"]["point"] == "none"
