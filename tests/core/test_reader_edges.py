"""Places where a reader driving the simulations met a traceback, a wrong sentence or a
wait: each test failed before its fix."""
import json
import math

import pytest

from simulations import SIMULATIONS, LiveQueue, ParamError, Payments, Race, bridge
from simulations.engine.params import show_number
from tests.support.runs import texts


def run_to_end(sim, limit=10_000.0):
    calls = 0
    while not sim.run(until=limit):
        calls += 1
    return calls


# --- 2: a lease as long as the job -----------------------------------------------------------
def test_a_lease_as_long_as_the_job_holds_to_the_ack():
    """A lease claimed at t for L seconds covers [t, t + L]: an ack at exactly t + L holds."""
    sim = LiveQueue({"workers": 8, "jobs": 200, "lease": 2, "duration": 2})
    run_to_end(sim)
    snap = sim.snapshot()
    assert snap["stats"]["duplicate_emails"] == 0 and snap["stats"]["acks_refused"] == 0
    assert snap["stats"]["done"] == 200


def test_a_lease_shorter_than_the_job_is_taken_over_and_said_so():
    sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 1.5, "duration": 2})
    sim.run(until=5)
    said = texts(sim)
    assert "job 1's lease ran out (worker 1 is still working: slow, not dead); another worker may " \
           "claim it" in said
    assert sim.snapshot()["stats"]["duplicate_emails"] == 1


def test_the_lease_is_taken_over_only_after_it_ends():
    sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 3})
    sim.run(until=0.1)
    sim.act("kill", worker=1)
    sim.run(until=3.1)
    assert sim.snapshot()["jobs"][0]["worker"] is None      # at 3.1 s the lease still covers it
    sim.run(until=3.2)
    timed = [(e["time"], e["text"]) for e in sim.snapshot()["events"]]
    assert (3.2, "worker 2 claimed job 1 again (attempt 2, token 2)") in timed


def test_a_long_job_can_have_a_longer_lease():
    sim = LiveQueue({"workers": 1, "jobs": 1, "duration": 600, "lease": 900})
    assert sim.params["lease"] == 900.0
    assert LiveQueue({"duration": 14_400, "lease": 18_000}).params["lease"] == 18_000   # hours
    with pytest.raises(ParamError, match="lease: must be from 0.5 to 86400"):
        LiveQueue({"lease": 86_401})


# --- 3: the supervisor switched while it plays ------------------------------------------------
def test_turning_the_supervisor_off_cancels_a_restart_on_its_way():
    sim = LiveQueue({"workers": 1, "jobs": 2, "supervisor": True})
    sim.run(until=0.5)
    sim.act("kill", worker=1)
    sim.act("set", param="supervisor", value=False)
    sim.run(until=10)
    snap = sim.snapshot()
    assert snap["workers"][0]["state"] == "killed" and snap["workers"][0]["restart_in"] is None
    assert snap["stuck"] and "will wait forever" in snap["outcome"]


def test_turning_the_supervisor_on_restarts_the_dead():
    sim = LiveQueue({"workers": 2, "jobs": 4})
    sim.run(until=0.5)
    sim.act("kill", worker=1)
    sim.act("kill", worker=2)
    assert sim.snapshot()["stuck"]
    sim.act("set", param="supervisor", value=True)
    snap = sim.snapshot()
    assert not snap["stuck"] and "forever" not in snap["outcome"]
    assert [w["restart_in"] for w in snap["workers"]] == [2.0, 2.0]
    run_to_end(sim)
    assert sim.snapshot()["stats"]["done"] == 4


# --- 4, 6: numbers no float holds, and NaN --------------------------------------------------
@pytest.mark.parametrize("name, field", [("live-queue", "workers"), ("live-queue", "lease"),
                                         ("race", "jobs"), ("payments", "lose_reply"),
                                         ("payments", "seed")])
def test_an_integer_beyond_the_float_range_is_a_param_error(name, field):
    with pytest.raises(ParamError) as caught:
        SIMULATIONS[name]({field: 10**400})
    assert caught.value.field == field and "must be" in str(caught.value)
    assert len(str(caught.value)) < 200   # the reader's 401 digits are not echoed in full


@pytest.mark.parametrize("action, args, field", [
    ("burst", {"count": 10**400}, "count"),
    ("stall", {"worker": 1, "seconds": 10**400}, "seconds"),
    ("kill", {"worker": 10**400}, "worker"),
    ("set", {"param": "lease", "value": 10**400}, "lease"),
])
def test_an_action_argument_beyond_the_float_range_is_a_param_error(action, args, field):
    sim = LiveQueue({"workers": 1, "jobs": 1})
    sim.run(until=0.5)
    with pytest.raises(ParamError) as caught:
        sim.act(action, **args)
    assert caught.value.field == field


@pytest.mark.parametrize("until", [10**400, math.nan, "nan", -math.inf])
def test_run_refuses_a_time_that_is_not_a_number_of_seconds(until):
    for cls in SIMULATIONS.values():
        sim = cls()
        with pytest.raises(ParamError) as caught:
            sim.run(until=until)
        assert caught.value.field == "until"
        assert sim.clock.now == 0


def call(text):
    return json.loads(bridge.handle(text))


@pytest.mark.parametrize("seconds", ["NaN", "Infinity", "1" + "0" * 400])
def test_the_bridge_refuses_seconds_that_are_not_a_number(seconds):
    bridge.live.clear()
    call('{"op": "create", "id": "w", "sim": "live-queue"}')
    reply = call('{"op": "run", "id": "w", "seconds": %s}' % seconds)
    assert reply["ok"] is False and reply["error"]["type"] == "ParamError"
    bridge.live.clear()


# --- 5: the bridge always answers with JSON ------------------------------------------------
@pytest.mark.parametrize("text", ['{"op": "list", "req": NaN}', '{"op": "list", "req": -Infinity}',
                                  "[" * 100_000 + "]" * 0, '{"a":' * 20_000 + "1" + "}" * 20_000])
def test_the_bridge_answers_strict_json_and_refuses_what_json_does_not_allow(text):
    reply = bridge.handle(text[:bridge.MAX_MESSAGE])
    parsed = json.loads(reply, parse_constant=lambda word: pytest.fail(f"{word} in the reply"))
    assert parsed["ok"] is False and parsed["error"]["type"] == "ParamError"
    assert parsed["error"]["field"] == "message"


# --- 7: finished when nothing more can happen -------------------------------------------------
def test_every_worker_dead_with_no_supervisor_is_finished():
    sim = LiveQueue({"workers": 2, "jobs": 5})
    sim.run(until=0.5)
    sim.act("kill", worker=1)
    sim.act("kill", worker=2)
    assert sim.snapshot()["finished"]
    assert run_to_end(sim, 20_000) == 0


def test_arrivals_after_the_job_cap_are_finished_once_the_work_is_done():
    sim = LiveQueue({"workers": 64, "jobs": 4_990, "rate": 50, "duration": 0.3})
    calls = run_to_end(sim, 20_000)
    snap = sim.snapshot()
    assert snap["finished"] and snap["stats"]["jobs_total"] == 5_000 and snap["stats"]["done"] == 5_000
    assert calls < 60


# --- 8: a killed worker's message never names a time already past ------------------------------
def test_a_kill_after_the_lease_ran_out_says_so_in_the_past():
    sim = LiveQueue({"workers": 1, "jobs": 1, "lease": 1, "duration": 5})
    sim.run(until=3)
    sim.snapshot()
    sim.act("kill", worker=1)
    said = texts(sim)
    assert said == ["worker 1 was killed holding job 1, whose lease ran out at 1.1 s: another "
                    "worker may claim it at once"]


def test_a_kill_inside_the_lease_says_when_it_will_run_out():
    sim = LiveQueue({"workers": 1, "jobs": 1, "lease": 5, "duration": 5})
    sim.run(until=3)
    sim.snapshot()
    sim.act("kill", worker=1)
    assert texts(sim) == ["worker 1 was killed holding job 1: the job stays running until its "
                          "lease runs out at 5.1 s"]


# --- 9: payments never states a falsehood about Alice's money ----------------------------------
def test_an_overdrawn_account_is_said_to_be_overdrawn():
    sim = Payments({"charges": 1000, "lose_request": 0, "lose_reply": 0})
    run_to_end(sim, 1e9)
    snap = sim.snapshot()
    assert snap["ledger"]["actual_balance"] == -9_900
    assert snap["outcome"] == ("Alice paid exactly what she owes: $10,000; her $100 did not "
                               "cover it, so her account is overdrawn by $9,900.")


def test_a_balance_that_covers_the_orders_is_paid_exactly():
    sim = Payments({"charges": 5, "lose_request": 0, "lose_reply": 0})
    run_to_end(sim, 1e9)
    assert sim.snapshot()["outcome"] == "Alice paid exactly what she owes: $50."


# --- 10: small things ------------------------------------------------------------------------
def test_minus_zero_is_shown_as_zero():
    assert show_number(-0.0) == "0"


@pytest.mark.parametrize("value", ["1_0", "٣", "３", "1\u00a0"])
def test_only_plain_ascii_numbers_are_accepted(value):
    with pytest.raises(ParamError) as caught:
        LiveQueue({"workers": value})
    assert caught.value.field == "workers"


def test_race_echoes_a_bad_worker_as_given():
    with pytest.raises(ParamError) as caught:
        Race().act("step", worker=None)
    assert str(caught.value) == "worker: must be A or B (this race's workers), got None"


def test_enqueue_at_the_cap_does_not_blame_an_argument_it_does_not_take():
    sim = LiveQueue({"workers": 1, "jobs": 5000})
    with pytest.raises(ParamError) as caught:
        sim.act("enqueue")
    assert caught.value.field == "action"
    with pytest.raises(ParamError) as caught:
        sim.act("burst", count=5)
    assert caught.value.field == "count"


# --- 11: payments states its verdict once ------------------------------------------------------
def test_payments_verdict_is_a_code_with_a_headline_the_outcome_does_not_repeat():
    sim = Payments({"key": "none"}, seed=7)
    run_to_end(sim, 1e9)
    snap = sim.snapshot()
    assert snap["verdict"] == {"code": "over", "words": "Overcharged."}
    assert snap["outcome"] == "Alice was charged $20 too much (2 duplicate charges)."
    fresh = Payments().snapshot()["verdict"]
    assert fresh == {"code": "open", "words": "Nothing charged yet."}


# --- 12: the slow-but-alive worker ------------------------------------------------------------
def test_stall_is_described_with_its_limits_for_the_page():
    spec = LiveQueue.STALL
    assert spec["name"] == "seconds" and spec["min"] == 0.1 and spec["max"] == 600
