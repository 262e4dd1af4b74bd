"""The judge (simulations/judge/exercises.py): the reader's code under the chaos monkey, audited."""
import json
import signal

import pytest

from simulations.judge.shop import KINDS, SIGNUP_FEE, WELCOME_POINTS, ShopRun
from simulations.judge.trace import ReaderWorld, record
from simulations.judge import EXERCISES, judge

SHOP = EXERCISES["shop-handlers"]
RACE = EXERCISES["race-claim"]
PAYMENTS = EXERCISES["payments-handler"]
SEEDS = range(30)
SMALL = {"customers": 8}  # a smaller shop for the many-seed tests: same crash points, less time


def shop_with(old, new, code=None):
    code = SHOP["fixed"] if code is None else code
    assert old in code
    return code.replace(old, new)


# --- the flawed starting code fails, and says what went wrong --------------------------------

def test_the_shops_starting_code_fails_and_names_the_customers():
    result = judge("shop-handlers", SHOP["start"], seed=1)
    assert not result["passed"] and result["error"] is None
    assert "customer 3 has 20 points (want 10)" in result["problems"]
    assert "customer 6 got 6 welcome emails (want 1)" in result["problems"]
    row = next(row for row in result["customers"] if row["customer"] == "customer 3")
    assert row == {"customer": "customer 3", "email": "customer03@example.com", "emails": 1,
                   "charged": 5, "points": 20, "ok": False}
    # the story of the first failure: who died where, and the retry that added the points again
    assert any("killed by the chaos monkey after the handler returned, before the ack" in event
               for event in result["story"])
    assert "attempt 2" in result["story"][-2] and "acked job" in result["story"][-1]
    json.dumps(result)  # JSON-able, for the page


def test_each_flaw_alone_is_caught():
    per_attempt_key = shop_with('idempotency_key=f"signup-fee:{email}"',
                                "idempotency_key=str(uuid.uuid4())",
                                "import uuid\n" + SHOP["fixed"])
    problems = judge("shop-handlers", per_attempt_key, seed=1)["problems"]
    assert problems and all("extra" in problem for problem in problems)
    outside = shop_with("    with job.complete() as db:\n        db.execute(",
                        "    if True:\n        queue.db.execute(")
    problems = judge("shop-handlers", outside, seed=1)["problems"]
    assert problems and all("20 points" in problem for problem in problems)


def test_the_races_look_then_grab_claim_fails_with_the_interleaving():
    result = judge("race-claim", RACE["start"], seed=1)
    assert not result["passed"]
    assert result["problems"][0] == "ada@example.com got 2 welcome emails (want 1), sent by A and B"
    assert result["story"][:4] == ["1 s, worker B: ran the SELECT on line 1: it returned job 1",
                                   "2 s, worker A: ran the SELECT on line 1: it returned job 1",
                                   "3 s, worker A: ran the UPDATE on line 2",
                                   "4 s, worker B: ran the UPDATE on line 2"]


# --- the chapter's fixed code passes on many seeds -------------------------------------------

def test_the_fixed_shop_passes_on_30_seeds_and_the_start_fails_on_them():
    for seed in SEEDS:
        fixed = judge("shop-handlers", SHOP["fixed"], seed=seed, **SMALL)
        assert fixed["passed"], (seed, fixed["problems"])
        assert fixed["figures"]["workers killed"] > 0 or seed  # the monkey does kill
    failed = sum(not judge("shop-handlers", SHOP["start"], seed=seed, **SMALL)["passed"]
                 for seed in SEEDS)
    assert failed >= 25


def test_the_atomic_claim_passes_on_30_seeds_and_the_naive_one_fails_on_most():
    assert all(judge("race-claim", RACE["fixed"], seed=seed)["passed"] for seed in SEEDS)
    assert sum(not judge("race-claim", RACE["start"], seed=seed)["passed"] for seed in SEEDS) >= 25


def test_the_payments_handler_with_a_key_per_attempt_overcharges_and_the_stable_key_does_not():
    result = judge("payments-handler", PAYMENTS["start"], seed=1)
    assert result["problems"][0] == "order 1 was charged 2 times ($10 extra)"
    assert result["problems"][-1] == "Alice was charged $190 in all (want $100)"
    assert "its reply was lost" in result["story"][2] and "attempt 2" in result["story"][4]
    assert all(judge("payments-handler", PAYMENTS["fixed"], seed=seed)["passed"] for seed in SEEDS)
    assert sum(not judge("payments-handler", PAYMENTS["start"], seed=seed)["passed"]
               for seed in SEEDS) >= 25


def test_same_seed_same_story_other_seed_other_story():
    first = judge("shop-handlers", SHOP["start"], seed=4)
    assert judge("shop-handlers", SHOP["start"], seed=4) == first
    assert judge("shop-handlers", SHOP["start"], seed=5)["story"] != first["story"]
    assert judge("race-claim", RACE["start"], seed=4) == judge("race-claim", RACE["start"], seed=4)


# --- the reader's own mistakes, at the reader's line ------------------------------------------

def test_a_syntax_error_points_at_its_line():
    code = shop_with('    email = job.args["email"]\n    world.charge',
                     '    email = job.args["email"\n    world.charge')
    error = judge("shop-handlers", code, seed=0)["error"]
    assert error["kind"] == "syntax" and error["line"] == 10
    assert error["message"].startswith("Python cannot read this line")
    sql = judge("race-claim", "SELECT id FROM jobs WHERE status = 'queued;\n", seed=0)["error"]
    assert sql["kind"] == "syntax" and sql["line"] == 1


def test_an_exception_points_at_its_line_in_the_readers_text():
    code = shop_with('world.charge(email, SIGNUP_FEE,', 'world.charge(email, SIGNUP_FEE / 0,')
    result = judge("shop-handlers", code, seed=0)
    assert not result["passed"]
    assert result["error"] == {"kind": "exception", "line": 11,
                               "message": "ZeroDivisionError: division by zero",
                               "text": 'world.charge(email, SIGNUP_FEE / 0, '
                                       'idempotency_key=f"signup-fee:{email}")'}
    bad_sql = judge("race-claim", "SELECT id FROM jobs;\nUPDATE jobz SET status = 'running';",
                    seed=0)["error"]
    assert bad_sql["kind"] == "exception" and bad_sql["line"] == 2
    assert "no such table: jobz" in bad_sql["message"]


def test_the_network_errors_are_retried_not_reported_as_the_readers():
    result = judge("shop-handlers", SHOP["fixed"], seed=1, customers=4, lose_request=0.5,
                   lose_reply=0.3)
    assert result["passed"] and result["error"] is None and result["figures"]["jobs retried"] > 0


@pytest.mark.parametrize("line, refused", [
    ("import os", "import os"),
    ("from subprocess import run", "from subprocess import ..."),
    ("import js", "import js"),
    ("import pyodide.ffi", "import pyodide.ffi"),
    ("f = open('/etc/passwd')", "the name open"),
    ("__import__('os')", "the name __import__"),
    ("eval('1')", "the name eval"),
    ("walk = ().__class__.__bases__", "the attribute .__bases__"),
])
def test_reaching_outside_is_refused_before_anything_runs(line, refused):
    code = SHOP["fixed"] + "\n" + line + "\n"
    result = judge("shop-handlers", code, seed=0)
    error = result["error"]
    assert error["kind"] == "refused" and error["line"] == code.count("\n")
    assert error["message"].startswith(f"{refused} is not available here")
    assert result["figures"] == {}  # refused before a single job ran


def test_sql_may_not_attach_a_database_file():
    for exercise, code, line in [
            ("race-claim", "ATTACH DATABASE 'elsewhere.db' AS elsewhere;", 1),
            ("shop-handlers", SHOP["fixed"] + "    queue.db.execute(\"ATTACH 'elsewhere.db' AS e\")\n",
             SHOP["fixed"].count("\n") + 1)]:
        error = judge(exercise, code, seed=0)["error"]
        assert error["kind"] == "exception" and error["line"] == line
        assert "not authorized" in error["message"]


def test_an_endless_loop_is_stopped_by_the_step_budget():
    class Hung(BaseException):  # a BaseException: neither the judge nor tinyq catches it
        pass

    def too_long(*_):
        raise Hung("the step budget did not stop the loop within 60 s")
    previous = signal.signal(signal.SIGALRM, too_long)  # fail, rather than hang the suite
    signal.alarm(60)
    try:
        endless_loops()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def endless_loops():
    code = shop_with('    email = job.args["email"]\n    world.charge',
                     '    email = job.args["email"]\n    while True:\n        pass\n'
                     '    world.charge')
    result = judge("shop-handlers", code, seed=0, budget=20_000)
    assert result["error"]["kind"] == "budget" and result["error"]["line"] in (11, 12)
    assert "more than 20,000 lines" in result["error"]["message"]
    at_the_top = judge("shop-handlers", "n = 0\nwhile True:\n    n += 1\n", seed=0, budget=5_000)
    assert at_the_top["error"]["kind"] == "budget"
    endless_claim = judge("race-claim", "SELECT 1 AS id;", seed=0)["error"]
    assert endless_claim["kind"] == "budget"


def test_a_missing_handler_and_bad_options_are_told_in_words():
    error = judge("shop-handlers", "x = 1\n", seed=0)["error"]
    assert error["kind"] == "missing" and "send_welcome_email" in error["message"]
    with pytest.raises(ValueError, match="no exercise"):
        judge("payroll", "", seed=0)
    with pytest.raises(ValueError, match="unexpected keyword"):
        judge("race-claim", RACE["fixed"], seed=0, customers=3)


def test_print_is_captured_and_the_namespace_holds_only_the_exercises_names():
    code = SHOP["fixed"] + "print(sorted(n for n in dir() if not n.startswith('_')))\n"
    printed = judge("shop-handlers", code, seed=0)["printed"]
    assert printed[0] == str(sorted(SHOP["names"] + ["award_points", "charge_signup_fee",
                                                     "send_welcome_email"]))


PYODIDE_PROGRAM = """
import json
from simulations.judge import EXERCISES, judge
runs = {f"{name} {version} {seed}": judge(name, exercise[version], seed=seed)
        for name, exercise in EXERCISES.items() for version in ("start", "fixed") for seed in (1,)}
loop = judge("shop-handlers", "while True:\\n    pass\\n", seed=0, budget=5000)["error"]
refused = judge("shop-handlers", "import js\\n", seed=0)["error"]
print(json.dumps({"runs": runs, "loop": loop, "refused": refused}))
"""


def without_line_counts(result):
    figures = {k: v for k, v in result["figures"].items() if k != "lines of your code run"}
    return {**result, "figures": figures}


def test_the_judge_gives_the_same_verdicts_in_pyodide(tmp_path):
    from .test_pyodide import run_in_pyodide
    there = run_in_pyodide(tmp_path, PYODIDE_PROGRAM)
    for key, result in there["runs"].items():
        name, version, seed = key.split()
        here = judge(name, EXERCISES[name][version], seed=int(seed))
        assert without_line_counts(result) == without_line_counts(here), key
    assert there["loop"]["kind"] == "budget" and there["loop"]["line"] in (1, 2)
    message = judge("shop-handlers", "import js\n")["error"]["message"]
    assert there["refused"] == {"kind": "refused", "line": 1, "text": "import js",
                                "message": message}


def test_a_bare_except_cannot_catch_the_monkey_a_killed_worker_stays_dead():
    send = 'world.send_email(email, "Welcome!", idempotency_key=f"welcome-email:{email}")'
    code = shop_with(f'    {send}',
                     f'    try:\n        {send}\n'
                     '    except:\n'
                     '        pass')
    run = ShopRun(seed=3, count=8, workers=3, chaos=0.3, lose_request=0, lose_reply=0)
    record(run, code, lambda recorder: {"world": ReaderWorld(recorder), "SIGNUP_FEE": SIGNUP_FEE,
                                        "WELCOME_POINTS": WELCOME_POINTS}, KINDS, 3, 100_000)
    assert run.crashes > 0
    dead = set()
    for _, _, text in run.events:
        worker = text.split(": ")[0].split(", ")[1]
        assert worker not in dead, text      # nothing more from a worker after its death
        if "killed by the chaos monkey" in text:
            dead.add(worker)
    emails = {email: run.sent.count(email) for email in run.emails}
    assert set(emails.values()) == {1}       # no lost messages here: the keys absorb the repeats
