"""The payments exercise: the reader's charge handler (simulations/payments.py), judged.

Alice's orders, $10 each, are charged through the queue by the reader's handler, with the same
workers, chaos monkey and flaky bank as the shop exercise (_judge_shop.py). The audit: the bank
charged each order exactly once, and every job is done.
"""
from ..engine.capstone import tinyq
from .shop import Run, ShopQueue
from .sandbox import Budget, ReaderError, load

PRICE = 10  # dollars per order
ACCOUNT = "alice"


class PaymentsRun(Run):
    def setup(self, orders):
        self.orders = list(range(1, orders + 1))
        for order in self.orders:
            self.queue.enqueue("charge", {"order": order, "amount": PRICE},
                               unique_key=f"charge:{order}")


class Bank:
    """What the reader's code calls `bank`: charge(account, dollars, idempotency_key=None)."""

    def __init__(self, run):
        self.charge = run.charge


class PaymentsQueue(ShopQueue):
    def handler(self, kind):
        if kind != "charge":
            raise ValueError(f"this exercise has one job kind, 'charge', not {kind!r}")

        def register(function):
            self._run.handlers[kind] = function
            return function
        return register


def judge_payments(code, seed, orders=10, workers=2, chaos=0.1, lose_request=0.3,
                   lose_reply=0.3, budget=200_000):
    """Run the reader's charge handler; return (audit dict, printed lines). Raises ReaderError."""
    run = PaymentsRun(seed, orders, workers, chaos, lose_request, lose_reply)
    run.handlers = {}
    meter = Budget(budget)
    names = {"queue": PaymentsQueue(run), "bank": Bank(run), "LeaseLost": tinyq.LeaseLost}
    _, printed = load(code, names, run.rng, meter)
    if "charge" not in run.handlers:
        raise ReaderError("missing", None, 'your code registers no handler for charge '
                                           '(use @queue.handler("charge"))')
    finished = run.work(meter)
    db = run.queue.db
    ids = dict(db.execute("SELECT json_extract(args, '$.order'), id FROM jobs"))
    rows, problems, first = [], [], None
    for order in run.orders:
        taken = [dollars for _, dollars, job_id in run.charges if job_id == ids[order]]
        rows.append({"order": order, "charges": len(taken), "charged": sum(taken),
                     "ok": len(taken) == 1})
        if len(taken) != 1:
            extra = (f" (${sum(taken) - PRICE} extra)" if len(taken) > 1 else "")
            problems.append(f"order {order} was charged {len(taken)} times{extra}")
            first = ids[order] if first is None else first
    for job_id, status, error in db.execute(
            "SELECT id, status, last_error FROM jobs WHERE status != 'done' ORDER BY id"):
        problems.append(f"job {job_id} (charge) ended {status}: {error or 'never finished'}")
    if not finished:
        problems.append("the run stopped with jobs still to do")
    total = sum(dollars for _, dollars, _ in run.charges)
    if total != PRICE * len(run.orders):
        problems.append(f"Alice was charged ${total} in all (want ${PRICE * len(run.orders)})")
    story = [text for job_id, _, text in run.events if job_id == first][:16] if first else []
    attempts, retried = db.execute(
        "SELECT sum(attempts), coalesce(sum(attempts > 1), 0) FROM jobs").fetchone()
    figures = {"workers killed": run.crashes, "attempts": attempts, "jobs retried": retried,
               "virtual seconds": round(run.clock.now, 2), "lines of your code run": meter.used}
    return {"passed": not problems, "orders": rows, "problems": problems, "story": story,
            "figures": figures}, printed
