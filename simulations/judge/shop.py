"""The shop exercise: the reader's three handlers, under the chaos monkey, audited like chaos.py.

Each customer of the shop has three jobs queued: a welcome email, a signup fee charged at the
bank, and welcome points in the shop's database. The run, its world and its workers are run.py's;
record_shop() runs the reader's handlers in the reader's own interpreter and returns the effects
they asked for (trace.py, effects.py); replay_shop() runs the same seeded run in the judge's
interpreter, performs those effects in its own world and audits that world.
"""
from ..engine.capstone import tinyq
from .run import MAX_TURNS, Run, short
from .trace import ReaderWorld, lines_of, record, replay

KINDS = ("send_welcome_email", "charge_signup_fee", "award_points")
SIGNUP_FEE, WELCOME_POINTS = 5, 10        # dollars, points (as in code/capstone/shop.py)


class ShopRun(Run):
    """A judged run of the shop: its customers, and their jobs."""

    def setup(self, customers):
        """The shop's customers, each with its three jobs queued."""
        self.queue.db.execute("CREATE TABLE customers (email TEXT PRIMARY KEY, "
                              "points INTEGER NOT NULL DEFAULT 0)")
        self.emails = [f"customer{n:02d}@example.com" for n in range(1, customers + 1)]
        for email in self.emails:
            self.queue.db.execute("INSERT INTO customers (email) VALUES (?)", (email,))
            for kind in KINDS:
                self.queue.enqueue(kind, {"email": email}, unique_key=f"{kind}:{email}")


def record_shop(code, seed, customers=20, workers=3, chaos=0.1, lose_request=0.15,
                lose_reply=0.15, budget=200_000):
    """The reader's shop handlers, run and recorded (see record()). Raises ReaderError."""
    run = ShopRun(seed, customers, workers, chaos, lose_request, lose_reply)
    return record(run, code, lambda recorder: {
        "world": ReaderWorld(recorder), "SIGNUP_FEE": SIGNUP_FEE,
        "WELCOME_POINTS": WELCOME_POINTS, "LeaseLost": tinyq.LeaseLost}, KINDS, seed, budget)


def replay_shop(trace, seed, customers=20, workers=3, chaos=0.1, lose_request=0.15,
                lose_reply=0.15, budget=200_000):
    """The judge's audit of a shop trace. Raises Diverged."""
    run = ShopRun(seed, customers, workers, chaos, lose_request, lose_reply)
    finished = replay(run, trace, KINDS)
    return audit(run, finished, lines_of(trace))


def audit(run, finished, lines):
    """chaos.py's audit: each customer 1 email, $5 paid, 10 points; every job done."""
    db = run.queue.db
    customers, problems, first = [], [], None
    for email in run.emails:
        sent = run.sent.count(email)
        paid = sum(dollars for account, dollars, _ in run.charges if account == email)
        points = db.execute("SELECT points FROM customers WHERE email = ?", (email,)).fetchone()[0]
        who, wrong = short(email), []
        if sent != 1:
            wrong.append((KINDS[0], f"{who} got {sent} welcome email{'' if sent == 1 else 's'} "
                                    f"(want 1)"))
        if paid != SIGNUP_FEE:
            gap = (f"charged ${paid - SIGNUP_FEE} extra" if paid > SIGNUP_FEE
                   else f"charged ${paid}")
            wrong.append((KINDS[1], f"{who} was {gap} (want ${SIGNUP_FEE})"))
        if points != WELCOME_POINTS:
            wrong.append((KINDS[2], f"{who} has {points} points (want {WELCOME_POINTS})"))
        customers.append({"customer": who, "email": email, "emails": sent, "charged": paid,
                          "points": points, "ok": not wrong})
        problems += [text for _, text in wrong]
        if wrong and first is None:
            first = (email, wrong[0][0])
    for job_id, kind, args, status, error in db.execute(
            "SELECT id, kind, args, status, last_error FROM jobs "
            "WHERE status != 'done' ORDER BY id"):
        problems.append(f"job {job_id} ({kind}) ended {status}: {error or 'never finished'}")
    if not finished:
        problems.append(f"the run stopped after {MAX_TURNS:,} turns with jobs still to do")
    story = []
    if first is not None:
        ids = {row[0] for row in db.execute("SELECT id FROM jobs WHERE kind = ? AND args = ?",
                                            (first[1], '{"email": "%s"}' % first[0]))}
        story = [text for job_id, _, text in run.events if job_id in ids][:16]
    attempts, retried = db.execute(
        "SELECT sum(attempts), coalesce(sum(attempts > 1), 0) FROM jobs").fetchone()
    figures = {"workers killed": run.crashes, "attempts": attempts, "jobs retried": retried,
               "virtual seconds": round(run.clock.now, 2), "lines of your code run": lines}
    return {"passed": not problems, "customers": customers, "problems": problems,
            "story": story, "figures": figures}
