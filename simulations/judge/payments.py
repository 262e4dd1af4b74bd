"""The payments exercise: the reader's charge handler (simulations/payments.py), judged.

Alice's orders, $10 each, are charged through the queue by the reader's handler, with the same
workers, chaos monkey and flaky bank as the shop exercise (judge/run.py). The audit: the bank
charged each order exactly once, and every job is done. record_payments() runs in the reader's
own interpreter; verdict_payments() replays its effects in the judge's and audits them there.
"""
from ..engine.capstone import tinyq
from .run import Run
from .trace import ReaderWorld, lines_of, record, replay

PRICE = 10  # dollars per order
ACCOUNT = "alice"
KINDS = ("charge",)


class PaymentsRun(Run):
    def setup(self, orders):
        self.orders = list(range(1, orders + 1))
        for order in self.orders:
            self.queue.enqueue("charge", {"order": order, "amount": PRICE},
                               unique_key=f"charge:{order}")


def record_payments(code, seed, orders=10, workers=2, chaos=0.1, lose_request=0.3,
                    lose_reply=0.3, budget=200_000):
    """The reader's charge handler, run and recorded (judge/trace.py, record). Raises ReaderError."""
    run = PaymentsRun(seed, orders, workers, chaos, lose_request, lose_reply)
    return record(run, code, lambda recorder: {"bank": ReaderWorld(recorder),
                                                "LeaseLost": tinyq.LeaseLost}, KINDS, seed, budget)


def verdict_payments(trace, seed, orders=10, workers=2, chaos=0.1, lose_request=0.3,
                     lose_reply=0.3, budget=200_000):
    """Replay a trace's charges in the judge's run; return the audit dict. Raises Diverged."""
    run = PaymentsRun(seed, orders, workers, chaos, lose_request, lose_reply)
    finished = replay(run, trace, KINDS)
    db = run.queue.db
    ids = dict(db.execute("SELECT json_extract(args, '$.order'), id FROM jobs"))
    rows, problems, first = [], [], None
    for order in run.orders:
        taken = [dollars for _, dollars, job_id in run.charges if job_id == ids[order]]
        rows.append({"order": order, "charges": len(taken), "charged": sum(taken),
                     "ok": len(taken) == 1 and sum(taken) == PRICE})
        if len(taken) != 1 or sum(taken) != PRICE:
            extra = (f" (${sum(taken) - PRICE} extra)" if sum(taken) > PRICE else "")
            problems.append(f"order {order} was charged {len(taken)} times{extra}"
                            if len(taken) != 1 else f"order {order} was charged ${sum(taken)}")
            first = ids[order] if first is None else first
    strangers = sorted({account for account, _, _ in run.charges if account != ACCOUNT})
    if strangers:
        problems.append(f"the bank charged someone other than Alice: {', '.join(strangers)}")
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
               "virtual seconds": round(run.clock.now, 2), "lines of your code run": lines_of(trace)}
    return {"passed": not problems, "orders": rows, "problems": problems, "story": story,
            "figures": figures}
