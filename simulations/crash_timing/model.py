"""crash-timing: one job's life, moment by moment, and what a crash at each point costs.

Worker A claims the job and runs it under one of four policies, each a short script in
policies.py on the simulation's agenda (simulation.Agenda). If A dies, its lease runs
out and worker B claims the job again and runs it to the end. In the "lease-too-short"
scenario nobody dies: A is just slow, its lease runs out mid-work, and B claims the job while
A is still busy; the fencing token (or its absence) decides whether A's late finish is refused.

The outcome counts the effect: 0 means lost, 1 exactly once, 2 or more duplicated, once the
job is done. The reader may also kill A or B by hand; if that leaves the job running with
nobody coming for it, the outcome says so ("unfinished") instead of a verdict.
"""
from ..engine.capstone import tinyq
from .batch import BatchSends
from .levels import level_param, shown, tokens_taught
from .options import extra_params, handler, policy_choice
from .outcome import outcome as outcome_sentence, verdict as verdict_of
from .policies import POLICIES, POLICY_LABELS, SCRIPTS, WORLD, Crash, Moves
from .producer import Producer, producer_params
from .picture import LanePicture
from .view import crash_timing_view
from ..engine.params import ParamError, boolean, choice, seed_param, show_number
from ..engine.simulation import Agenda, Simulation

NOT_WORKING = {"idle": "has not started", "finished": "has finished its attempt",
               "killed": "is dead"}
SCENARIOS = ("crash", "lease-too-short", "producer")
CRASH_POINTS = ("after-claim", "after-effect", "after-ack")
LEASE = {"crash": 5.0, "lease-too-short": 2.0, "producer": 5.0}   # seconds
WORK = {"A": {"crash": 1.0, "lease-too-short": 4.5}, "B": 1.0}   # seconds the work takes
B_STARTS = 0.5    # seconds after A's lease ran out that B looks for work

class CrashTiming(LanePicture, Producer, BatchSends, Moves, Simulation):
    NAME = "crash-timing"
    VIEW = staticmethod(crash_timing_view)
    MAX_RUN_STEPS = 100
    ACTION_WORDS = {"crash": "kill worker {worker}"}  # as its buttons say (timeline_view.py)
    PARAMS = (
        policy_choice(POLICIES, POLICY_LABELS),
        choice("scenario", "Scenario", "crash", SCENARIOS,
               "\"Worker A crashes\": A dies at the point chosen below. \"Lease too short: A is "
               "slow\": nobody dies, but A's lease runs out while it is still working. \"A web "
               "request enqueues\": A is a web request that signs Ada up and enqueues her email.",
               {"crash": "Worker A crashes", "lease-too-short": "Lease too short: A is slow",
                "producer": "A web request enqueues"}),
        boolean("fencing", "Fencing token", True,
                "Finish only while the claim's token still holds the job."),
        choice("crash", "Crash point", "after-effect", ("none",) + CRASH_POINTS,
               "Where worker A dies (only when the scenario is \"Worker A crashes\").",
               {"none": "A does not die", "after-claim": "After the claim",
                "after-effect": "After the effect", "after-ack": "After the ack"}),
    ) + extra_params() + producer_params() + (level_param(), seed_param())

    def __init__(self, params=None, seed=0):
        super().__init__(params, seed)
        if self.params["scenario"] == "lease-too-short":
            if "crash" in self.given and self.params["crash"] != "none":
                raise ParamError("crash", "the lease-too-short scenario has no crash: nobody dies, "
                                          "A is only slow; use crash: none")
            # what the run uses, so that the snapshot's params rebuild it (and a link works)
            self.params["crash"] = "none"
        if self.params["scenario"] == "producer":
            self.params["crash"] = "none"   # A is a web request: its fault is `fault`

    def _start(self):
        self.policy, self.scenario = self.params["policy"], self.params["scenario"]
        self.crash_point = self.params["crash"] if self.scenario == "crash" else "none"
        cap = self.params["max_attempts"]   # the attempts cap (options.py)
        self.queue = tinyq.Queue(lease=LEASE[self.scenario], max_attempts=cap, clock=self.clock,
                                 rng=self.rng)
        self.queue.db.executescript(WORLD)
        self.timeline = []
        self.position = {"A": None, "B": None}   # the crash point each worker is at
        self.fate = {"A": "idle", "B": "idle"}   # WORKER_STATES: idle, working, finished, killed
        self.absorbed = 0
        self.skipped = 0     # sends a marker skipped (batch.py)
        self.produced = []   # [{worker, time}]: each effect that counts (sent, or committed)
        self.refused = []
        self.killed_by_hand = None   # {point, time}: where and when the reader killed A
        self._open_transaction_lost = False
        self.work = {}   # who -> {worker, start, end}: each attempt (picture.py)
        self.agenda = Agenda(self.clock)   # the next moment of each actor: a worker or the lease
        if self.scenario == "producer":
            return self._start_producer()   # producer.py
        self.job_id = self.queue.enqueue("welcome", {"email": "ada@example.com"})
        self.agenda.schedule(0.0, "A", self._attempt("A"))
        self.agenda.schedule(LEASE[self.scenario], "lease", self._lease_watch())

    # --- the moments ----------------------------------------------------------------------------
    def next_time(self):
        return self.agenda.peek()

    def _wait_until(self, until):
        self.clock.now = max(self.clock.now, until)

    def _step(self):
        who, script = self.agenda.pop()
        self._resume(who, script, lambda: next(script))

    def _resume(self, who, script, move):
        try:
            delay = move()
        except StopIteration:
            if who in self.fate:
                self.fate[who] = "finished"
                self._work_ends(who)   # while its position still says where it stood
                self.position[who] = None
            return
        except Crash:
            self.fate[who] = "killed"
            self._work_ends(who)
            self.position[who] = None
            self.moment(who, "crash", f"{who} dies: the power is cut, nothing more runs")
            if self._open_transaction_lost:
                self._open_transaction_lost = False
                self.moment(who, "rollback", f"SQLite rolls back {who}'s open transaction: "
                                             f"its 10 points are gone")
            self._after_a_death(who)
            return
        self.agenda.schedule(self.clock.now + delay, who, script)

    def _after_a_death(self, who):
        if who == "A" and self.scenario == "crash":
            self.agenda.schedule(LEASE["crash"] + B_STARTS, "B", self._attempt("B"))
        if who == "B" and self._status() == "running":
            # B held the latest claim (the reader killed it): nobody else is coming, so the
            # timeline ends when B's lease runs out, with the job still running.
            self.agenda.schedule(self._lease_end(), "lease-end", self._last_lease())

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
        if self._status() == "running" and self.fate["A"] != "finished":   # A's own claim
            why = "A is dead" if self.fate["A"] == "killed" else "A is still working: slow, not dead"
            self.moment("lease", "lease", f"A's lease runs out ({why}): the job may be claimed again")
        if self.scenario == "lease-too-short":
            self.agenda.schedule(self.clock.now + B_STARTS, "B", self._attempt("B"))
        return
        yield  # makes this a generator, like every actor's script; it never pauses

    def _attempt(self, who):
        job = self.queue.claim()
        if job is None:
            status = self._status()
            self.moment(who, "claim", f"{who} finds nothing to claim: the queue says the job is "
                                      f"{status}")
            return
        self.fate[who] = "working"
        self._work_starts(who)
        again = "" if job.attempts == 1 else " again"
        token = f"token {job.token}, " if tokens_taught(self.params["level"]) else ""
        self.moment(who, "claim", f"{who} claims the job{again} (attempt {job.attempts}, "
                                  f"{token}lease until {show_number(self._lease_end())} s)",
                    leased=True)
        work = WORK["A"][self.scenario] if who == "A" else WORK["B"]
        yield from handler(self, SCRIPTS[self.policy], who, job, work)

    def moment(self, who, kind, text, leased=False):
        """One moment of the timeline; `leased`: a claim that took the job (and its lease)."""
        self.timeline.append({"time": round(self.clock.now, 3), "worker": who, "kind": kind,
                              "text": text, "leased": leased})
        self.emit(text)

    # --- the reader's actions -------------------------------------------------------------------
    def act_crash(self, worker="A"):
        """Kill a worker right now, at the point where it stands."""
        who = str(worker).strip().upper()
        if who not in self.fate:
            raise ParamError("worker", f"must be A or B, got {worker!r}")
        if self.fate[who] != "working":
            raise ParamError("worker", f"worker {who} {NOT_WORKING[self.fate[who]]}: it cannot die now")
        if who == "A":
            self.killed_by_hand = {"point": self.position["A"], "time": round(self.clock.now, 3)}
        script = self.agenda.cancel(who)
        self._resume(who, script, lambda: script.throw(Crash))

    # --- what the page draws ------------------------------------------------------------------
    def _status(self):
        if self.job_id is None:
            return None   # the producer has enqueued nothing (yet)
        return self.queue.db.execute("SELECT status FROM jobs WHERE id = ?",
                                     (self.job_id,)).fetchone()[0]

    def _lease_end(self):
        return self.queue.db.execute("SELECT locked_until FROM jobs WHERE id = ?",
                                     (self.job_id,)).fetchone()[0]

    @property
    def finished(self):
        return not self.agenda

    def verdict(self):
        """The headline: {code, words} (outcome.py)."""
        return verdict_of(self)

    def crash_shown(self):
        """Where A died, as the crash point radio group shows it: the reader's kill of A
        (where A stood), else the chosen crash point; and the group's note in words (None
        unless the reader killed A, in the crash scenario, where the group shows)."""
        kill = self.killed_by_hand
        if kill is None or self.scenario != "crash":
            return {"point": self.crash_point, "note": None}
        where = self.point_words()[kill["point"]]
        return {"point": kill["point"],
                "note": f"You killed A by hand at {show_number(kill['time'])} s, {where}."}

    def scenario_note(self):
        """The sentence the page shows about a healthy but slow worker A, or None: only in the
        lease-too-short scenario, and only while the reader has killed nobody."""
        if self.scenario == "producer":
            return ("Here worker A is the web request that signs Ada up and enqueues her welcome "
                    "email; worker B is the worker that sends it.")
        if self.scenario != "lease-too-short" or "killed" in self.fate.values():
            return None
        return (f"Nobody dies here: worker A is slow, and its {show_number(LEASE[self.scenario])}-second "
                f"lease runs out while it is still working.")

    def job_rows(self):
        if self.job_id is None:
            return []   # the producer has not enqueued it (yet)
        status, attempts, locked_until, token = self.queue.db.execute(
            "SELECT status, attempts, locked_until, token FROM jobs").fetchone()
        return [{"id": self.job_id, "status": status, "attempts": attempts, "token": token,
                 "lease_left": self.lease_left(status, locked_until)}]

    def outcome(self):
        return outcome_sentence(self)   # outcome.py: so far, the verdict, or why nobody will finish

    def _state(self):
        return {
            "policy": self.policy, "scenario": self.scenario, "fencing": self.params["fencing"],
            "crash_point": self.crash_point, "crash_shown": self.crash_shown(),
            "points": self.strip()[1],
            "steps": self.strip()[0],
            "lease": LEASE[self.scenario],
            "position": dict(self.position),
            "workers": [{"name": who, "state": self.fate[who]} for who in ("A", "B")],
            "timeline": list(self.timeline),
            "result": self.result() if self.finished else None,
            "verdict": self.verdict(),
            "scenario_note": self.scenario_note(),
            "effects": self.effects(),
            "absorbed": self.absorbed,
            "produced": list(self.produced),
            "in_transaction": self.queue.db.in_transaction,
            "marks": self.mark_words(), "job_words": self.job_words(),
            "duplicates": self.duplicates(),
            "work": self.work_bars(),
            "leases": self.lease_bars(),   # picture.py
            "dies_at": self.dies_at(),
            "shown": shown(self.params["level"]),   # the form's fields at this level (levels.py)
        }
