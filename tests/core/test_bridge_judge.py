"""The bridge's judge op: the page's one door to simulations/judge.py's verdict (JSON in, JSON
out). It judges a trace recorded in the reader's own worker (simulations/judge/reader.py) and
never runs the reader's code itself."""
import json

from simulations.judge import reader as _judge_reader
from simulations.judge import EXERCISES
from tests.support.bridge_calls import call


def recorded(exercise, code, seed):
    """The reader's worker's reply to a Run, as the page receives it."""
    reply = json.loads(_judge_reader.handle(json.dumps(
        {"op": "record", "exercise": exercise, "code": code, "seed": seed})))
    assert reply["ok"], reply
    return reply["trace"]


def test_the_chapters_fix_passes_and_the_start_fails_with_its_story():
    trace = recorded("payments-handler", EXERCISES["payments-handler"]["fixed"], 3)
    fixed = call(op="judge", exercise="payments-handler", trace=trace, seed=3, req=9)
    assert fixed["ok"] and fixed["req"] == 9 and fixed["result"]["passed"] is True
    trace = recorded("payments-handler", EXERCISES["payments-handler"]["start"], 3)
    start = call(op="judge", exercise="payments-handler", trace=trace, seed=3)
    assert start["ok"] and start["result"]["passed"] is False
    assert start["result"]["problems"] and start["result"]["story"]


def test_a_readers_syntax_error_is_a_result_at_its_line_not_a_failed_reply():
    trace = recorded("shop-handlers", "x = 1\ndef f(:\n", 0)
    reply = call(op="judge", exercise="shop-handlers", trace=trace, seed=0)
    assert reply["ok"] and reply["result"]["error"]["kind"] == "syntax"
    assert reply["result"]["error"]["line"] == 2


def test_bad_input_names_its_field_and_code_is_never_run_here():
    assert call(op="judge", exercise="nope", trace={}, seed=0)["error"]["field"] == "exercise"
    assert call(op="judge", exercise="race-claim", trace={}, seed="7")["error"]["field"] == "seed"
    assert call(op="judge", exercise="race-claim", trace={}, seed=True)["error"]["field"] == "seed"
    code = call(op="judge", exercise="race-claim", code=EXERCISES["race-claim"]["fixed"], seed=0)
    assert code["error"]["field"] == "code" and "worker of its own" in code["error"]["message"]


def test_a_trace_that_is_not_one_fails_the_audit_in_words():
    for trace in (None, [], "passed", {"calls": "x"}, {"calls": [1, 2]}, {"schedules": [{}]}):
        for exercise in EXERCISES:
            result = call(op="judge", exercise=exercise, trace=trace, seed=1)["result"]
            assert result["passed"] is False and result["problems"], (exercise, trace)


def test_the_readers_worker_answers_any_exception_in_words():
    for code in ("raise SystemExit", "import json\njson.loads('{')"):
        reply = json.loads(_judge_reader.handle(json.dumps(
            {"op": "record", "exercise": "shop-handlers", "code": code, "seed": 0})))
        assert reply["ok"] and reply["trace"]["error"]["kind"] == "exception"
    for message in ("not json", json.dumps({"op": "judge"}), json.dumps({"op": "record", "code": 3})):
        reply = json.loads(_judge_reader.handle(message))
        assert reply["ok"] is False and reply["error"]["message"]


def test_a_trace_too_big_to_judge_is_refused_in_the_readers_worker():
    code = EXERCISES["payments-handler"]["fixed"].replace(
        '    bank.charge(', '    for _ in range(200):\n        queue.db.execute("SELECT ?", ("x" * 2000,))\n    bank.charge(')
    reply = json.loads(_judge_reader.handle(json.dumps(
        {"op": "record", "exercise": "payments-handler", "code": code, "seed": 1})))
    assert reply["ok"] is False and "more than the judge reads" in reply["error"]["message"]
