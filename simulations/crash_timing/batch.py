"""crash-timing's emails, one or a batch: the sends, the marker per send, and how the effect is
counted (the mixin BatchSends of CrashTiming; the settings are in options.py).

With one email (batch 1) everything is as it always was: the work, then one send to Ada. With a
batch, the job sends to person-1@example.com ... person-N@example.com, one send every
work / N seconds, and each email is one row of the outbox (the provider's record of what went
out). The verdict counts per person: "lost" if the job is done and somebody got nothing,
"duplicated" if somebody got two or more, else "exactly once".
"""
from .options import LaterStepFailed, later_step_fails, order, steps_and_points, words
from .policies import ORDER, POINT_LABELS, STEP_LABELS, Crash
from ..engine.simulation import plural

# The worker's own record of what it has sent (table sent_marks of crash_policies.WORLD, one
# row per job and person), for the marker; the outbox row carries the person.
SEND_TO = ("INSERT INTO outbox (worker, idempotency_key, recipient) VALUES (:worker, :key, :to) "
           "ON CONFLICT (idempotency_key) DO NOTHING")
MARKED = "SELECT 1 FROM sent_marks WHERE job = :job AND recipient = :to"
MARK = "INSERT INTO sent_marks (job, recipient) VALUES (:job, :to)"
PER_PERSON = "SELECT count(DISTINCT recipient), count(*) FROM outbox"
WORK_A = {"crash": 1.0, "lease-too-short": 4.5}   # seconds; crash_timing.WORK's, for order()


class BatchSends:
    """The sends of a job of one email or of a batch (see the module's docstring)."""

    @property
    def batch(self):
        """How many emails the job sends (1 under one-transaction, whose effect is points)."""
        return 1 if self.policy == "one-transaction" else self.params["batch"]

    def order(self):
        """Worker A's steps after the claim, in order (crash_options.order)."""
        work = WORK_A.get(self.scenario, WORK_A["crash"])
        return order(self.policy, ORDER, self.params["commit_interval"], work)

    def point_words(self):
        """{crash point: its words} for the policy and settings ("after the 50 emails, ...")."""
        return words(self, STEP_LABELS, POINT_LABELS)[1]

    def strip(self):
        """(steps, points) as the snapshot gives them (crash_options.steps_and_points)."""
        if self.scenario == "producer":
            return self.producer_strip()
        return steps_and_points(self, STEP_LABELS, POINT_LABELS)

    def work_and_send(self, who, point, work, key=None):
        """Work for `work` seconds (paused at `point`) and send the job's email(s) during it."""
        if self.batch == 1 and not self.params["marker"]:
            yield from self.pause(who, point, work)
            self.send_email(who, key=key)
            self._later_step(who)
            return
        tally = {"sent": 0, "skipped": 0, "absorbed": 0}
        start = self.clock.now
        try:
            for number in range(1, self.batch + 1):
                # send k at start + work * k / batch, computed afresh (no float drift)
                due = round(start + work * number / self.batch, 9)
                yield from self.pause(who, point, max(0.0, due - self.clock.now))
                self._send_one(who, number, key, tally)
        except Crash:
            self._tell_batch(who, tally, cut=True)
            raise
        self._tell_batch(who, tally, cut=False)
        self._later_step(who)

    def _later_step(self, who):
        """The handler's next step after the sends: it raises if `fail_after_effect` says so."""
        if later_step_fails(self, who):
            raise LaterStepFailed("a later step failed after the effect")

    def _recipient(self, number):
        return "ada@example.com" if self.batch == 1 else f"person-{number}@example.com"

    def _send_one(self, who, number, key, tally):
        to = self._recipient(number)
        db = self.queue.db
        if self.params["marker"] and db.execute(MARKED, {"job": self.job_id, "to": to}).fetchone():
            tally["skipped"] += 1
            self.skipped += 1
            return
        if key is not None and self.batch > 1:
            key = f"digest:{to}"   # one key per email, the same on every attempt
        sent = db.execute(SEND_TO, {"worker": who, "key": key, "to": to}).rowcount
        if self.params["marker"]:
            db.execute(MARK, {"job": self.job_id, "to": to})
        if sent:
            tally["sent"] += 1
        else:
            tally["absorbed"] += 1
            self.absorbed += 1

    def _tell_batch(self, who, tally, cut):
        """One moment for a run of sends: how many went out, were skipped or absorbed."""
        done = tally["sent"] + tally["skipped"] + tally["absorbed"]
        if cut and not done:
            return
        if tally["sent"]:
            self.produced.append({"worker": who, "time": round(self.clock.now, 3),
                                  "count": tally["sent"]})
        parts = [f"sends {plural(tally['sent'], 'email')}"]
        if tally["skipped"]:
            parts.append(f"skips {tally['skipped']} already recorded")
        if tally["absorbed"]:
            parts.append(f"the provider drops {tally['absorbed']} repeated "
                         f"{'key' if tally['absorbed'] == 1 else 'keys'}")
        of = f" ({done} of {self.batch} people)" if cut else ""
        self.moment(who, "effect", f"{who} " + ", ".join(parts) + of)

    # --- counting the effect ----------------------------------------------------------------
    def effects(self):
        """How many times the job's effect happened: emails sent (each person's counted), or
        10-point awards committed under one-transaction."""
        if self.policy == "one-transaction":
            points = self.queue.db.execute("SELECT points FROM customers").fetchone()[0]
            return points // 10
        return self.queue.db.execute("SELECT count(*) FROM outbox").fetchone()[0]

    def result(self):
        """"lost", "exactly once" or "duplicated" once the job is done (per person, for a batch:
        lost if anyone got nothing); "unfinished" when it is not done and nobody is left."""
        if self.scenario == "producer":
            return self.producer_result()
        if self._status() == "dead":
            return "dead"   # out of attempts: a later step failed in each (options.py)
        if self._status() != "done":
            return "unfinished"
        if self.policy == "one-transaction":
            count = self.effects()
            return "lost" if count == 0 else "exactly once" if count == 1 else "duplicated"
        people, emails = self.queue.db.execute(PER_PERSON).fetchone()
        if people < self.batch:
            return "lost"
        return "duplicated" if emails > people else "exactly once"

    def what_happened(self, count):
        """The effect in words: "2 emails sent", "100 emails sent to 50 people", "10 loyalty
        points awarded"."""
        if self.policy == "one-transaction":
            return plural(count * 10, "loyalty point") + " awarded"
        if self.batch == 1:
            return plural(count, "email") + " sent"
        people = self.queue.db.execute(PER_PERSON).fetchone()[0]
        return f"{plural(count, 'email')} sent to {people} of {self.batch} people"

    def skipped_words(self):
        """"; 50 sends skipped by their records" when the marker saved any, else ""."""
        if not self.skipped:
            return ""
        return f"; {plural(self.skipped, 'send')} skipped by the records of earlier sends"
