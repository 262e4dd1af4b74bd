"""The bridge's judge op: the page's one door to simulations/judge.py (JSON in, JSON out)."""
from simulations.judge import EXERCISES
from tests.support.bridge_calls import call


def test_the_chapters_fix_passes_and_the_start_fails_with_its_story():
    fixed = call(op="judge", exercise="payments-handler", code=EXERCISES["payments-handler"]["fixed"], seed=3, req=9)
    assert fixed["ok"] and fixed["req"] == 9 and fixed["result"]["passed"] is True
    start = call(op="judge", exercise="payments-handler", code=EXERCISES["payments-handler"]["start"], seed=3)
    assert start["ok"] and start["result"]["passed"] is False
    assert start["result"]["problems"] and start["result"]["story"]


def test_a_readers_syntax_error_is_a_result_at_its_line_not_a_failed_reply():
    reply = call(op="judge", exercise="shop-handlers", code="x = 1\ndef f(:\n", seed=0)
    assert reply["ok"] and reply["result"]["error"]["kind"] == "syntax"
    assert reply["result"]["error"]["line"] == 2


def test_bad_input_names_its_field():
    assert call(op="judge", exercise="nope", code="", seed=0)["error"]["field"] == "exercise"
    assert call(op="judge", exercise="race-claim", code=3, seed=0)["error"]["field"] == "code"
    assert call(op="judge", exercise="race-claim", code="", seed="7")["error"]["field"] == "seed"
    assert call(op="judge", exercise="race-claim", code="", seed=True)["error"]["field"] == "seed"
