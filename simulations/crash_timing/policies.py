"""crash-timing's four policies, each a short script of one worker's attempt at the job.

A script runs on the simulation's agenda (simulation.Agenda): each `yield from
sim.pause(who, point, seconds)` stops the worker at a crash point for that long, and is where it
dies if the reader (or the scenario) kills it there. Between the pauses, the worker acts:

    ack-after-work    claim | email | ack          at-least-once: a crash after the email repeats it
    ack-before-work   claim | ack | email          at-most-once: a crash after the ack loses it
    one-transaction   claim | BEGIN, points | COMMIT with done    the effect and the ack together
    idempotency-key   claim | email with a key | ack             the provider drops a repeated key

The moves themselves (send the email, ack, the transaction) are the Moves mixin at the end,
with the small world they act on: an outbox whose provider keeps each idempotency key once,
and Ada's loyalty points.
"""

from contextlib import contextmanager

from ..engine.capstone import tinyq
from .options import AUTO_COMMIT, auto_commit

STEP = 0.5    # seconds between a worker's moments, other than the work itself
DYING = 0.25  # seconds from reaching the chosen crash point to dying there
KEY = "welcome-email:ada@example.com"   # one key per effect: the same on every attempt


def ack_after_work(sim, who, job, work):
    yield from sim.work_and_send(who, "after-claim", work)   # the work, and the email(s) in it
    yield from sim.pause(who, "after-effect", STEP)
    sim.ack(who, job)
    yield from sim.pause(who, "after-ack", STEP)


def ack_before_work(sim, who, job, work):
    yield from sim.pause(who, "after-claim", STEP)
    sim.ack(who, job)
    yield from sim.work_and_send(who, "after-ack", work)
    yield from sim.pause(who, "after-effect", STEP)


def one_transaction(sim, who, job, work):
    yield from sim.pause(who, "after-claim", work)
    yield from sim.in_one_transaction(who, job)   # the points, a pause, then COMMIT with done


def idempotency_key(sim, who, job, work):
    yield from sim.work_and_send(who, "after-claim", work, key=KEY)
    yield from sim.pause(who, "after-effect", STEP)
    sim.ack(who, job)
    yield from sim.pause(who, "after-ack", STEP)


SCRIPTS = {"ack-after-work": ack_after_work, "ack-before-work": ack_before_work,
           "one-transaction": one_transaction, "idempotency-key": idempotency_key}
POLICIES = tuple(SCRIPTS)   # the four above; options.py adds auto-commit (a timer acks)
SCRIPTS[AUTO_COMMIT] = auto_commit

# The order of each policy's steps after the claim (each followed by the point after-<step>).
ORDER = {policy: ("effect", "ack") for policy in POLICIES}
ORDER["ack-before-work"] = ("ack", "effect")

# The words for the page: what worker A does at each step, and where each crash point stands.
POLICY_LABELS = {"ack-after-work": "Ack after the work", "ack-before-work": "Ack before the work",
                 "one-transaction": "Effect and ack in one transaction",
                 "idempotency-key": "Send with an idempotency key"}

STEP_LABELS = {
    "ack-after-work": {"effect": "send the email", "ack": "ack"},
    "ack-before-work": {"effect": "send the email", "ack": "ack"},
    "one-transaction": {"effect": "add 10 points (not committed yet)",
                        "ack": "commit: the points and 'done' together"},
    "idempotency-key": {"effect": "send the email with its key", "ack": "ack"},
}

POINT_LABELS = {
    "ack-after-work": {"after-claim": "after the claim, before the email",
                       "after-effect": "after the email, before the ack",
                       "after-ack": "after the ack"},
    "ack-before-work": {"after-claim": "after the claim, before the ack",
                        "after-ack": "after the ack, before the email",
                        "after-effect": "after the email"},
    "one-transaction": {"after-claim": "after the claim, before the transaction",
                        "after-effect": "inside the transaction: points written, not committed",
                        "after-ack": "after the commit"},
    "idempotency-key": {"after-claim": "after the claim, before the email",
                        "after-effect": "after the email (sent with its key), before the ack",
                        "after-ack": "after the ack"},
}


def steps(policy):
    """What worker A does, in order: [{name, label}], the claim first."""
    return ([{"name": "claim", "label": "claim the job"}]
            + [{"name": step, "label": STEP_LABELS[policy][step]} for step in ORDER[policy]])


def points(policy):
    """The policy's crash points in its own order, with their words: [{name, label}]."""
    order = ("after-claim",) + tuple(f"after-{step}" for step in ORDER[policy])
    return [{"name": name, "label": POINT_LABELS[policy][name]} for name in order]


# The broken finish this simulation shows beside tinyq's: done by id alone, no token.
UNFENCED_DONE = "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = :id"

# The receiving side of an effect. An email provider that honours idempotency keys keeps
# each key once; the check and the send are one statement, so they cannot come apart.
WORLD = """
CREATE TABLE outbox (id INTEGER PRIMARY KEY, worker TEXT NOT NULL, idempotency_key TEXT UNIQUE,
                     recipient TEXT NOT NULL DEFAULT 'ada@example.com');
CREATE TABLE sent_marks (job INTEGER NOT NULL, recipient TEXT NOT NULL, PRIMARY KEY (job, recipient));
CREATE TABLE customers (email TEXT PRIMARY KEY, points INTEGER NOT NULL);
INSERT INTO customers VALUES ('ada@example.com', 0);
"""
SEND_EMAIL = ("INSERT INTO outbox (worker, idempotency_key) VALUES (:worker, :key) "
              "ON CONFLICT (idempotency_key) DO NOTHING")
ADD_POINTS = "UPDATE customers SET points = points + 10 WHERE email = 'ada@example.com'"


class Crash(BaseException):
    """The worker's process dies: no line after this one runs, no cleanup."""


class Moves:
    """What a worker does between its pauses, which the scripts above string together. A
    mixin of CrashTiming: it keeps the timeline (`moment`), the position and the tallies."""

    def pause(self, who, point, delay):
        """Pause `who` at a crash point until its next moment, `delay` seconds on."""
        self.position[who] = point
        if who == "A" and point == self.crash_point:
            yield DYING
            raise Crash
        yield delay
        self.position[who] = None

    def in_one_transaction(self, who, job):
        finish = job.complete() if self.params["fencing"] else self._unfenced_complete(job)
        try:
            with finish as db:
                db.execute(ADD_POINTS)
                self.moment(who, "effect", f"{who} opens a transaction and adds 10 points "
                                           f"(not committed yet)")
                yield from self.pause(who, "after-effect", STEP)
        except tinyq.LeaseLost:
            self.refused.append(who)
            self.moment(who, "refused", f"{who}'s commit is refused: token {job.token} no longer "
                                        f"holds the job, so its 10 points are rolled back")
            return
        except Crash:
            self._open_transaction_lost = True
            raise
        self.produced.append({"worker": who, "time": round(self.clock.now, 3), "count": 1})
        self.moment(who, "ack", f"{who} commits: 10 points and 'done', together"
                    + self._unchecked(job))
        yield from self.pause(who, "after-ack", STEP)

    @contextmanager
    def _unfenced_complete(self, job):
        """complete() with the token check removed: the broken variant."""
        with tinyq.transaction(self.queue.db) as db:
            yield db
            db.execute(UNFENCED_DONE, {"id": job.id})

    def send_email(self, who, key=None):
        sent = self.queue.db.execute(SEND_EMAIL, {"worker": who, "key": key}).rowcount
        if sent:
            self.produced.append({"worker": who, "time": round(self.clock.now, 3), "count": 1})
            self.moment(who, "effect", f"{who} sends the welcome email"
                        + (f" with key {key}" if key else ""))
        else:
            self.absorbed += 1
            self.moment(who, "effect", f"{who} sends the email with key {key}; the provider has "
                                       f"seen that key, so nothing is sent again")

    def ack(self, who, job, timer=False):
        """Mark the job done (fenced by its token unless fencing is off); `timer`: the
        auto-commit timer does it, apart from the work."""
        if self.params["fencing"]:
            try:
                self.queue.ack(job)
            except tinyq.LeaseLost:
                self.refused.append(who)
                self.moment(who, "refused", f"{who}'s ack is refused: token {job.token} no longer "
                                            f"holds the job")
                return
        else:
            self.queue.db.execute(UNFENCED_DONE, {"id": job.id})
        acks = f"{who}'s auto-commit timer acks" if timer else f"{who} acks"
        self.moment(who, "ack", f"{acks}: the job is done" + self._unchecked(job))

    def _unchecked(self, job):
        """Words for a finish that went through although another claim held the job."""
        latest = self.queue.db.execute("SELECT token FROM jobs WHERE id = ?", (job.id,)).fetchone()[0]
        if latest == job.token:
            return ""
        return (f", although token {latest} holds it now: with no token check nothing "
                f"stopped this stale finish")
