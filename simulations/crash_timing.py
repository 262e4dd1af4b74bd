"""crash-timing: one job's life, moment by moment, and what a crash at each point costs.

Worker A claims the job and runs it under one of four policies:

    ack-after-work    claim | email | ack          at-least-once: a crash after the email repeats it
    ack-before-work   claim | ack | email          at-most-once: a crash after the ack loses it
    one-transaction   claim | BEGIN, points | COMMIT with done    the effect and the ack together
    idempotency-key   claim | email with a key | ack             the provider drops a repeated key

("|" marks the points where A can die.) If A dies, its lease runs out and worker B claims
the job again and runs it to the end. In the "lease-too-short" scenario nobody dies: A is
just slow, its lease runs out mid-work, and B claims the job while A is still busy; the
fencing token (or its absence) decides whether A's late finish is refused.

The outcome counts the effect: 0 means lost, 1 exactly once, 2 or more duplicated, once the
job is done. The reader may also kill A or B by hand; if that leaves the job running with
nobody coming for it, the outcome says so ("unfinished") instead of a verdict.
"""
import heapq
from contextlib import contextmanager

from ._core import tinyq
from .params import ParamError, boolean, choice, seed_param, show_number
from .simulation import Simulation, plural

POLICIES = ("ack-after-work", "ack-before-work", "one-transaction", "idempotency-key")
SCENARIOS = ("crash", "lease-too-short")
CRASH_POINTS = ("after-claim", "after-effect", "after-ack")
LEASE = {"crash": 5.0, "lease-too-short": 2.0}   # seconds
WORK = {"A": {"crash": 1.0, "lease-too-short": 4.5}, "B": 1.0}   # seconds the work takes
STEP = 0.5        # seconds between the other moments of one worker
DYING = 0.25      # seconds from reaching the chosen crash point to dying there
B_STARTS = 0.5    # seconds after A's lease ran out that B looks for work

ORDER = {policy: ("effect", "ack") for policy in POLICIES}
ORDER["ack-before-work"] = ("ack", "effect")

# What worker A does at each step, in words, for the widget's timeline (claim, then ORDER).
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

# The broken finish this simulation shows beside tinyq's: done by id alone, no token.
UNFENCED_DONE = "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = :id"

# The receiving side of an effect. An email provider that honours idempotency keys keeps
# each key once; the check and the send are one statement, so they cannot come apart.
WORLD = """
CREATE TABLE outbox (id INTEGER PRIMARY KEY, worker TEXT NOT NULL, idempotency_key TEXT UNIQUE);
CREATE TABLE customers (email TEXT PRIMARY KEY, points INTEGER NOT NULL);
INSERT INTO customers VALUES ('ada@example.com', 0);
"""
SEND_EMAIL = ("INSERT INTO outbox (worker, idempotency_key) VALUES (:worker, :key) "
              "ON CONFLICT (idempotency_key) DO NOTHING")
ADD_POINTS = "UPDATE customers SET points = points + 10 WHERE email = 'ada@example.com'"


class Crash(BaseException):
    """The worker's process dies: no line after this one runs, no cleanup."""


class CrashTiming(Simulation):
    NAME = "crash-timing"
    MAX_RUN_STEPS = 100
    PARAMS = (
        choice("policy", "Policy", "ack-after-work", POLICIES,
               "When the worker acks, relative to the work, or how it makes a repeat harmless.",
               {"ack-after-work": "Ack after the work", "ack-before-work": "Ack before the work",
                "one-transaction": "Effect and ack in one transaction",
                "idempotency-key": "Send with an idempotency key"}),
        choice("scenario", "Scenario", "crash", SCENARIOS,
               "crash: worker A dies at the chosen point. lease-too-short: A is slow, not dead.",
               {"crash": "Worker A crashes", "lease-too-short": "Lease too short: A is slow"}),
        boolean("fencing", "Fencing token", True,
                "Finish only while the claim's token still holds the job."),
        choice("crash", "Crash point", "after-effect", ("none",) + CRASH_POINTS,
               "Where worker A dies (the crash scenario only).",
               {"none": "A does not die", "after-claim": "After the claim",
                "after-effect": "After the effect", "after-ack": "After the ack"}),
        seed_param(),
    )

    def __init__(self, params=None, seed=0):
        super().__init__(params, seed)
        if (self.params["scenario"] == "lease-too-short" and "crash" in self.given
                and self.params["crash"] != "none"):
            raise ParamError("crash", "the lease-too-short scenario has no crash: nobody dies, "
                                      "A is only slow; use crash: none")

    def _start(self):
        self.policy, self.scenario = self.params["policy"], self.params["scenario"]
        self.crash_point = self.params["crash"] if self.scenario == "crash" else "none"
        self.queue = tinyq.Queue(lease=LEASE[self.scenario], clock=self.clock, rng=self.rng)
        self.queue.db.executescript(WORLD)
        self.job_id = self.queue.enqueue("welcome", {"email": "ada@example.com"})
        self.timeline = []
        self.position = {"A": None, "B": None}   # the crash point each worker is at
        self.fate = {"A": "waiting", "B": "waiting"}
        self.absorbed = 0
        self.produced = []   # [{worker, time}]: each effect that counts (sent, or committed)
        self.refused = []
        self._open_transaction_lost = False
        self._seq = 0
        self._agenda = []   # (time, seq, worker, generator): the next moment of each actor
        self._schedule(0.0, "A", self._attempt("A"))
        self._schedule(LEASE[self.scenario], "lease", self._lease_watch())

    # --- the moments ----------------------------------------------------------------------------
    def _schedule(self, when, who, script):
        self._seq += 1
        heapq.heappush(self._agenda, (when, self._seq, who, script))

    def next_time(self):
        return self._agenda[0][0] if self._agenda else float("inf")

    def _wait_until(self, until):
        self.clock.now = max(self.clock.now, until)

    def _step(self):
        when, _, who, script = heapq.heappop(self._agenda)
        self.clock.now = when
        self._resume(who, script, lambda: next(script))

    def _resume(self, who, script, move):
        try:
            delay = move()
        except StopIteration:
            if who in self.fate:
                self.fate[who], self.position[who] = "finished", None
            return
        except Crash:
            self.fate[who], self.position[who] = "dead", None
            self.moment(who, "crash", f"{who} dies: the power is cut, nothing more runs")
            if self._open_transaction_lost:
                self._open_transaction_lost = False
                self.moment(who, "rollback", f"SQLite rolls back {who}'s open transaction: "
                                             f"its 10 points are gone")
            self._after_a_death(who)
            return
        self._schedule(self.clock.now + delay, who, script)

    def _after_a_death(self, who):
        if who == "A" and self.scenario == "crash":
            self._schedule(LEASE["crash"] + B_STARTS, "B", self._attempt("B"))
        if who == "B" and self._status() == "running":
            # B held the latest claim (the reader killed it): nobody else is coming, so the
            # timeline ends when B's lease runs out, with the job still running.
            self._schedule(max(self.clock.now, self._lease_end()), "lease-end", self._last_lease())

    def _last_lease(self):
        """B's lease runs out after the reader killed it, and no worker is coming."""
        if self._status() == "running":
            self.moment("lease", "lease", "B's lease runs out (B is dead): the job may be claimed "
                                          "again, but no worker is coming to claim it")
        return
        yield  # a generator like every actor's script; it never pauses

    def _lease_watch(self):
        """At the end of A's lease: say so if the job is still running; in the slow
        scenario, B comes looking for work just after."""
        if self._status() == "running":
            why = "A is dead" if self.fate["A"] == "dead" else "A is still working: slow, not dead"
            self.moment("lease", "lease", f"A's lease runs out ({why}): the job may be claimed again")
        if self.scenario == "lease-too-short":
            self._schedule(self.clock.now + B_STARTS, "B", self._attempt("B"))
        return
        yield  # makes this a generator, like every actor's script; it never pauses

    def _point(self, who, point, delay):
        """Pause `who` at a crash point until its next moment, `delay` seconds on."""
        self.position[who] = point
        if who == "A" and point == self.crash_point:
            yield DYING
            raise Crash
        yield delay
        self.position[who] = None

    def _attempt(self, who):
        job = self.queue.claim()
        if job is None:
            status = self._status()
            self.moment(who, "claim", f"{who} finds nothing to claim: the queue says the job is "
                                      f"{status}")
            return
        self.fate[who] = "working"
        again = "" if job.attempts == 1 else " again"
        self.moment(who, "claim", f"{who} claims the job{again} (attempt {job.attempts}, "
                                  f"token {job.token}, lease until {show_number(self._lease_end())} s)")
        work = WORK["A"][self.scenario] if who == "A" else WORK["B"]
        if self.policy == "ack-before-work":
            yield from self._point(who, "after-claim", STEP)
            self._ack(who, job)
            yield from self._point(who, "after-ack", work)
            self._send_email(who, key=None)
            yield from self._point(who, "after-effect", STEP)
        elif self.policy == "one-transaction":
            yield from self._point(who, "after-claim", work)
            yield from self._in_one_transaction(who, job)
        else:
            yield from self._point(who, "after-claim", work)
            key = "welcome-email:ada@example.com" if self.policy == "idempotency-key" else None
            self._send_email(who, key)
            yield from self._point(who, "after-effect", STEP)
            self._ack(who, job)
            yield from self._point(who, "after-ack", STEP)

    def _in_one_transaction(self, who, job):
        finish = job.complete() if self.params["fencing"] else self._unfenced_complete(job)
        try:
            with finish as db:
                db.execute(ADD_POINTS)
                self.moment(who, "effect", f"{who} opens a transaction and adds 10 points "
                                           f"(not committed yet)")
                yield from self._point(who, "after-effect", STEP)
        except tinyq.LeaseLost:
            self.refused.append(who)
            self.moment(who, "refused", f"{who}'s commit is refused: token {job.token} no longer "
                                        f"holds the job, so its 10 points are rolled back")
            return
        except Crash:
            self._open_transaction_lost = True
            raise
        self.produced.append({"worker": who, "time": round(self.clock.now, 3)})
        self.moment(who, "ack", f"{who} commits: 10 points and 'done', together"
                    + self._unchecked(job))
        yield from self._point(who, "after-ack", STEP)

    @contextmanager
    def _unfenced_complete(self, job):
        """complete() with the token check removed: the broken variant."""
        with tinyq.transaction(self.queue.db) as db:
            yield db
            db.execute(UNFENCED_DONE, {"id": job.id})

    def _send_email(self, who, key):
        sent = self.queue.db.execute(SEND_EMAIL, {"worker": who, "key": key}).rowcount
        if sent:
            self.produced.append({"worker": who, "time": round(self.clock.now, 3)})
            self.moment(who, "effect", f"{who} sends the welcome email"
                        + (f" with key {key}" if key else ""))
        else:
            self.absorbed += 1
            self.moment(who, "effect", f"{who} sends the email with key {key}; the provider has "
                                       f"seen that key, so nothing is sent again")

    def _ack(self, who, job):
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
        self.moment(who, "ack", f"{who} acks: the job is done" + self._unchecked(job))

    def _unchecked(self, job):
        """Words for a finish that went through although another claim held the job."""
        latest = self.queue.db.execute("SELECT token FROM jobs WHERE id = ?", (job.id,)).fetchone()[0]
        if latest == job.token:
            return ""
        return (f", although token {latest} holds it now: with no token check nothing "
                f"stopped this stale finish")

    def moment(self, who, kind, text):
        self.timeline.append({"time": round(self.clock.now, 3), "worker": who, "kind": kind,
                              "text": text})
        self.emit(text)

    # --- the reader's actions -------------------------------------------------------------------
    def act_crash(self, worker="A"):
        """Kill a worker right now, at the point where it stands."""
        who = str(worker).strip().upper()
        if who not in self.fate:
            raise ParamError("worker", f"must be A or B, got {worker!r}")
        if self.fate[who] != "working":
            raise ParamError("worker", f"worker {who} is {self.fate[who]}: it cannot die now")
        for index, (when, seq, actor, script) in enumerate(self._agenda):
            if actor == who:
                self._agenda.pop(index)
                heapq.heapify(self._agenda)
                break
        self._resume(who, script, lambda: script.throw(Crash))

    # --- what the page draws ------------------------------------------------------------------
    def _status(self):
        return self.queue.db.execute("SELECT status FROM jobs WHERE id = ?",
                                     (self.job_id,)).fetchone()[0]

    def _lease_end(self):
        return self.queue.db.execute("SELECT locked_until FROM jobs WHERE id = ?",
                                     (self.job_id,)).fetchone()[0]

    @property
    def finished(self):
        return not self._agenda

    def effects(self):
        """How many times the job's effect happened (committed or sent)."""
        if self.policy == "one-transaction":
            points = self.queue.db.execute("SELECT points FROM customers").fetchone()[0]
            return points // 10
        return self.queue.db.execute("SELECT count(*) FROM outbox").fetchone()[0]

    def result(self):
        """"lost", "exactly once" or "duplicated" (the effect's count) once the job is done;
        "unfinished" when it is not done and nobody is left to finish it."""
        if self._status() != "done":
            return "unfinished"
        count = self.effects()
        return "lost" if count == 0 else "exactly once" if count == 1 else "duplicated"

    def scenario_note(self):
        """The sentence the page shows about a healthy but slow worker A, or None: only in the
        lease-too-short scenario, and only while the reader has killed nobody."""
        if self.scenario != "lease-too-short" or "dead" in self.fate.values():
            return None
        return (f"Nobody dies here: worker A is slow, and its {show_number(LEASE[self.scenario])}-second "
                f"lease runs out while it is still working.")

    def job_rows(self):
        status, attempts, locked_until, token = self.queue.db.execute(
            "SELECT status, attempts, locked_until, token FROM jobs").fetchone()
        return [{"id": self.job_id, "status": status, "attempts": attempts, "token": token,
                 "lease_left": self.lease_left(status, locked_until)}]

    def _nobody_left(self):
        """True when the job is not done and no worker will ever work on it again: none is
        working, and none is on its way (B after A's death or A's lease)."""
        if self._status() == "done" or "working" in self.fate.values():
            return False
        return not any(actor in ("A", "B") or (actor == "lease" and self.scenario == "lease-too-short")
                       for _, _, actor, _ in self._agenda)

    def _stuck(self):
        """Why the job stays running forever, in words (see _nobody_left)."""
        dead = [who for who in ("A", "B") if self.fate[who] == "dead"]
        gone = [who for who in ("A", "B") if self.fate[who] == "finished"]
        why = " and ".join(dead) + (" are dead" if len(dead) > 1 else " is dead")
        if gone:
            why += f" and {' and '.join(gone)} has already ended its attempt"
        ends = self._lease_end()
        if ends > self.clock.now:
            lease = f"when its lease runs out at {show_number(ends)} s no worker will claim it again"
        else:
            lease = f"its lease ran out at {show_number(ends)} s with no worker to claim it again"
        return f"The job is still running and nobody is left to finish it: {why}; {lease}"

    def outcome(self):
        count = self.effects()
        what = (plural(count * 10, "loyalty point") + " awarded"
                if self.policy == "one-transaction" else plural(count, "email") + " sent")
        refused = (f"the token refused {' and '.join(self.refused)}'s late finish"
                   if self.refused else "")
        if self._nobody_left():
            head = "Unfinished" if self.finished else "So far"
            tail = f"; {refused}" if refused else ""
            return f"{head}: {what}. {self._stuck()}{tail}."
        if not self.finished:
            pending = " (not committed yet)" if self.queue.db.in_transaction else ""
            return f"So far: {what}{pending}."
        words = {"lost": "Lost", "exactly once": "Exactly once", "duplicated": "Duplicated"}
        sentence = f"{words[self.result()]}: {what}"
        if self.result() == "lost":
            sentence += ", yet the queue says the job is done"
        if self.absorbed:
            sentence += f"; {plural(self.absorbed, 'repeat')} absorbed by the idempotency key"
        if refused:
            sentence += f"; {refused}"
        return sentence + "."

    def _state(self):
        labels = POINT_LABELS[self.policy]
        order = ("after-claim",) + tuple(f"after-{step}" for step in ORDER[self.policy])
        return {
            "policy": self.policy, "scenario": self.scenario, "fencing": self.params["fencing"],
            "crash_point": self.crash_point,
            "points": [{"name": name, "label": labels[name]} for name in order],
            "steps": [{"name": "claim", "label": "claim the job"}]
            + [{"name": step, "label": STEP_LABELS[self.policy][step]} for step in ORDER[self.policy]],
            "lease": LEASE[self.scenario],
            "position": dict(self.position),
            "workers": [{"name": who, "state": self.fate[who]} for who in ("A", "B")],
            "timeline": list(self.timeline),
            "result": self.result() if self.finished else None,
            "scenario_note": self.scenario_note(),
            "effects": self.effects(),
            "absorbed": self.absorbed,
            "produced": list(self.produced),
            "in_transaction": self.queue.db.in_transaction,
        }
