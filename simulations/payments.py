"""payments: Alice's charges go through a queue to a flaky bank, with retries.

Alice starts with $100. Each job charges her $10 for one order. The bank loses some
requests before they arrive (safe to retry) and some replies after it has charged (a
retry charges again, unless the request carries an idempotency key the bank remembers).
One worker retries failures with capped exponential backoff and jitter, up to
max_attempts; then the job is dead. Key modes:

    none         no key: every request that arrives is a new charge
    stable       one key per order, the same on every attempt: repeats are absorbed
    per-attempt  a new random key on every attempt: the classic mistake, no protection

The ledger compares what the queue's records say Alice owes with what the bank took.
"""
import json
import random

from ._core import tinyq
from .bank import FlakyBank
from .params import choice, integer, number, seed_param
from .simulation import UNFINISHED_JOBS, Simulation, plural

START_BALANCE = 100   # dollars
PRICE = 10            # dollars per charge
ATTEMPT_SECONDS = 0.5  # virtual time one attempt takes
BACKOFF_BASE = 1.0    # seconds
BACKOFF_CAP = 30.0    # seconds
LEASE = 30.0          # seconds; one worker, never slow: leases do not run out here
MAX_ROWS = 100        # job rows in one snapshot


class Payments(Simulation):
    NAME = "payments"
    MAX_RUN_STEPS = 2000
    PARAMS = (
        integer("charges", "Charges of $10", 5, 1, 1000, "Orders, each charged through the queue."),
        number("lose_request", "Chance a request is lost", 0.3, 0, 1,
               "The chance a request never reaches the bank (nothing happens)."),
        number("lose_reply", "Chance a reply is lost", 0.3, 0, 1,
               "The chance the bank's reply is lost after it acted on the request."),
        choice("key", "Idempotency key", "none", ("none", "stable", "per-attempt"),
               "What the worker sends the bank with each charge.",
               {"none": "No key", "stable": "Stable: one key per order",
                "per-attempt": "A new key each attempt"}),
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
                              self.params["lose_request"], self.params["lose_reply"])
        self.key_rng = random.Random(f"{seed}:keys")
        self.bank.open_account("alice", START_BALANCE)
        self.queue.handler("charge")(self._charge)
        with tinyq.transaction(self.queue.db):
            for order in range(1, self.params["charges"] + 1):
                self.queue.enqueue("charge", {"order": order, "amount": PRICE})
        self.attempts = 0
        self.emit(f"Alice has ${START_BALANCE}; {plural(self.params['charges'], 'charge')} "
                  f"of ${PRICE} queued")

    def _key(self, order):
        mode = self.params["key"]
        if mode == "stable":
            return f"order-{order}"
        if mode == "per-attempt":
            return f"order-{order}-{self.key_rng.getrandbits(32):08x}"  # wrong: new each time
        return None

    def _charge(self, job):
        self.bank.charge("alice", job.args["amount"], key=self._key(job.args["order"]),
                         order_id=job.args["order"])

    # --- stepping -------------------------------------------------------------------------------
    def next_time(self):
        due = self.queue.db.execute("SELECT min(run_at) FROM jobs WHERE status = 'queued'").fetchone()[0]
        return float("inf") if due is None else max(self.clock.now, due)

    def _wait_until(self, until):
        self.clock.now = max(self.clock.now, until)

    def _step(self):
        """One attempt by the worker, after sleeping until a job is due if none is."""
        due = self.next_time()
        if due == float("inf"):
            return False
        self.clock.now = due
        job = self.queue.work_one()
        self.attempts += 1
        self.emit(self._describe(job))
        self.clock.now += ATTEMPT_SECONDS

    def _describe(self, job):
        head = f"job {job.id} attempt {job.attempts}: "
        answer = self.bank.last_answer
        if job.outcome == "done":
            if answer == "already done":
                return head + "the bank had seen the key: no second charge; reply received: done"
            return head + f"the bank charged ${PRICE}; reply received: done"
        if answer is None:
            what = "the request was lost on the way (ConnectionError): nothing happened"
        elif answer == "charged":
            what = f"the bank charged ${PRICE} but the reply was lost (TimeoutError)"
        else:
            what = "the bank had seen the key (no charge) but the reply was lost (TimeoutError)"
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
            "lost_requests": self.bank.lost_requests,
            "lost_replies": self.bank.lost_replies,
            "attempts": self.attempts,
            "jobs": {status: counts.get(status, 0) for status in tinyq.STATES},
            "dead_charged": sum(1 for order in dead if charged.get(order)),
            "dead_not_charged": sum(1 for order in dead if not charged.get(order)),
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
                         "last_error": error})
        rows.sort(key=lambda row: row["id"])
        return rows

    def outcome(self):
        book = self.ledger()
        if not self.finished:
            return (f"So far: {book['jobs']['done']} of {plural(self.params['charges'], 'charge')} "
                    f"done; Alice has ${book['actual_balance']}.")
        parts = []
        if book["overcharge"]:
            parts.append(f"Alice was charged ${book['overcharge']} too much "
                         f"({plural(book['duplicate_charges'], 'duplicate charge')})")
        if book["dead_charged"]:
            parts.append(f"{plural(book['dead_charged'], 'dead job')} did charge her, though "
                         f"the queue alone cannot tell")
        if book["dead_not_charged"]:
            parts.append(f"{plural(book['dead_not_charged'], 'dead job')} never charged her")
        if not parts:
            parts.append(f"Alice paid exactly what she owes: ${START_BALANCE - book['actual_balance']}")
        if book["duplicates_absorbed"]:
            parts.append(f"the bank's key table absorbed "
                         f"{plural(book['duplicates_absorbed'], 'repeat')}")
        sentence = "; ".join(parts)
        return sentence[0].upper() + sentence[1:] + "."

    def _state(self):
        return {"ledger": self.ledger(), "key": self.params["key"],
                "jobs_total": self.params["charges"]}
