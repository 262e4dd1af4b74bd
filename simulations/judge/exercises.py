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
The reader's code runs in a fresh namespace with only the exercise's names, after a static check
that is a guard for honest mistakes and not a security boundary (see _sandbox.py). A run's work
is bounded (lines of the reader's code, statements, turns); a loop inside one C call cannot be
stopped in-process, so the page must end and restart its worker after a few seconds.
"""
import json
import textwrap

from .payments import judge_payments
from .race import judge_race
from .shop import judge_shop
from .sandbox import ReaderError
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

RUNNERS = {"shop-handlers": judge_shop, "race-claim": judge_race,
           "payments-handler": judge_payments}


def judge(exercise, code, seed=0, **options):
    """Run `code` (text) for `exercise` on `seed` (an int) and audit the result.

    options: shop-handlers takes customers (20), workers (3), chaos (0.1, a chance per crash
    point), lose_request and lose_reply (0.15 each, chances) and budget (200,000 lines of the
    reader's code); race-claim takes jobs (5) and max_statements (2,000); payments-handler takes
    orders (10), workers (2), chaos (0.1), lose_request and lose_reply (0.3 each) and budget.
    Returns {"exercise", "seed", "passed": bool, "error": None or {"kind", "line", "message",
    "text"}, "problems": [words], "story": [events of the first failure], "figures": {...},
    "printed": [lines]} plus "customers" (shop: per customer emails, charged dollars, points)
    or "jobs" (race: per job emails and status) or "orders" (payments: per order charges).
    error.kind is 'syntax', 'refused', 'exception', 'budget' or 'missing'; error.line is a line
    of the reader's text (or None).
    Raises ValueError for an unknown exercise or option, TypeError if code is not text.
    """
    if exercise not in RUNNERS:
        raise ValueError(f"no exercise {exercise!r}; there are {', '.join(RUNNERS)}")
    if not isinstance(code, str):
        raise TypeError(f"code must be text, got {type(code).__name__}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    result = {"exercise": exercise, "seed": seed, "passed": False, "error": None,
              "problems": [], "story": [], "figures": {}, "printed": []}
    try:
        audit, printed = RUNNERS[exercise](code, seed, **options)
    except TypeError as error:
        if "unexpected keyword" in str(error):
            raise ValueError(f"{exercise}: {error}") from None
        raise
    except ReaderError as error:
        result["error"] = error.as_dict(code)
        result["problems"] = [str(error)]
        return result
    result.update(audit, printed=printed)
    return result


if __name__ == "__main__":  # a quick look: python -m simulations.judge
    for name, exercise in EXERCISES.items():
        for version in ("start", "fixed"):
            verdict = judge(name, exercise[version], seed=1)
            print(name, version, json.dumps(verdict, indent=1)[:1500])
