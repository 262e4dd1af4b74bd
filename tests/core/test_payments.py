"""payments: the money claims of chapters 6 to 8, checked over many seeds."""
import json

import pytest

from simulations import ParamError, Payments
from tests.support.runs import settle as settled

SEEDS = range(40)


def settle(params, seed):
    return settled(Payments(params, seed=seed))


@pytest.mark.parametrize("key", ["none", "per-attempt"])
def test_without_a_stable_key_each_lost_reply_costs_alice_10_dollars(key):
    """With attempts enough that no job dies, the overcharge is exactly $10 per lost reply."""
    for seed in SEEDS:
        ledger = settle({"key": key, "max_attempts": 20}, seed)["ledger"]
        assert ledger["jobs"]["dead"] == 0
        assert ledger["overcharge"] == 10 * ledger["lost_replies"], seed
        assert ledger["expected_balance"] - ledger["actual_balance"] == ledger["overcharge"]


@pytest.mark.parametrize("key", ["none", "per-attempt"])
def test_with_dead_jobs_the_gap_is_still_10_dollars_per_lost_reply(key):
    """A dead job whose last reply was lost did charge: the queue's books miss it too."""
    for seed in SEEDS:
        ledger = settle({"key": key, "max_attempts": 2}, seed)["ledger"]
        gap = ledger["expected_balance"] - ledger["actual_balance"]
        assert gap == 10 * ledger["lost_replies"], seed
        assert gap == ledger["overcharge"] + 10 * ledger["dead_charged"], seed


def test_stable_keys_never_overcharge():
    overcharged_without = 0
    for seed in SEEDS:
        for max_attempts in (2, 6):
            ledger = settle({"key": "stable", "max_attempts": max_attempts}, seed)["ledger"]
            assert ledger["overcharge"] == 0 and ledger["duplicate_charges"] == 0, seed
            # all that can differ from the queue's books is a dead job that did charge
            assert (ledger["expected_balance"] - ledger["actual_balance"]
                    == 10 * ledger["dead_charged"])
            # every repeat that reached the bank was absorbed by the key table
            assert ledger["duplicates_absorbed"] >= ledger["lost_replies"] - ledger["dead_charged"]
        overcharged_without += settle({"key": "none"}, seed)["ledger"]["overcharge"] > 0
    assert overcharged_without > len(SEEDS) // 2  # the same dice without keys do overcharge


def test_every_key_mode_meets_the_same_network():
    """The network's luck depends on the seed alone, so modes can be compared run for run."""
    for seed in range(10):
        books = [settle({"key": key}, seed)["ledger"] for key in ("none", "stable", "per-attempt")]
        assert len({(b["lost_requests"], b["lost_replies"], b["attempts"]) for b in books}) == 1


def test_lost_requests_alone_never_cost_money():
    for seed in range(10):
        ledger = settle({"lose_request": 0.5, "lose_reply": 0, "max_attempts": 20}, seed)["ledger"]
        assert ledger["lost_requests"] > 0 and ledger["actual_balance"] == 50


def test_a_dead_job_may_or_may_not_have_charged_and_the_queue_cannot_tell():
    both = set()
    for seed in SEEDS:
        snap = settle({"key": "stable", "max_attempts": 1}, seed)
        for row in snap["jobs"]:
            if row["status"] == "dead":
                both.add(row["charged"])
                # the queue's record reads the same either way
                assert row["last_error"] in ("ConnectionError: the request never reached the bank",
                                             "TimeoutError: no reply from the bank")
    assert both == {0, 1}


def test_seed_7_tells_the_chapter_story():
    """A fixed run the chapters can quote: the words are part of the contract."""
    none = settle({"key": "none"}, 7)
    stable = settle({"key": "stable"}, 7)
    assert none["outcome"] == "Alice was charged $20 too much (2 duplicate charges)."
    assert stable["outcome"] == ("Alice paid exactly what she owes: $50; the bank's key table "
                                 "absorbed 2 repeats.")


def test_retries_back_off_with_jitter():
    sim = Payments({"charges": 1, "lose_request": 1, "max_attempts": 5})
    waits = []
    while sim.step():
        row = sim.snapshot()["jobs"][0]
        if row["retry_in"] is not None:
            waits.append(row["retry_in"])  # read at the time of the attempt that failed
    # base 1 s doubling, each wait spread over the upper half: 0.5-1, 1-2, 2-4, 4-8 seconds
    assert len(waits) == 4
    for wait, delay in zip(waits, [1, 2, 4, 8]):
        assert delay / 2 <= wait <= delay + 1e-9
    assert sim.snapshot()["jobs"][0]["status"] == "dead"


def test_runs_replay_exactly_and_snapshots_are_json():
    first = json.dumps(settle({"charges": 50, "key": "per-attempt"}, 3), allow_nan=False)
    assert first == json.dumps(settle({"charges": 50, "key": "per-attempt"}, 3))


def test_a_thousand_charges_stay_bounded_per_call():
    sim = Payments({"charges": 1000})
    assert sim.run(until=1e9) is False  # stopped by the per-call cap
    assert len(sim.snapshot()["jobs"]) == 100
    while not sim.run(until=1e9):
        pass
    assert sim.snapshot()["ledger"]["jobs"]["done"] + sim.snapshot()["ledger"]["jobs"]["dead"] == 1000


@pytest.mark.parametrize("params, field", [
    ({"charges": 0}, "charges"), ({"charges": 1001}, "charges"),
    ({"lose_request": 1.5}, "lose_request"), ({"lose_reply": "often"}, "lose_reply"),
    ({"key": "uuid4"}, "key"), ({"max_attempts": 0}, "max_attempts"),
])
def test_bad_parameters_name_the_field(params, field):
    with pytest.raises(ParamError) as caught:
        Payments(params)
    assert caught.value.field == field
