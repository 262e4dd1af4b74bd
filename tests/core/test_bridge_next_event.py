""""Step to the next event" through the page's bridge: the "next" op stops at exactly the step
where a Step pressed tick after tick would first log an event, and a run with nothing to log
stops at its limit, saying it found none."""
import pytest

from simulations import bridge
from tests.support.bridge_calls import call, fresh_bridge  # noqa: F401 (an autouse fixture)

PARAMS = {"workers": 2, "jobs": 5, "duration": 2.0}


def first_event_by_single_steps(seed, after):
    """The time and events of the first step, from `after` moves on, that logs anything."""
    call(op="create", id="one", sim="live-queue", params=PARAMS, seed=seed)
    for _ in range(after):
        call(op="step", id="one", count=1)
    while True:
        reply = call(op="step", id="one", count=1)
        assert reply["steps"] == 1
        if reply["snapshot"]["events"]:
            return reply["snapshot"]


@pytest.mark.parametrize("seed", [1, 5])
def test_next_stops_where_single_steps_first_log_an_event(seed):
    call(op="create", id="w", sim="live-queue", params=PARAMS, seed=seed)
    moves = 0
    for _ in range(4):   # four events in a row, each compared with tick-by-tick stepping
        reply = call(op="next", id="w")
        assert reply["ok"] and reply["found"]
        expected = first_event_by_single_steps(seed, moves)
        moves += reply["steps"]
        got = reply["snapshot"]
        assert got["time"] == expected["time"]
        assert got["events"] == expected["events"]
        assert got["view"] == expected["view"]
    assert moves > 4   # a 2 s job: the email and the ack are many ticks after the claim


def test_next_on_a_quiet_run_stops_at_its_limit_and_says_so():
    # one 500 s job under a longer lease: after the claim, nothing is logged for minutes
    call(op="create", id="w", sim="live-queue", seed=1,
         params={"workers": 1, "jobs": 1, "duration": 500, "lease": 1000})
    assert call(op="next", id="w")["found"]          # the claim
    reply = call(op="next", id="w")
    assert reply["ok"] and not reply["found"]
    assert reply["steps"] == bridge.MAX_QUIET_STEPS
    assert reply["words"].startswith("Nothing happened from 0.1 s to 120.1 s")


def test_next_after_the_last_event_says_the_run_is_over():
    call(op="create", id="w", sim="live-queue", params={"workers": 1, "jobs": 1, "duration": 0.5}, seed=1)
    while (reply := call(op="next", id="w"))["found"]:
        pass
    assert reply["steps"] == 0 and reply["words"] == reply["snapshot"]["still"]
