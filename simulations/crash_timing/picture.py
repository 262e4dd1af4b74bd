"""What crash-timing's lanes draw beyond the timeline: each attempt's work, the
crash points' places on worker A's lane, the short words on the marks, the effect named, and
which effect marks repeat an effect already produced (the duplicates, drawn red).
A mixin of CrashTiming (model.py), which calls _work_starts and _work_ends."""
from .policies import DYING

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
RELEASES = ("ack", "refused", "fail", "rollback", "claim")   # the moments that end a claim

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
        """`who`'s attempt is over (finished or killed; called while its position still says
        where it stood): its work ended at its last step if it had taken it, else now."""
        if who in self.work and self.work[who]["end"] is None:
            last = self._last_step(who, finishing=self.fate[who] != "killed")
            self.work[who]["end"] = round(self.clock.now if last is None else last, 3)

    def _last_step(self, who, finishing=False):
        """The time (seconds) of `who`'s last step (the ack, or the email when the ack came
        first, a refused finish or a fail) once its work is over - it is finishing, or waits at
        the point after its final step - else None: it is still working."""
        start = self.work[who]["start"]
        steps = [m["time"] for m in self.timeline if m["worker"] == who and m["time"] >= start
                 and m["kind"] not in ("claim", "crash", "lease")]
        last_point = f"after-{self.order()[-1]}"
        if steps and (finishing or self.position[who] == last_point):
            return steps[-1]
        return None

    def work_bars(self):
        """[{worker, start, end}]: each attempt from its claim to the end of its work, in
        seconds, A's first. The work ends at the worker's last step (the ack, or the email if
        the ack came first), a refused finish or a fail, or at its death; the pause after its
        last step is not work. end is None while the worker is still at it."""
        bars = []
        for who in ("A", "B"):
            if who in self.work:
                bar = dict(self.work[who])
                if bar["end"] is None:
                    bar["end"] = self._last_step(who)
                bars.append(bar)
        return bars

    def lease_bars(self):
        """[{worker, start, end}] (seconds): each claim's lease as drawn, from the claim until
        the lease runs out, or sooner once that claim is over - its worker acked, was refused,
        failed or rolled back, or claimed again - so that no lease bar runs on past its ack. A
        dead worker's lease runs on to its end: nobody gives it back."""
        bars = []
        for index, moment in enumerate(self.timeline):
            if not moment.get("leased"):
                continue
            who, start = moment["worker"], moment["time"]
            end = start + self.queue.lease
            for later in self.timeline[index + 1:]:
                if later["worker"] == who and later["kind"] in RELEASES:
                    end = min(end, later["time"])
                    break
            bars.append({"worker": who, "start": start, "end": round(end, 3)})
        return bars

    def duplicates(self):
        """[{index, label, alt}]: the timeline's moments (by index) whose effect repeats one
        already produced - an email to someone already sent it, 10 points committed again -
        with the mark's short words (label) and its text alternative (alt). Counted per person
        from the outbox (a batch's resends too), or per commit under one-transaction."""
        repeats = self._repeats()
        used, out = set(), []
        for nth, (item, repeat) in enumerate(zip(self.produced, repeats), start=1):
            index = next((i for i, m in enumerate(self.timeline) if i not in used
                          and m["kind"] in ("effect", "ack") and m["worker"] == item["worker"]
                          and m["time"] == item["time"]), None)
            if index is None:
                continue
            used.add(index)
            if repeat:
                out.append({"index": index, **self._duplicate_words(nth, repeat)})
        return out

    def _repeats(self):
        """For each entry of `produced`, in order: how many of its effects repeat earlier ones."""
        if self.policy == "one-transaction" or self.scenario == "producer":
            return [0] + [1] * (len(self.produced) - 1)
        rows = [row[0] for row in self.queue.db.execute("SELECT recipient FROM outbox ORDER BY id")]
        seen, repeats, at = set(), [], 0
        for item in self.produced:
            chunk = rows[at:at + item["count"]]
            at += item["count"]
            repeats.append(sum(1 for person in chunk if person in seen))
            seen.update(chunk)
        return repeats

    def _duplicate_words(self, nth, repeat):
        """The words of a duplicate's mark: the nth effect, `repeat` of its sends repeats."""
        ordinal = ORDINALS.get(nth, f"{nth}th")
        if self.policy == "one-transaction":
            return {"label": f"{ordinal} commit: duplicate",
                    "alt": f"duplicate: the {ordinal} commit adds Ada's 10 points again"}
        if self.batch == 1:
            return {"label": f"{ordinal} email: duplicate",
                    "alt": f"duplicate: the {ordinal} email to Ada, the same welcome email again"}
        emails = "email" if repeat == 1 else "emails"
        return {"label": f"{repeat} duplicate {emails}",
                "alt": f"duplicate: {repeat} {emails} to people who had already been sent one"}

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

    def job_words(self):
        """Which job the lanes show, in the picture's words (both lanes are the same job):
        "Both lanes are job 1 (ada): her welcome email", "... (ada): 10 loyalty points for Ada",
        "Both lanes are job 1: a batch of 50 welcome emails"; in the producer scenario "Job 1
        (ada): her welcome email, enqueued by A, the web request", and before A enqueues it "No
        job yet: ..."."""
        if self.scenario == "producer":
            if self.job_id is None:
                return "No job yet: A, the web request, has not enqueued Ada's email"
            return f"Job {self.job_id} (ada): her welcome email, enqueued by A, the web request"
        if self.policy == "one-transaction":
            what = "(ada): 10 loyalty points for Ada"
        elif self.batch > 1:
            what = f": a batch of {self.batch} welcome emails"
        else:
            what = "(ada): her welcome email"
        return f"Both lanes are job {self.job_id} {what}".replace(" :", ":")

    def mark_words(self):
        """{worker: {moment kind: the short words its mark shows on that worker's lane}}, the
        job named ("claims job 1") and the effect ("sends the email", "adds 10 points",
        "sends 50 emails")."""
        effect, finish = EFFECT_WORDS.get(self.policy, ("sends the email", "acks"))
        if getattr(self, "batch", 1) > 1 and self.policy != "one-transaction":
            effect = "sends emails"
        claims = {"claim": f"claims job {self.job_id}"} if self.job_id is not None else {}
        worker = {**MARK_WORDS, **claims, "effect": effect, "ack": finish}
        if self.scenario == "producer":
            return {"A": {**MARK_WORDS, **claims, "effect": PRODUCER_A[0], "ack": PRODUCER_A[1]},
                    "B": {**MARK_WORDS, **claims, "effect": "sends the email", "ack": "acks"}}
        return {"A": worker, "B": dict(worker)}
