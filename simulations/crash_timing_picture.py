"""What crash-timing's lanes draw beyond the timeline (issue 22): each attempt's work, the
crash points' places on worker A's lane, and the short words on the marks, the effect named.
A mixin of CrashTiming (crash_timing.py), which calls _work_starts and _work_ends."""
from .crash_policies import DYING

# The short words on the lanes' marks (the picture; the event log says each moment in full), by the
# moment's kind; the effect's and the finish's words are the policy's own: (effect, finish).
MARK_WORDS = {"claim": "claims", "refused": "refused", "crash": "dies", "rollback": "rolled back",
              "lease": "lease runs out", "fail": "fails"}
EFFECT_WORDS = {"ack-after-work": ("sends the email", "acks"),
                "ack-before-work": ("sends the email", "acks"),
                "one-transaction": ("adds 10 points", "commits"),
                "idempotency-key": ("sends the email (key)", "acks"),
                "auto-commit": ("sends the email", "timer acks")}
# In the producer scenario A is the web request: it writes (Ada's row, the job) and commits.
PRODUCER_A = ("writes", "commits")


class LanePicture:
    def _work_starts(self, who):
        """`who` claimed the job: its attempt's work starts now."""
        self.work[who] = {"worker": who, "start": round(self.clock.now, 3), "end": None}

    def _work_ends(self, who):
        """`who`'s attempt is over (finished or killed)."""
        if who in self.work and self.work[who]["end"] is None:
            self.work[who]["end"] = round(self.clock.now, 3)

    def work_bars(self):
        """[{worker, start, end}]: each attempt from its claim to its end, in seconds (end None
        while the worker is still at it), A's first."""
        return [dict(self.work[who]) for who in ("A", "B") if who in self.work]

    def dies_at(self):
        """Where each crash point stands on A's lane: [{point, time}] in the policy's order, the
        time (seconds) A would die there (it reaches the point, then dies DYING seconds on), from
        a run of the same settings in which A does not die; [] in the lease-too-short scenario.
        Worked out once per simulation (a few steps of a twin)."""
        if self.scenario != "crash":
            return []
        if getattr(self, "_dies_at", None) is None:
            order = [p["name"] for p in self.strip()[1]]
            twin = type(self)({**self.params, "crash": "none"})
            reached = {}
            while not twin.finished:
                twin.step()
                if twin.position["A"] is not None:
                    reached.setdefault(twin.position["A"], twin.clock.now)
            self._dies_at = [{"point": name, "time": round(reached[name] + DYING, 3)}
                             for name in order if name in reached]
        return self._dies_at

    def mark_words(self):
        """{worker: {moment kind: the short words its mark shows on that worker's lane}}, the
        effect named ("sends the email", "adds 10 points", "sends 50 emails")."""
        effect, finish = EFFECT_WORDS.get(self.policy, ("sends the email", "acks"))
        if getattr(self, "batch", 1) > 1 and self.policy != "one-transaction":
            effect = "sends emails"
        worker = {**MARK_WORDS, "effect": effect, "ack": finish}
        if self.scenario == "producer":
            return {"A": {**MARK_WORDS, "effect": PRODUCER_A[0], "ack": PRODUCER_A[1]},
                    "B": {**MARK_WORDS, "effect": "sends the email", "ack": "acks"}}
        return {"A": worker, "B": dict(worker)}
