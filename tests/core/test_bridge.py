"""The JSON bridge the page calls: every op, and bad messages answered, never raised."""
import json

import pytest

from simulations import bridge
from tests.support.bridge_calls import call, fresh_bridge  # noqa: F401 (an autouse fixture)


def test_list_and_params_describe_every_simulation():
    listed = call(op="list")
    assert listed["ok"] and list(listed["simulations"]) == ["live-queue", "race", "crash-timing",
                                                            "payments"]
    params = call(op="params", sim="race")["params"]
    assert [spec["name"] for spec in params] == ["claim", "jobs", "workers", "seed"]


def test_a_widgets_life_create_step_act_run_snapshot_destroy():
    made = call(op="create", id="w1", sim="live-queue", params={"workers": "2", "jobs": "1"},
                seed=3, req=1)
    assert made["ok"] and made["req"] == 1 and made["id"] == "w1"
    assert made["snapshot"]["time"] == 0 and made["snapshot"]["seed"] == 3
    stepped = call(op="step", id="w1", count=5)
    assert stepped["steps"] == 5 and stepped["snapshot"]["time"] == pytest.approx(0.5)
    holder = stepped["snapshot"]["jobs"][0]["worker"]
    killed = call(op="act", id="w1", name="kill", args={"worker": holder})
    assert killed["snapshot"]["workers"][holder - 1]["state"] == "killed"
    ran = call(op="run", id="w1", seconds=20)
    assert ran["reached"] and ran["snapshot"]["jobs"][0]["attempts"] == 2
    assert call(op="snapshot", id="w1")["snapshot"]["events"] == []
    assert call(op="destroy", id="w1") == {"ok": True}
    assert call(op="snapshot", id="w1")["error"]["field"] == "id"


def test_the_same_messages_give_the_same_replies():
    def session():
        replies = [call(op="create", id="p", sim="payments", params={"key": "stable"}, seed=7)]
        replies += [call(op="step", id="p", count=3) for _ in range(4)]
        return json.dumps(replies)
    assert session() == session()


def test_run_stops_at_the_cap_and_says_so():
    call(op="create", id="big", sim="live-queue", params={"workers": 64, "jobs": 5000})
    ran = call(op="run", id="big", until=10_000)
    assert ran["ok"] and ran["reached"] is False


def test_step_reports_fewer_steps_once_finished():
    call(op="create", id="r", sim="race", params={"claim": "atomic", "jobs": 1})
    assert call(op="step", id="r", count=50)["steps"] == 5


@pytest.mark.parametrize("message, field", [
    ({"op": "create", "id": "x", "sim": "live-queue", "params": {"lease": -1}}, "lease"),
    ({"op": "create", "id": "x", "sim": "bogus"}, "sim"),
    ({"op": "create", "id": "", "sim": "race"}, "id"),
    ({"op": "create", "id": "x", "sim": "race", "params": [1]}, "params"),
    ({"op": "step", "id": "nobody"}, "id"),
    ({"op": "fly"}, "op"),
])
def test_bad_requests_come_back_as_errors_naming_the_field(message, field):
    reply = call(**message)
    assert reply["ok"] is False and reply["error"]["type"] == "ParamError"
    assert reply["error"]["field"] == field


def test_bad_arguments_on_a_live_simulation():
    call(op="create", id="w", sim="live-queue")
    assert call(op="step", id="w", count=0)["error"]["field"] == "count"
    assert call(op="step", id="w", count=10_000)["error"]["field"] == "count"
    assert call(op="run", id="w", seconds=-1)["error"]["field"] == "seconds"
    assert call(op="run", id="w")["error"]["field"] == "until"
    assert call(op="act", id="w", name="kill", args={"worker": 9})["error"]["field"] == "worker"
    assert call(op="act", id="w", name="kill", args={"who": 1})["error"]["field"] == "action"
    assert call(op="act", id="w", name="kill", args=[1])["error"]["field"] == "args"


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "null", "x" * 200_000])
def test_text_that_is_not_a_message_is_answered(text):
    reply = json.loads(bridge.handle(text))
    assert reply["ok"] is False and reply["error"]["field"] == "message"


def test_a_bug_is_reported_not_raised(monkeypatch):
    call(op="create", id="w", sim="race")
    monkeypatch.setattr(bridge.live["w"], "snapshot", lambda: 1 / 0)
    reply = call(op="snapshot", id="w", req="r9")
    assert reply["ok"] is False and reply["error"]["type"] == "ZeroDivisionError"
    assert reply["req"] == "r9" and "trace" in reply["error"]


def test_not_even_a_string_is_answered():
    assert json.loads(bridge.handle(None))["ok"] is False


def test_the_number_of_live_simulations_is_capped():
    for n in range(bridge.MAX_LIVE):
        assert call(op="create", id=f"s{n}", sim="race")["ok"]
    assert call(op="create", id="one-more", sim="race")["error"]["field"] == "id"
    assert call(op="create", id="s0", sim="race")["ok"]  # replacing one is fine


def test_a_base_exception_is_answered_in_words_not_raised(monkeypatch):
    from simulations import bridge

    for kind in (SystemExit, KeyboardInterrupt, GeneratorExit):
        def boom(request, kind=kind):
            raise kind("stop")
        monkeypatch.setattr(bridge, "_answer", boom)
        reply = call(op="list")
        assert reply["ok"] is False and reply["error"]["type"] == kind.__name__
        assert reply["error"]["words"].startswith("the simulation failed inside")


def test_crafted_actions_are_answered_in_words():
    call(op="create", id="t", sim="crash-timing")
    call(op="step", id="t", count=1)
    crash = call(op="act", id="t", name="crash", args={})      # the default worker, named in its words
    assert crash["ok"] or crash["error"]["type"] == "ParamError", crash
    call(op="create", id="q", sim="live-queue")
    for args in ({"view": [1]}, {"view": {"a": 1}}, {"page": [2]}):
        reply = call(op="act", id="q", name="table", args=args)
        assert reply["ok"] is False and reply["error"]["type"] == "ParamError", reply
        assert reply["error"]["field"] == "args"
