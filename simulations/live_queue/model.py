"""live-queue: a producer and a crew of workers sharing one tinyq queue, on virtual time.

Each step is 0.1 virtual seconds: the world's next tick is the one entry on the simulation's
agenda (simulation.py), and the clock moves only when it is popped, as in every simulation. Inside
a tick the producer adds its arrivals and the workers move in worker order, so a run replays
exactly. A worker is a small state machine; one job takes
`duration` seconds from claim to ack:

    idle --claim--> claimed (0.1 s) --> working (duration - 0.2 s) --> acking (0.1 s) --> idle
                                               the email goes out here ^

A worker that has just acked claims its next job at once; an idle one tries every step.

A killed worker stops at once; the job it held stays running in the table until its
lease runs out, and then any idle worker claims it again (with a new fencing token). A
worker that freezes (a "stall") and overruns its lease finds its ack refused by the token,
although its email has already gone out.

A lease claimed at t for L seconds covers [t, t + L], as in tinyq: an ack at exactly t + L
holds, and another worker may take the job over only after t + L. tinyq runs here on a clock
that counts ticks (ticks.py), so that a lease ending on a tick ends exactly on it.

The casebook's controls (heartbeats and varying durations, a deploy, a poison job and the
delivery cap) are in heartbeat.py, deploy.py and poison.py; an
embed shows their fields only at the level that names them (levels.py, EXTRAS).
"""
from collections import deque

from ..engine.capstone import tinyq
from .actions import ReaderActions
from .delivery import Delivery
from .deploy import Deploy
from .heartbeat import Heartbeats
from .libraries import apply_library, with_presets
from .poison import PoisonJob
from .producer import Producer
from .params import MAX_JOBS, MAX_WORKERS, PARAMS, SETTABLE, STALL
from .retry import RetryPolicy, Service
from .levels import LEVELS
from .view import QueueView, live_queue_view
from .worker import Worker
from ..engine.params import show_number
from ..engine.simulation import WORKER_STATES, Agenda, Simulation  # noqa: F401 (tests import it here)
from .ticks import TICKS_PER_SECOND, TickClock, in_seconds, lease_ticks, to_ticks

CLAIM_TICKS = 1      # 0.1 s from claiming a job to starting it
ACK_TICKS = 1        # 0.1 s to ack it
RESTART_TICKS = 20   # the supervisor restarts a dead worker after 2 s

class LiveQueue(ReaderActions, Producer, Heartbeats, Delivery, QueueView, Simulation):
    NAME = "live-queue"
    VIEW = staticmethod(live_queue_view)
    TICKS_PER_SECOND, MAX_WORKERS, MAX_JOBS = TICKS_PER_SECOND, MAX_WORKERS, MAX_JOBS
    CLAIM_TICKS, ACK_TICKS = CLAIM_TICKS, ACK_TICKS
    RESTART_TICKS, Worker = RESTART_TICKS, Worker   # for the reader's actions (actions.py)
    MAX_RUN_STEPS = 600  # one run() call covers at most 60 virtual seconds
    PARAMS, SETTABLE, STALL = PARAMS, SETTABLE, STALL   # params.py

    def _start(self):
        # a library preset's defaults, before anything reads the parameters (libraries.py)
        apply_library(self.params, self.given, self.PARAMS)
        self.ticks = 0
        self.agenda = Agenda(self.clock)    # the world's next tick, 0.1 s on (simulation.py)
        self.agenda.schedule(1 / TICKS_PER_SECOND, "world", None)
        self.settings = {name: self.params[name] for name in self.SETTABLE}
        self._check_durations(self.params["duration"], self.params["duration_max"])
        # the email service and what happens to a job whose call failed (retry.py)
        self.service = Service(self.params["service_capacity"], TICKS_PER_SECOND)
        self.retry_policy = RetryPolicy.from_params(self.params)
        self.deploy = Deploy.from_params(self.params)   # deploy.py
        self.poison = PoisonJob.from_params(self.params)   # job 1, and the delivery cap (poison.py)
        self._start_delivery()
        # backoff in ticks: 1 s doubling, at most 300 s (tinyq's defaults, in seconds)
        self.queue = tinyq.Queue(lease=lease_ticks(self.settings["lease"]),
                                 max_attempts=self.poison.queue_cap(),
                                 backoff_base=TICKS_PER_SECOND, backoff_cap=300 * TICKS_PER_SECOND,
                                 clock=TickClock(self), rng=self.rng)
        self.workers = [Worker(n) for n in range(1, self.params["workers"] + 1)]
        self.emails = [0]           # emails sent, by job id
        self.emails_sent = 0
        self.duplicates = 0         # emails beyond the first for a job
        self.acked = deque()        # ack times in the throughput window
        self.done_count = self.done_attempts = self.retried = 0
        self.refused = 0            # acks the token refused
        self.refusals = {}          # worker number -> (tick, job id): its latest refused ack
        # job id -> worker number: its latest claim's; whose lease on it ran out (until claimed
        # again); whose lease had run out before its latest claim (the picture: "was worker N")
        self.claimed_by, self.lapsed, self.handed = {}, {}, {}
        self.cap_reported = False
        self.beats = self.beats_refused = 0     # heartbeats
        if self.params["jobs"]:
            self._enqueue(self.params["jobs"])

    def _state(self):
        return with_presets(super()._state())   # the library's presets, if the form shows them

    # --- the world moving on -------------------------------------------------------------
    def _step(self):
        before = self.ticks
        self.agenda.pop()                   # the clock moves to this tick
        self.ticks += 1
        self.clock.now = self.ticks / TICKS_PER_SECOND   # the very float every tick had before
        self.agenda.schedule((self.ticks + 1) / TICKS_PER_SECOND, "world", None)
        self._produce()
        self._deploy()
        self._report_expired_leases(before)
        for worker in self.workers:
            self._advance(worker)

    def next_time(self):
        return self.agenda.peek()

    def _deploy(self):
        """At the deploy's tick, send every live worker the stop signal."""
        words = self.deploy.signal(self.ticks)
        if words is None:
            return
        self.emit(words)
        for worker in self.workers:
            if worker.state != "killed":
                self.deploy.stop_signal(worker, self.ticks, TICKS_PER_SECOND)
                self._stop_if_due(worker)

    def _stop_if_due(self, worker):
        """A stopping worker exits when the deploy says so; returns True if it is gone. Its
        replacement (the new version) starts after RESTART_TICKS, supervisor or not."""
        how = self.deploy.stop(worker, self.ticks, self.queue, self.emit)
        if how is None:
            return False
        worker.stopping, worker.stop_by = False, None
        self._die(worker, how)
        worker.restart_at = self.ticks + RESTART_TICKS
        worker.replaced = True
        return True

    def _report_expired_leases(self, before):
        """Say which leases ran out in this tick: those that covered the previous tick and
        end before this one (the claim may take a job over once now > locked_until)."""
        for job_id, token, attempts in self.queue.db.execute(
                "SELECT id, token, attempts FROM jobs WHERE status = 'running' "
                "AND locked_until >= ? AND locked_until < ? ORDER BY locked_until, id",
                (before, self.ticks)):
            holder = self._holder(token)
            self.lapsed[job_id] = self.claimed_by.get(job_id)
            if holder is None:
                why = "the worker that held it died; nobody is working on it"
            elif self._holds_for_eta(holder) and holder.job.token == token:
                why = f"worker {holder.number} holds it, waiting for its ETA"
            elif holder.state == "killed":
                why = f"worker {holder.number}, which held it, is dead"
            else:
                why = f"worker {holder.number} is still working: slow, not dead"   # claimed, working or acking
            if attempts >= self.queue.max_attempts:   # tinyq's delivery cap
                self.emit(f"job {job_id}'s lease ran out ({why}) on its last attempt "
                          f"({attempts} of {self.queue.max_attempts}): the next claim marks it "
                          f"dead")
            else:
                self.emit(f"job {job_id}'s lease ran out ({why}); another worker may claim it")

    def _advance(self, worker):
        tick = self.ticks
        if worker.state == "killed":
            if worker.restart_at is not None and tick >= worker.restart_at:
                worker.state, worker.restart_at, worker.abandoned = "idle", None, None
                self.emit(f"the new version of worker {worker.number} started" if worker.replaced
                          else f"the supervisor restarted worker {worker.number} (a fresh process)")
                worker.replaced = False
            return
        if worker.crash_at is not None and tick >= worker.crash_at:
            if self.poison.kills(worker.job):
                self._die(worker, "was killed by the poison job it ran,")
            else:
                self._die(worker, "crashed")
            return
        if self._stop_if_due(worker) or not self._beat(worker):
            return
        if worker.state == "idle":
            self._claim(worker)
        elif tick < worker.until:
            return
        elif worker.state == "claimed":
            worker.state, worker.until = "working", tick + (worker.work or self._work_ticks())
            self._start_work(worker)   # acked now, if acks are early
        elif worker.state == "working" and self.poison.fails(worker.job):
            self.poison.fail(worker, self.queue, self.ticks, self.rng, self.emit)
        elif worker.state == "working":
            failed = self.service.call(self.ticks, self.rng)
            if failed:   # the email service failed: the job waits its backoff, or is dead
                job = worker.drop_job()
                self.emit(self.retry_policy.fail(self.queue, job, failed, self.ticks,
                                                 TICKS_PER_SECOND, self.rng))
                return
            self._send_email(worker)
            worker.state, worker.until = "acking", tick + ACK_TICKS
        elif worker.state == "acking":
            self._ack(worker)
            if not self._stop_if_due(worker):
                self._claim(worker)

    def _claim(self, worker):
        job = self.queue.claim()
        if job is None:
            return
        worker.job, worker.state, worker.until = job, "claimed", self.ticks + CLAIM_TICKS
        self.claimed_by[job.id] = worker.number
        self.handed[job.id] = self.lapsed.pop(job.id, None)   # taken over: from whom
        again = "" if job.attempts == 1 else " again"
        # chapter 3's level keeps the fencing token back (chapter 5 teaches it): no "token N"
        token = "" if "token" in LEVELS[self.params["level"]] else f", token {job.token}"
        self.emit(f"worker {worker.number} claimed job {job.id}{again} "
                  f"(attempt {job.attempts}{token})")
        self._draw_work(worker)
        self._hold_until_due(worker)   # a scheduled job a worker took early
        if self.rng.random() < self.settings["crash"]:
            span = CLAIM_TICKS + (worker.work or self._work_ticks()) + ACK_TICKS
            worker.crash_at = self.ticks + 1 + int(self.rng.random() * span)
        self.poison.claimed(worker, self.ticks, CLAIM_TICKS,
                            lambda: worker.work or self._work_ticks())

    def _send_email(self, worker):
        job_id = worker.job.id
        self.emails[job_id] += 1
        self.emails_sent += 1
        if self.emails[job_id] > 1:
            self.duplicates += 1
            self.emit(f"worker {worker.number} sent the email for job {job_id}: "
                      f"a duplicate ({self.emails[job_id]} sent)")
        else:
            self.emit(f"worker {worker.number} sent the email for job {job_id}")

    def _ack(self, worker):
        job = worker.job
        try:
            if self._lock_dropped(job):   # the reader dropped its lock: the ack cannot hold
                raise tinyq.LeaseLost(f"job {job.id}'s lock was dropped")
            self.queue.ack(job)
        except tinyq.LeaseLost:
            self.refused += 1
            self.refusals[worker.number] = (self.ticks, job.id)   # drawn where it happened
            self.emit(f"worker {worker.number}'s ack of job {job.id} was refused: "
                      f"{self._claim_named(job)} no longer holds it (the job was claimed again)")
        else:
            self.done_count += 1
            self.done_attempts += job.attempts
            self.retried += job.attempts > 1
            self.acked.append(self.clock.now)
            did = "finished" if self._acked_early(job) else "acked"   # acked early, at its start
            self.emit(f"worker {worker.number} {did} job {job.id}: done")
            self.early.discard((job.id, job.token))
        worker.drop_job()

    def _die(self, worker, how):
        held = worker.job
        worker.state, worker.job, worker.crash_at, worker.next_beat = "killed", None, None, None
        worker.frozen_until = worker.stop_by = None
        worker.stopping = False
        worker.abandoned = held
        if self.settings["supervisor"]:
            worker.restart_at = self.ticks + RESTART_TICKS
        if held is None:
            self.emit(f"worker {worker.number} {how}")
            return
        if self._lose(worker, held, how) or self._back_at_once(worker, held, how):
            return   # acked early: lost; or the broker saw its connection close
        ends = self.queue.db.execute("SELECT locked_until FROM jobs WHERE id = ? AND token = ? "
                                     "AND status = 'running'", (held.id, held.token)).fetchone()
        if ends is None:  # it was slow, and its claim had already been taken over
            self.emit(f"worker {worker.number} {how} holding a claim on job {held.id} that "
                      f"another worker had already taken over")
            return
        at = show_number(in_seconds(ends[0]))
        if ends[0] < self.ticks:   # it was slow: the lease ran out, nobody has claimed it yet
            self.emit(f"worker {worker.number} {how} holding job {held.id}, whose lease ran out "
                      f"at {at} s: another worker may claim it at once")
        else:
            self.emit(f"worker {worker.number} {how} holding job {held.id}: the job stays running "
                      f"until its lease runs out at {at} s")

    def _work_ticks(self):
        """Steps in `working`: the job's duration less the claim and the ack."""
        return max(1, to_ticks(self.settings["duration"]) - CLAIM_TICKS - ACK_TICKS)
