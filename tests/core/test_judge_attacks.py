"""Hostile code against the judge, as the page runs it: the reader's code in an interpreter of its
own (here a separate CPython process running simulations/judge/reader.py, as the page runs it in
a throwaway worker), the verdict in another (this one), from the trace alone. Each attack that
once produced "passed" for wrong code, or reached the judge, now fails the audit or is refused.

The frame walk below uses no `__` name and none of the refused names: it is the walk that the
static check (simulations/judge/sandbox.py) cannot see, and it does reach the real builtins of the
reader's interpreter. That interpreter is thrown away; the verdict is not in it."""
import json
import subprocess
import sys

import pytest

from simulations.judge import EXERCISES, verdict
from tests.conftest import ROOT
from tests.support.judge_probe import REAL_BUILTINS

PAYMENTS = EXERCISES["payments-handler"]
RACE = EXERCISES["race-claim"]
SHOP = EXERCISES["shop-handlers"]

def recorded(exercise, code, seed):
    """The reader's worker's reply, made in a process of its own, as JSON data."""
    message = json.dumps({"op": "record", "exercise": exercise, "code": code, "seed": seed})
    program = ("import sys; from simulations.judge.reader import handle; "
               "sys.stdout.write(handle(sys.stdin.read()))")
    done = subprocess.run([sys.executable, "-c", program], input=message, capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=True)
    return json.loads(done.stdout)


def judged(exercise, code, seed):
    reply = recorded(exercise, code, seed)
    return verdict(exercise, reply.get("trace"), seed)


def test_the_frame_walk_reaches_the_real_builtins_of_the_readers_interpreter_only():
    code = REAL_BUILTINS + 'print(sorted(real_import("sys").modules)[:1])\n' + PAYMENTS["start"]
    result = judged("payments-handler", code, 3)
    assert result["printed"], result            # the walk works there...
    assert result["passed"] is False            # ...and the flawed handler still fails here


def test_replacing_json_dumps_cannot_forge_a_verdict():
    forged = json.dumps({"ok": True, "result": {"passed": True}, "trace": {"calls": []}})
    code = f"import json\njson.dumps = lambda *a, **k: {forged!r}\n" + PAYMENTS["start"]
    for seed in (3, 2):
        result = judged("payments-handler", code, seed)
        assert result["passed"] is False and result["problems"], result
    # and nothing carries over: the next run's interpreter is a new one
    assert judged("payments-handler", PAYMENTS["start"], 3)["passed"] is False


def test_the_judges_own_run_object_is_not_within_reach_by_name():
    code = PAYMENTS["start"] + "print(queue._run)\n"
    result = judged("payments-handler", code, 3)
    assert result["passed"] is False and result["error"]["kind"] == "exception"


def test_de_duplicating_the_charges_in_the_readers_world_changes_nothing_here():
    code = REAL_BUILTINS + PAYMENTS["start"].replace(
        '    bank.charge("alice", job.args["amount"], idempotency_key=key)',
        '    try:\n'
        '        bank.charge("alice", job.args["amount"], idempotency_key=key)\n'
        '    finally:\n'
        '        frame = real_import("sys")._getframe()\n'
        '        while frame is not None:\n'
        '            run = frame.f_locals.get("self")\n'
        '            if hasattr(run, "charges"):\n'
        '                seen = set()\n'
        '                run.charges[:] = [c for c in run.charges if not (c[2] in seen or seen.add(c[2]))]\n'
        '            frame = frame.f_back\n')
    result = judged("payments-handler", code, 3)
    assert result["passed"] is False and any("charged 2 times" in p for p in result["problems"])


def test_patching_the_judge_in_the_readers_interpreter_does_not_reach_the_verdict():
    code = REAL_BUILTINS + (
        'judge = real_import("simulations.judge", fromlist=["x"])\n'
        'fake = lambda *args, **kwargs: {"passed": True, "orders": [], "problems": [], "story": [], "figures": {}}\n'
        'judge.VERDICTS["payments-handler"] = fake\n'
        'shop = real_import("simulations.judge.payments", fromlist=["x"])\n'
        'shop.verdict_payments = fake\n') + PAYMENTS["start"]
    assert judged("payments-handler", code, 3)["passed"] is False


def test_an_address_whose_eq_matches_everything_is_refused():
    code = SHOP["fixed"].replace(
        'world.send_email(email, "Welcome!", idempotency_key=f"welcome-email:{email}")',
        'world.send_email(Everyone(email), "Welcome!", idempotency_key=f"welcome-email:{email}")')
    code = "class Everyone(str):\n    pass\n" + code
    result = judged("shop-handlers", code, 3)
    assert result["passed"] is False
    assert result["error"]["kind"] == "exception" and "must be text" in result["error"]["message"]


@pytest.mark.parametrize("trace", [
    {"calls": []},
    {"calls": [{"job": 1, "attempt": 1, "events": [], "end": ["return"]}] * 10},
    {"calls": [{"job": n, "attempt": 1, "events": [["charge", "alice", 10, f"order-{n}", ["ok", "charged"]]],
                "end": ["return"]} for n in range(1, 11)], "lines": 10},
])
def test_a_forged_trace_fails_unless_the_judges_world_performs_a_correct_run(trace):
    result = verdict("payments-handler", trace, 3)
    assert result["passed"] is False and result["problems"]
    assert "could not be replayed" in result["problems"][0] or "charged" in " ".join(result["problems"])


def test_a_trace_that_answers_for_the_world_is_not_believed():
    """The reader's side says the bank answered "already charged" to every retry: the judge's
    bank, which saw a new key, did not; the trace does not fit and fails."""
    honest = recorded("payments-handler", PAYMENTS["start"], 3)["trace"]
    for call in honest["calls"]:
        for event in call["events"]:
            if event[0] == "charge" and event[-1] == ["ok", "charged"]:
                event[-1] = ["ok", "already charged"]
    result = verdict("payments-handler", honest, 3)
    assert result["passed"] is False and "could not be replayed" in result["problems"][0]


# --- the race: a claim that is not atomic fails on every seed ------------------------------------

PARTITIONED = (  # look, then grab, but each worker looks only at "its" jobs: no two ever meet
    "SELECT id FROM jobs WHERE status = 'queued' AND (id % 3) = "
    "(CASE :worker WHEN 'A' THEN 0 WHEN 'B' THEN 1 ELSE 2 END) ORDER BY id LIMIT 1;\n"
    "UPDATE jobs SET status = 'running', locked_until = :now + :lease WHERE id = :id;\n")


@pytest.mark.parametrize("name, code", [("the chapter's start", RACE["start"]),
                                        ("partitioned by worker name", PARTITIONED)])
def test_a_claim_that_is_not_atomic_fails_on_every_seed(name, code):
    from simulations.judge import judge
    passed = [seed for seed in range(40) if judge("race-claim", code, seed=seed)["passed"]]
    assert passed == [], f"{name} passed on seeds {passed}"


def test_the_atomic_claim_passes_under_every_order():
    from simulations.judge import judge
    for seed in range(10):
        result = judge("race-claim", RACE["fixed"], seed=seed)
        assert result["passed"], (seed, result["problems"])


def test_a_trace_whose_handler_ends_in_an_exception_of_its_own_fails_in_words():
    honest = recorded("payments-handler", PAYMENTS["fixed"], 3)["trace"]
    honest["calls"][0]["end"] = ["raise", "other"]
    result = verdict("payments-handler", honest, 3)
    assert result["passed"] is False and "could not be replayed" in result["problems"][0]
