"""The judge: the reader's own code, run under the chaos monkey on virtual time, and audited.

    from simulations.judge import judge, EXERCISES
    result = judge("shop-handlers", EXERCISES["shop-handlers"]["start"], seed=7)

judge(exercise, code, seed) -> a JSON-able dict (see judge()). Same (exercise, code, seed, options),
same result, in CPython and in Pyodide: every bit of bad luck comes from the seed, time is
virtual, and workers are cooperative (no threads, no processes). Exercises:
  shop-handlers  the capstone shop's three handlers (code/capstone/shop.py), with chaos.py's
                 audit: each customer gets 1 welcome email, pays $5 once, has 10 points.
  race-claim     the claim's SQL, run by three workers a statement at a time (simulations/race.py).
  payments-handler  the charge handler of simulations/payments.py: each of Alice's orders
                 charged exactly once by a bank behind a network that loses requests and replies.
judge() is two halves, which the page runs in two interpreters:
  record(exercise, code, seed)   in the reader's own throwaway worker: runs the code in a world
                                 that records the effects it asks for; returns a trace (JSON).
  verdict(exercise, trace, seed) in the simulations' worker: replays the trace's effects in the
                                 judge's own world and audits that world (judge/effects.py).
Nothing the code does inside its own interpreter reaches the verdict: a trace is only a list of
effects, and the judge's world decides what each one did. The static check in judge/sandbox.py is a
guard for honest mistakes, not a boundary. A run's work is bounded (lines of the reader's code,
statements, turns); a loop inside one C call cannot be stopped in-process, so the page ends the
reader's worker after a few seconds.
"""
import json
import textwrap

from .effects import Diverged
from .payments import record_payments, verdict_payments
from .race import record_race, verdict_race
from .shop import record_shop, replay_shop
from .sandbox import MAX_PRINTED, ReaderError
from ..race.model import NAIVE_GRAB, NAIVE_LOOK
from ..engine.capstone import tinyq

SHOP_START = '''\
import uuid

# An effect in another system: the key should name the work.
@queue.handler("send_welcome_email")
def send_welcome_email(job):
    email = job.args["email"]
    key = str(uuid.uuid4())          # a fresh key on every attempt
    world.send_email(email, "Welcome!", idempotency_key=key)


@queue.handler("charge_signup_fee")
def charge_signup_fee(job):
    email = job.args["email"]
    world.charge(email, SIGNUP_FEE, idempotency_key=f"signup-fee:{email}")


# An effect in our own database.
@queue.handler("award_points")
def award_points(job):
    queue.db.execute("UPDATE customers SET points = points + ? WHERE email = ?",
                     (WELCOME_POINTS, job.args["email"]))
'''

SHOP_FIXED = '''\
# An effect in another system: the key names the work, so a repeat is absorbed.
@queue.handler("send_welcome_email")
def send_welcome_email(job):
    email = job.args["email"]
    world.send_email(email, "Welcome!", idempotency_key=f"welcome-email:{email}")


@queue.handler("charge_signup_fee")
def charge_signup_fee(job):
    email = job.args["email"]
    world.charge(email, SIGNUP_FEE, idempotency_key=f"signup-fee:{email}")


# An effect in our own database: committed in the transaction that marks the job done.
@queue.handler("award_points")
def award_points(job):
    with job.complete() as db:
        db.execute("UPDATE customers SET points = points + ? WHERE email = ?",
                   (WELCOME_POINTS, job.args["email"]))
'''

PAYMENTS_START = '''\
import uuid

@queue.handler("charge")
def charge(job):
    key = f"order-{job.args['order']}-{uuid.uuid4()}"   # a new key on every attempt
    bank.charge("alice", job.args["amount"], idempotency_key=key)
'''

PAYMENTS_FIXED = '''\
@queue.handler("charge")
def charge(job):
    key = f"order-{job.args['order']}"      # one key per order, the same on every attempt
    bank.charge("alice", job.args["amount"], idempotency_key=key)
'''

EXERCISES = {
    "shop-handlers": {
        "title": "The shop’s handlers under the chaos monkey",
        "what": "the shop’s three handlers (Python)",
        "language": "python",
        "names": ["queue", "world", "SIGNUP_FEE", "WELCOME_POINTS", "LeaseLost"],
        "flaw": "the welcome email's key is made afresh on every attempt, and the points are "
                "added outside job.complete(), so a crash before the ack adds them again",
        "start": SHOP_START,
        "fixed": SHOP_FIXED,
    },
    "race-claim": {
        "title": "Your claim, raced by three workers",
        "what": "the claim’s SQL (one or more statements, each ended by ;)",
        "language": "sql",
        "names": [":now", ":lease", ":worker", "the columns of earlier rows"],
        "flaw": "look, then grab: between the SELECT and the UPDATE another worker can look "
                "and see the same job still queued",
        "start": f"{NAIVE_LOOK};\n{NAIVE_GRAB};\n",
        "fixed": textwrap.dedent(tinyq.CLAIM_JOB).strip() + ";\n",
    },
    "payments-handler": {
        "title": "Charging Alice: your handler, a flaky network",
        "what": "the charge handler (Python)",
        "language": "python",
        "names": ["queue", "bank", "LeaseLost"],
        "flaw": "a new idempotency key on every attempt: after a lost reply the retry is a "
                "new charge to the bank",
        "start": PAYMENTS_START,
        "fixed": PAYMENTS_FIXED,
    },
}

RECORDERS = {"shop-handlers": record_shop, "race-claim": record_race,
             "payments-handler": record_payments}
VERDICTS = {"shop-handlers": replay_shop, "race-claim": verdict_race,
            "payments-handler": verdict_payments}
ERROR_KINDS = ("syntax", "refused", "exception", "budget", "missing")


def _check(exercise, seed):
    if exercise not in RECORDERS:
        raise ValueError(f"no exercise {exercise!r}; there are {', '.join(RECORDERS)}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be a whole number, got {seed!r}")


def _options(exercise, function, *args, **options):
    try:
        return function(*args, **options)
    except TypeError as error:
        if "unexpected keyword" in str(error):
            raise ValueError(f"{exercise}: {error}") from None
        raise


def record(exercise, code, seed=0, **options):
    """Run `code` (text) for `exercise` on `seed` in this interpreter, recording what it asks
    for. Returns a JSON-able trace: {"exercise", "seed", "error": None or {"kind", "line",
    "message", "text"}, "printed": [lines], ...the exercise's effects}. Meant for the reader's
    own worker (simulations/judge/reader.py): nothing here decides a verdict.
    Raises ValueError for an unknown exercise or option, TypeError if code is not text."""
    _check(exercise, seed)
    if not isinstance(code, str):
        raise TypeError(f"code must be text, got {type(code).__name__}")
    trace = {"exercise": exercise, "seed": seed, "error": None, "printed": []}
    try:
        trace.update(_options(exercise, RECORDERS[exercise], code, seed, **options))
    except ReaderError as error:
        trace["error"] = error.as_dict(code)
    return trace


def verdict(exercise, trace, seed=0, **options):
    """Audit `trace` (record()'s, as JSON data from the reader's worker: trusted in nothing) for
    `exercise` on `seed`: replay its effects in the judge's own world and check that world.
    Returns {"exercise", "seed", "passed": bool, "error": None or {"kind", "line", "message",
    "text"}, "problems": [words], "story": [events of the first failure], "figures": {...},
    "printed": [lines]} plus "customers" (shop), "jobs" (race) or "orders" (payments).
    error.kind is one of ERROR_KINDS; error.line a line of the reader's text (or None).
    A trace that does not fit the judge's run fails, with the reason as its one problem.
    Raises ValueError for an unknown exercise, a bad seed or an unknown option."""
    _check(exercise, seed)
    result = {"exercise": exercise, "seed": seed, "passed": False, "error": None,
              "problems": [], "story": [], "figures": {}, "printed": []}
    if not isinstance(trace, dict):
        result["problems"] = ["the reader's worker sent no trace of the run"]
        return result
    printed = trace.get("printed")
    if type(printed) is list:
        result["printed"] = [str(line)[:500] for line in printed[:MAX_PRINTED]]
    error = trace.get("error")
    if error is not None:
        result["error"] = _error(error)
        result["problems"] = [result["error"]["message"]]
        return result
    try:
        audit = _options(exercise, VERDICTS[exercise], trace, seed, **options)
    except Diverged as why:
        result["problems"] = [f"Your code's run could not be replayed by the judge: {why}"]
        return result
    except Exception as why:   # a trace is data from elsewhere: any shape it may take is judged
        if exercise in str(why) and "unexpected keyword" in str(why):
            raise
        result["problems"] = [f"The reader's worker sent a trace the judge cannot read "
                              f"({type(why).__name__}: {str(why)[:200]})"]
        return result
    result.update(audit)
    result["passed"] = audit["passed"] is True and not audit["problems"]
    return result


def _error(error):
    """A trace's error, kept only in the shape record() makes."""
    if not isinstance(error, dict) or error.get("kind") not in ERROR_KINDS:
        return {"kind": "exception", "line": None, "text": None,
                "message": "your code's run ended in a way the judge cannot read"}
    line = error.get("line")
    text = error.get("text")
    return {"kind": error["kind"], "line": line if type(line) is int and line > 0 else None,
            "message": str(error.get("message"))[:1000],
            "text": text[:500] if type(text) is str else None}


def judge(exercise, code, seed=0, **options):
    """record() then verdict(), in this one interpreter, with the trace passed as JSON text
    between them as the page passes it (for tests, the build's pre-judged fix and
    bench/bench_judge.py). Same errors as record()."""
    trace = json.loads(json.dumps(record(exercise, code, seed, **options)))
    return verdict(exercise, trace, seed, **options)


if __name__ == "__main__":  # a quick look: python -m simulations.judge
    for name, exercise in EXERCISES.items():
        for version in ("start", "fixed"):
            verdict = judge(name, exercise[version], seed=1)
            print(name, version, json.dumps(verdict, indent=1)[:1500])
