"""Every bad parameter is reported at once, not one per attempt (breaker report 12, #11 and
#15: with `workers: 0` and `lease: abc` only the workers problem showed, and a second bad field
got no error of its own)."""
import json

import pytest

from simulations import CrashTiming, LiveQueue, ParamError
from simulations.bridge import handle


def test_validate_lists_every_bad_parameter_in_order():
    with pytest.raises(ParamError) as caught:
        LiveQueue({"lease": "abc", "workers": 0, "colour": "red", "rate": "-1"})
    error = caught.value
    assert [problem.field for problem in error.problems] == ["colour", "workers", "lease", "rate"]
    assert error.field == "colour" and error.problems[0] is error   # the first one is raised
    assert str(error.problems[2]) == "lease: must be a number from 0.5 to 86400, got 'abc'"


def test_a_single_problem_lists_itself():
    with pytest.raises(ParamError) as caught:
        LiveQueue({"workers": 0})
    assert caught.value.problems == [caught.value]
    with pytest.raises(ParamError) as caught:
        CrashTiming({"scenario": "lease-too-short", "crash": "after-claim"})
    assert [p.field for p in caught.value.problems] == ["crash"]


def test_the_bridge_hands_every_problem_to_the_page():
    reply = json.loads(handle(json.dumps({"op": "create", "id": "w", "sim": "live-queue",
                                          "params": {"workers": 0, "lease": "abc"}})))
    assert reply["ok"] is False and reply["error"]["field"] == "workers"
    assert reply["error"]["problems"] == [
        {"field": "workers", "message": "workers: must be from 1 to 64, got 0",
         "words": "Workers: must be from 1 to 64, got 0"},
        {"field": "lease", "message": "lease: must be a number from 0.5 to 86400, got 'abc'",
         "words": "Lease (s): must be a number from 0.5 to 86400, got 'abc'"}]
    assert reply["error"]["words"] == "Workers: must be from 1 to 64, got 0"   # in the field's words
    reply = json.loads(handle(json.dumps({"op": "nope"})))
    assert reply["error"]["problems"] == [{"field": "op", "message": reply["error"]["message"],
                                           "words": reply["error"]["message"]}]
