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
delivery cap) are in live_queue_heartbeat.py, live_queue_deploy.py and live_queue_poison.py; an
embed shows their fields only at the level that names them (live_queue_view.py, EXTRAS).
"""
from collections import deque

from ..engine.capstone import tinyq
from . import delivery as live_queue_delivery, deploy as live_queue_deploy
from . import heartbeat as live_queue_heartbeat, libraries as live_queue_libraries
from . import poison as live_queue_poison, retry as live_queue_retry
from .actions import ReaderActions
from .delivery import Delivery
from .deploy import Deploys
from .heartbeat import Heartbeats
from .libraries import Libraries
from .poison import Poison
from .producer import Producer
from .retry import Retries
from .view import LEVELS, QueueView, live_queue_view
from .worker import Worker
from ..engine.params import boolean, choice, integer, number, seed_param, show_number
from ..engine.simulation import WORKER_STATES, Agenda, Simulation  # noqa: F401 (tests import it here)
from .ticks import TICKS_PER_SECOND, TickClock, in_seconds, lease_ticks, to_ticks

CLAIM_TICKS = 1      # 0.1 s from claiming a job to starting it
ACK_TICKS = 1        # 0.1 s to ack it
RESTART_TICKS = 20   # the supervisor restarts a dead worker after 2 s
MAX_WORKERS = 64
MAX_LEASE = live_queue_heartbeat.MAX_SECONDS   # a day, in seconds: leases for hours-long jobs
MAX_JOBS = 5000      # jobs in all, so nothing runs away in a browser tab

class LiveQueue(ReaderActions, Producer, Heartbeats, Deploys, Poison, Retries, Libraries, Delivery,
                QueueView, Simulation):
    NAME = "live-queue"
    VIEW = staticmethod(live_queue_view)
    TICKS_PER_SECOND, MAX_WORKERS, MAX_JOBS = TICKS_PER_SECOND, MAX_WORKERS, MAX_JOBS
    CLAIM_TICKS, ACK_TICKS = CLAIM_TICKS, ACK_TICKS
    RESTART_TICKS, Worker = RESTART_TICKS, Worker   # for the reader's actions (live_queue_actions.py)
    MAX_RUN_STEPS = 600  # one run() call covers at most 60 virtual seconds
    PARAMS = (
        integer("workers", "Workers", 2, 1, MAX_WORKERS, "Worker processes at the start."),
        integer("jobs", "Jobs at the start", 0, 0, MAX_JOBS, "Jobs waiting in the queue at 0 s."),
        number("lease", "Lease (s)", 5.0, 0.5, MAX_LEASE,
               "How long a claim holds its job before another worker may take it.", live=True),
        number("duration", "Job duration (s)", 2.0, 0.3, MAX_LEASE,
               "How long one job takes a worker, from claim to ack.", live=True),
        number("crash", "Crash chance per job", 0.0, 0.0, 1.0,
               "The chance that a worker's process dies at a random moment of a job.", live=True),
        number("rate", "Arrivals (jobs/s)", 0.0, 0.0, 50.0,
               "Jobs the producer adds per second, at random moments.", live=True),
        boolean("supervisor", "Restart dead workers", False,
                "A supervisor starts a fresh process 2 s after a worker dies.", live=True),
        choice("level", "Shows", "all", list(LEVELS),
               "What the widget shows: `queue` keeps back what chapters 4 to 12 teach; the "
               "casebook's levels add the controls of one case (a chapter's embed sets it; the "
               "run is the same either way).",
               labels={"queue": "the queue only", "all": "what the chapters teach",
                       "heartbeats": "that, and heartbeats", "deploys": "that, and deploys",
                       "poison": "that, and a poison job",
                       "retries": "that, and a busy service with a retry policy",
                       "library": "that, and your library's settings",
                       "free": "every control at once (free play)"}),
        seed_param(),
    ) + (live_queue_heartbeat.PARAMS + live_queue_deploy.PARAMS + live_queue_poison.PARAMS
         + live_queue_retry.PARAMS + live_queue_delivery.params(MAX_JOBS))
    PARAMS += live_queue_libraries.params(PARAMS)   # its help names the others' labels
    SETTABLE = tuple(spec["name"] for spec in PARAMS if spec["live"])   # act("set") takes these
    # The stall action's argument: how long a busy worker freezes.
    STALL = number("seconds", "Stall for (s)", 10.0, 0.1, 600.0,
                   "How long a stalled worker freezes: alive, but doing nothing.")

    def _start(self):
        self._apply_library()   # a preset's defaults, before anything reads the parameters
        self.ticks = 0
        self.agenda = Agenda(self.clock)    # the world's next tick, 0.1 s on (simulation.py)
        self.agenda.schedule(1 / TICKS_PER_SECOND, "world", None)
        self.settings = {name: self.params[name] for name in self.SETTABLE}
        self._check_durations(self.params["duration"], self.params["duration_max"])
        self._start_retries()
        self._start_delivery()
        # backoff in ticks: 1 s doubling, at most 300 s (tinyq's defaults, in seconds)
        self.queue = tinyq.Queue(lease=lease_ticks(self.settings["lease"]),
                                 max_attempts=self._queue_cap(), backoff_base=TICKS_PER_SECOND,
                                 backoff_cap=300 * TICKS_PER_SECOND,
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
        self.beats = self.beats_refused = self.handed_back = 0     # heartbeats, deploys
        self.poison_claims = self.poison_failures = self.poison_kills = 0
        if self.params["jobs"]:
            self._enqueue(self.params["jobs"])

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
            if self._is_poison(worker.job) and self.params["poison"] == "kills":
                self.poison_kills += 1
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
        elif worker.state == "working" and self._is_poison(worker.job) \
                and self.params["poison"] == "fails":
            self._poison_fails(worker)
        elif worker.state == "working":
            if self._calls_fail(worker):   # the email service failed: the job waits its backoff
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
        self._poison_claimed(worker)

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
        worker.job, worker.state, worker.crash_at, worker.next_beat = None, "idle", None, None

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
