"""payments: Alice's charges go through a queue to a flaky bank, with retries.

Alice starts with $100. Each job charges her $10 for one order. The bank loses some
requests before they arrive (safe to retry) and some replies after it has charged (a
retry charges again, unless the request carries an idempotency key the bank remembers).
Some cards are declined: a definitive answer, nothing charged, which the bank stores under
the request's key like a charge. One worker retries failures (a decline too: Alice fixes her
card and the order is tried again) with capped exponential backoff and jitter, up to
max_attempts; then the job is dead. Key modes:

    none                  no key: every request that arrives is a new charge
    stable                one key per order, the same on every attempt: repeats are absorbed,
                          but a decline is stored with the key and repeated on every retry
    per-attempt           a new random key on every attempt: the classic mistake, no protection
    rotate-after-decline  one key per order, kept through lost requests and lost replies, and
                          replaced only when a decline's reply arrives (akash's rule)

The ledger compares what the queue's records say Alice owes with what the bank took.
"""
import json
import random

from ..engine.capstone import tinyq
from .bank import FlakyBank
from .money import money
from .picture import attempt_record, history_words, picture
from .view import payments_view
from ..engine.params import choice, integer, number, seed_param
from ..engine.simulation import UNFINISHED_JOBS, Agenda, Simulation, plural

START_BALANCE = 100   # dollars
PRICE = 10            # dollars per charge
ATTEMPT_SECONDS = 0.5  # virtual time one attempt takes
BACKOFF_BASE = 1.0    # seconds
BACKOFF_CAP = 30.0    # seconds
LEASE = 30.0          # seconds; one worker, never slow: leases do not run out here
MAX_ROWS = 100        # job rows in one snapshot


class Payments(Simulation):
    NAME = "payments"
    VIEW = staticmethod(payments_view)
    MAX_RUN_STEPS = 2000
    PARAMS = (
        integer("charges", "Charges of $10", 5, 1, 1000, "Orders, each charged through the queue."),
        number("lose_request", "Chance a request is lost", 0.3, 0, 1,
               "The chance a request never reaches the bank (nothing happens)."),
        number("lose_reply", "Chance a reply is lost", 0.3, 0, 1,
               "The chance the bank's reply is lost after it acted on the request."),
        number("decline", "Chance a card is declined", 0, 0, 1,
               "The chance the bank refuses a new charge outright: a definitive answer, "
               "nothing charged, and the reply says so (unless it is lost)."),
        choice("key", "Idempotency key", "none",
               ("none", "stable", "per-attempt", "rotate-after-decline"),
               "What the worker sends the bank with each charge.",
               {"none": "No key", "stable": "Stable: one key per order",
                "per-attempt": "A new key each attempt",
                "rotate-after-decline": "Stable, new after a decline"}),
        integer("max_attempts", "Max attempts", 6, 1, 20,
                "Attempts a job gets before it is dead."),
        seed_param(),
    )

    def _start(self):
        seed = self.seed
        # One generator per kind of chance, so the key mode cannot change the network's luck.
        self.queue = tinyq.Queue(lease=LEASE, max_attempts=self.params["max_attempts"],
                                 backoff_base=BACKOFF_BASE, backoff_cap=BACKOFF_CAP,
                                 clock=self.clock, rng=random.Random(f"{seed}:jitter"))
        self.bank = FlakyBank(self.queue.db, random.Random(f"{seed}:network"),
                              self.params["lose_request"], self.params["lose_reply"],
                              random.Random(f"{seed}:declines"), self.params["decline"])
        self.key_rng = random.Random(f"{seed}:keys")
        self.bank.open_account("alice", START_BALANCE)
        self.queue.handler("charge")(self._charge)
        with tinyq.transaction(self.queue.db):
            for order in range(1, self.params["charges"] + 1):
                self.queue.enqueue("charge", {"order": order, "amount": PRICE})
        self.attempts = 0
        self.history = {}        # {order: [attempt_record(...), ...]}, for the picture
        self.declines_heard = {}  # {order: declines whose reply arrived}: rotate-after-decline
        self.agenda = Agenda(self.clock)   # the worker's next attempt (simulation.py)
        self._plan_next_attempt(0.0)
        self.emit(f"Alice has {money(START_BALANCE)}; {plural(self.params['charges'], 'charge')} "
                  f"of {money(PRICE)} queued")

    def _key(self, order):
        mode = self.params["key"]
        if mode == "stable":
            return f"order-{order}"
        if mode == "per-attempt":
            return f"order-{order}-{self.key_rng.getrandbits(32):08x}"  # wrong: new each time
        if mode == "rotate-after-decline":
            declined = self.declines_heard.get(order, 0)
            return f"order-{order}" + (f"-after-decline-{declined}" if declined else "")
        return None

    def _charge(self, job):
        self.last_key = self._key(job.args["order"])   # the attempt's key, for the picture
        self.bank.charge("alice", job.args["amount"], key=self.last_key, order_id=job.args["order"])

    # --- stepping -------------------------------------------------------------------------------
    def _plan_next_attempt(self, free_at):
        """Put the worker's next attempt on the agenda: when it is free (seconds) and a job
        is due, if one is queued."""
        due = self.queue.db.execute("SELECT min(run_at) FROM jobs WHERE status = 'queued'").fetchone()[0]
        if due is not None:
            self.agenda.schedule(max(free_at, due), "worker", None)

    def next_time(self):
        return self.agenda.peek()

    def _wait_until(self, until):
        self.clock.now = max(self.clock.now, until)

    def _step(self):
        """The worker's next attempt: the clock moves to it (it slept until a job was due)."""
        if not self.agenda:
            return False
        self.agenda.pop()
        job = self.queue.work_one()
        self.attempts += 1
        order = job.args["order"]
        record = attempt_record(self.bank.last_answer, self.bank.last_reply_lost,
                                self.bank.charges_for(order), self.last_key)
        self.history.setdefault(order, []).append(record)
        if record["code"] in ("declined", "redeclined") and record["reply"] == "received":
            self.declines_heard[order] = self.declines_heard.get(order, 0) + 1
        self.emit(self._describe(job))
        # The attempt takes the worker ATTEMPT_SECONDS; the clock stays at its start, so the
        # time a snapshot shows is the time of the last thing that happened (a link to it
        # replays exactly up to there).
        self._plan_next_attempt(self.clock.now + ATTEMPT_SECONDS)

    def _describe(self, job):
        head = f"job {job.id} attempt {job.attempts}: "
        answer = self.bank.last_answer
        if job.outcome == "done":
            if answer == "already done":
                return head + "the bank had seen the key: no second charge; reply received: done"
            return head + f"the bank charged {money(PRICE)}; reply received: done"
        if answer is None:
            what = "the request was lost on the way (ConnectionError): nothing happened"
        elif answer == "declined" and not self.bank.last_reply_lost:
            what = "the bank declined the card (CardDeclined): nothing charged"
        elif answer == "declined before" and not self.bank.last_reply_lost:
            what = ("the bank had declined this key before and said so again (CardDeclined): "
                    "nothing charged")
        else:
            did = {"charged": f"charged {money(PRICE)}", "already done": "had seen the key (no charge)",
                   "declined": "declined the card", "declined before": "repeated an old decline"}
            what = f"the bank {did[answer]} but the reply was lost (TimeoutError)"
        if job.outcome == "dead":
            return head + what + "; that was the last attempt: the job is dead"
        retry_at = self.queue.db.execute("SELECT run_at FROM jobs WHERE id = ?",
                                         (job.id,)).fetchone()[0]
        return head + what + f"; retry in {retry_at - self.clock.now:.2f} s"

    # --- what the page draws ----------------------------------------------------------------
    @property
    def finished(self):
        return not self.queue.db.execute(UNFINISHED_JOBS).fetchone()[0]

    def ledger(self):
        counts = dict(self.queue.db.execute("SELECT status, count(*) FROM jobs GROUP BY status"))
        charged = self.bank.charges_by_order()
        dead = [json.loads(args)["order"] for args, in self.queue.db.execute(
            "SELECT args FROM jobs WHERE status = 'dead' ORDER BY id")]
        done = counts.get("done", 0)
        expected = START_BALANCE - PRICE * done
        actual = self.bank.balance("alice")
        duplicates = sum(n - 1 for n in charged.values() if n > 1)
        return {
            "start_balance": START_BALANCE,
            "expected_balance": expected,
            "actual_balance": actual,
            "gap": expected - actual,
            "overcharge": PRICE * duplicates,
            "duplicate_charges": duplicates,
            "duplicates_absorbed": self.bank.absorbed,
            "declines": self.bank.declines,
            "declines_replayed": self.bank.declines_replayed,
            "most_charges_for_one_order": max(charged.values(), default=0),
            "lost_requests": self.bank.lost_requests,
            "lost_replies": self.bank.lost_replies,
            "attempts": self.attempts,
            "jobs": {status: counts.get(status, 0) for status in tinyq.STATES},
            "dead_charged": sum(1 for order in dead if charged.get(order)),
            "dead_not_charged": sum(1 for order in dead if not charged.get(order)),
            "orders_charged": sum(1 for n in charged.values() if n),   # the bank's truth
            "price": PRICE,
        }

    def job_rows(self):
        charged = self.bank.charges_by_order()
        rows = []
        for job_id, status, attempts, locked_until, run_at, args, error in self.queue.db.execute(
                "SELECT id, status, attempts, locked_until, run_at, args, last_error FROM jobs "
                "ORDER BY CASE status WHEN 'running' THEN 0 WHEN 'dead' THEN 1 "
                "WHEN 'queued' THEN 2 ELSE 3 END, id LIMIT ?", (MAX_ROWS,)):
            order = json.loads(args)["order"]
            rows.append({"id": job_id, "status": status, "attempts": attempts,
                         "lease_left": self.lease_left(status, locked_until),
                         "order": order, "charged": charged.get(order, 0),
                         "retry_in": round(max(0.0, run_at - self.clock.now), 3)
                         if status == "queued" else None,
                         "last_error": error,
                         "tries": history_words(self.history.get(order, []))})
        rows.sort(key=lambda row: row["id"])
        return rows

    def verdict(self):
        """The ledger's headline, a code and its words: `open` while charges are still to come,
        `over` (duplicate charges), `dead` (no overcharge, but dead jobs), `exact`. The
        outcome sentence says the figures, so the headline does not repeat them."""
        book = self.ledger()
        if book["overcharge"]:
            return {"code": "over", "words": "Overcharged."}
        if not self.finished:
            return {"code": "open",
                    "words": "No overcharge so far." if self.attempts else "Nothing charged yet."}
        if book["jobs"]["dead"]:
            return {"code": "dead", "words": "No overcharge, but some jobs are dead."}
        return {"code": "exact", "words": "No overcharge."}

    def outcome(self):
        book = self.ledger()
        if not self.finished:
            return (f"So far: {book['jobs']['done']} of {plural(self.params['charges'], 'charge')} "
                    f"done; Alice has {money(book['actual_balance'])}.")
        parts = []
        if book["overcharge"]:
            parts.append(f"Alice was charged {money(book['overcharge'])} too much "
                         f"({plural(book['duplicate_charges'], 'duplicate charge')})")
        if book["dead_charged"]:
            parts.append(f"{plural(book['dead_charged'], 'dead job')} did charge her, though "
                         f"the queue alone cannot tell")
        if book["dead_not_charged"]:
            parts.append(f"{plural(book['dead_not_charged'], 'dead job')} never charged her")
        if not parts:
            parts.append(f"Alice paid exactly what she owes: "
                         f"{money(START_BALANCE - book['actual_balance'])}")
        if book["duplicates_absorbed"]:
            parts.append(f"the bank's key table absorbed "
                         f"{plural(book['duplicates_absorbed'], 'repeat')}")
        if book["declines_replayed"]:
            parts.append(f"the bank repeated an old decline "
                         f"{plural(book['declines_replayed'], 'time')}, because the key was kept")
        if book["actual_balance"] < 0:   # the bank lets her overdraw: say so, never hide it
            parts.append(f"her {money(START_BALANCE)} did not cover it, so her account is "
                         f"overdrawn by {money(-book['actual_balance'])}")
        sentence = "; ".join(parts)
        return sentence[0].upper() + sentence[1:] + "."

    def _state(self):
        book = self.ledger()
        return {"ledger": book, "key": self.params["key"],
                "jobs_total": self.params["charges"], "verdict": self.verdict(),
                "money": {"start": money(START_BALANCE), "price": money(PRICE),
                          "expected": money(book["expected_balance"]),
                          "actual": money(book["actual_balance"]),
                          "overcharge": money(book["overcharge"])},
                "picture": picture(self, START_BALANCE, PRICE)}
