"""live-queue: a producer and a crew of workers sharing one tinyq queue, on virtual time.

Each step is 0.1 virtual seconds. A worker is a small state machine; one job takes
`duration` seconds from claim to ack:

    idle --claim--> claimed (0.1 s) --> working (duration - 0.2 s) --> acking (0.1 s) --> idle
                                               the email goes out here ^

A worker that has just acked claims its next job at once; an idle one tries every step.

A killed worker stops at once; the job it held stays running in the table until its
lease runs out, and then any idle worker claims it again (with a new fencing token). A
worker that freezes (a "stall") and overruns its lease finds its ack refused by the token,
although its email has already gone out.
"""
import math
from collections import deque
from dataclasses import dataclass

from ._core import tinyq
from .params import ParamError, boolean, convert, integer, number, seed_param, show_number
from .simulation import UNFINISHED_JOBS, Simulation, plural, require_int

TICKS_PER_SECOND = 10
CLAIM_TICKS = 1      # 0.1 s from claiming a job to starting it
ACK_TICKS = 1        # 0.1 s to ack it
RESTART_TICKS = 20   # the supervisor restarts a dead worker after 2 s
MAX_WORKERS = 64
MAX_JOBS = 5000      # jobs in all, so nothing runs away in a browser tab
MAX_ROWS = 100       # job rows in one snapshot
THROUGHPUT_WINDOW = 10.0  # seconds of history behind the throughput figure
WORKER_STATES = ("idle", "claimed", "working", "acking", "killed")
SETTABLE = ("lease", "duration", "crash", "rate", "supervisor")

# The rows a snapshot shows when there are too many: running, then waiting, then finished.
ROWS_RUNNING = "SELECT id FROM jobs WHERE status = 'running' ORDER BY id LIMIT ?"
ROWS_QUEUED = "SELECT id FROM jobs WHERE status = 'queued' ORDER BY run_at, id LIMIT ?"
ROWS_FINISHED = "SELECT id FROM jobs WHERE status IN ('done', 'dead') ORDER BY id DESC LIMIT ?"


@dataclass
class Worker:
    """One worker process; `state` is one of WORKER_STATES."""
    number: int
    state: str = "idle"
    job: object = None          # the tinyq.Job this worker believes it holds
    until: int = 0              # the tick its current phase ends
    crash_at: int = None        # the tick its process will crash, if it will
    restart_at: int = None      # the tick the supervisor restarts it, if it will
    abandoned: object = None    # the tinyq.Job it held when it died


class LiveQueue(Simulation):
    NAME = "live-queue"
    MAX_RUN_STEPS = 600  # one run() call covers at most 60 virtual seconds
    PARAMS = (
        integer("workers", "Workers", 2, 1, MAX_WORKERS, "Worker processes at the start."),
        integer("jobs", "Jobs at the start", 0, 0, MAX_JOBS, "Jobs waiting in the queue at 0 s."),
        number("lease", "Lease (s)", 5.0, 0.5, 600.0,
               "How long a claim holds its job before another worker may take it."),
        number("duration", "Job duration (s)", 2.0, 0.3, 600.0,
               "How long one job takes a worker, from claim to ack."),
        number("crash", "Crash chance per job", 0.0, 0.0, 1.0,
               "The chance that a worker's process dies at a random moment of a job."),
        number("rate", "Arrivals (jobs/s)", 0.0, 0.0, 50.0,
               "Jobs the producer adds per second, at random moments."),
        boolean("supervisor", "Restart dead workers", False,
                "A supervisor starts a fresh process 2 s after a worker dies."),
        seed_param(),
    )

    def _start(self):
        self.ticks = 0
        self.settings = {name: self.params[name] for name in SETTABLE}
        self.queue = tinyq.Queue(lease=self.settings["lease"], clock=self.clock, rng=self.rng)
        self.workers = [Worker(n) for n in range(1, self.params["workers"] + 1)]
        self.emails = [0]           # emails sent, by job id
        self.emails_sent = 0
        self.duplicates = 0         # emails beyond the first for a job
        self.acked = deque()        # ack times in the throughput window
        self.done_count = self.done_attempts = self.retried = 0
        self.refused = 0            # acks the token refused
        self.cap_reported = False
        if self.params["jobs"]:
            self._enqueue(self.params["jobs"])

    # --- the world moving on -------------------------------------------------------------
    def _step(self):
        before = self.clock.now
        self.ticks += 1
        self.clock.now = self.ticks / TICKS_PER_SECOND
        self._produce()
        self._report_expired_leases(before)
        for worker in self.workers:
            self._advance(worker)

    def next_time(self):
        return (self.ticks + 1) / TICKS_PER_SECOND

    def _produce(self):
        rate = self.settings["rate"]
        if rate <= 0:
            return
        # Arrivals in one tick follow a Poisson distribution (Knuth's method, TAOCP vol. 2).
        limit, arrivals, product = math.exp(-rate / TICKS_PER_SECOND), 0, self.rng.random()
        while product > limit:
            arrivals += 1
            product *= self.rng.random()
        room = MAX_JOBS - self.total
        if arrivals and not room and not self.cap_reported:
            self.cap_reported = True
            self.emit(f"the producer stops: {MAX_JOBS:,} jobs is the most one run may hold")
        if arrivals and room:
            self._enqueue(min(arrivals, room))

    def _report_expired_leases(self, before):
        for job_id, token, attempts in self.queue.db.execute(
                "SELECT id, token, attempts FROM jobs WHERE status = 'running' "
                "AND locked_until >= ? AND locked_until < ? ORDER BY locked_until, id",
                (before, self.clock.now)):
            holder = self._holder(token)
            if holder is None:
                why = "the worker that held it died; nobody is working on it"
            elif holder.state == "killed":
                why = f"worker {holder.number}, which held it, is dead"
            else:
                why = f"worker {holder.number} is still {holder.state}: slow, not dead"
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
                self.emit(f"the supervisor restarted worker {worker.number} (a fresh process)")
            return
        if worker.crash_at is not None and tick >= worker.crash_at:
            self._die(worker, "crashed")
            return
        if worker.state == "idle":
            self._claim(worker)
        elif tick < worker.until:
            return
        elif worker.state == "claimed":
            worker.state, worker.until = "working", tick + self._work_ticks()
        elif worker.state == "working":
            self._send_email(worker)
            worker.state, worker.until = "acking", tick + ACK_TICKS
        elif worker.state == "acking":
            self._ack(worker)
            self._claim(worker)

    def _claim(self, worker):
        job = self.queue.claim()
        if job is None:
            return
        worker.job, worker.state, worker.until = job, "claimed", self.ticks + CLAIM_TICKS
        again = "" if job.attempts == 1 else " again"
        self.emit(f"worker {worker.number} claimed job {job.id}{again} "
                  f"(attempt {job.attempts}, token {job.token})")
        if self.rng.random() < self.settings["crash"]:
            span = CLAIM_TICKS + self._work_ticks() + ACK_TICKS
            worker.crash_at = self.ticks + 1 + int(self.rng.random() * span)

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
            self.queue.ack(job)
        except tinyq.LeaseLost:
            self.refused += 1
            self.emit(f"worker {worker.number}'s ack of job {job.id} was refused: token "
                      f"{job.token} no longer holds it (the job was claimed again)")
        else:
            self.done_count += 1
            self.done_attempts += job.attempts
            self.retried += job.attempts > 1
            self.acked.append(self.clock.now)
            self.emit(f"worker {worker.number} acked job {job.id}: done")
        worker.job, worker.state, worker.crash_at = None, "idle", None

    def _die(self, worker, how):
        held = worker.job
        worker.state, worker.job, worker.crash_at = "killed", None, None
        worker.abandoned = held
        if self.settings["supervisor"]:
            worker.restart_at = self.ticks + RESTART_TICKS
        if held is None:
            self.emit(f"worker {worker.number} {how}")
            return
        ends = self.queue.db.execute("SELECT locked_until FROM jobs WHERE id = ? AND token = ? "
                                     "AND status = 'running'", (held.id, held.token)).fetchone()
        if ends is None:  # it was slow, and its claim had already been taken over
            self.emit(f"worker {worker.number} {how} holding a claim on job {held.id} that "
                      f"another worker had already taken over")
            return
        self.emit(f"worker {worker.number} {how} holding job {held.id}: the job stays running "
                  f"until its lease runs out at {show_number(round(ends[0], 3))} s")

    # --- the reader's actions ----------------------------------------------------------------
    def act_enqueue(self):
        """Add one job."""
        self._require_room(1)
        self._enqueue(1)

    def act_burst(self, count=100):
        """Add `count` jobs at once."""
        count = require_int("count", count, 1, MAX_JOBS)
        self._require_room(count)
        self._enqueue(count)

    def act_add_worker(self):
        """Start one more worker."""
        if len(self.workers) >= MAX_WORKERS:
            raise ParamError("workers", f"at most {MAX_WORKERS} workers")
        self.workers.append(Worker(len(self.workers) + 1))
        self.emit(f"worker {len(self.workers)} started")

    def act_kill(self, worker):
        """Kill a worker's process at once, whatever it is doing."""
        target = self._worker(worker)
        if target.state == "killed":
            raise ParamError("worker", f"worker {target.number} is already dead")
        self._die(target, "was killed")

    def act_restart(self, worker):
        """Start a fresh process in a dead worker's place."""
        target = self._worker(worker)
        if target.state != "killed":
            raise ParamError("worker", f"worker {target.number} is not dead")
        target.state, target.restart_at, target.abandoned = "idle", None, None
        self.emit(f"worker {target.number} restarted (a fresh process)")

    def act_stall(self, worker, seconds=10):
        """Freeze a busy worker for `seconds` (a long pause): it is slow, not dead."""
        target = self._worker(worker)
        if target.state not in ("claimed", "working"):
            raise ParamError("worker", f"worker {target.number} is {target.state}, "
                                       f"not working on a job")
        freeze = convert(number("seconds", "seconds", 10, 0.1, 600, ""), seconds)
        target.until += self._ticks(freeze)
        if target.crash_at is not None:
            target.crash_at += self._ticks(freeze)
        self.emit(f"worker {target.number} freezes for {show_number(freeze)} s in the middle of job "
                  f"{target.job.id}; its lease keeps running")

    def act_set(self, param, value):
        """Change lease, duration, crash, rate or supervisor from now on."""
        if param not in SETTABLE:
            raise ParamError("param", f"can set {', '.join(SETTABLE)}; got {param!r}")
        spec = next(spec for spec in self.PARAMS if spec["name"] == param)
        self.settings[param] = convert(spec, value)
        self.queue.lease = self.settings["lease"]
        value = self.settings[param]
        shown = ("on" if value else "off") if isinstance(value, bool) else show_number(value)
        self.emit(f"{spec['label']} is now {shown}")

    def _require_room(self, count):
        if self.total + count > MAX_JOBS:
            raise ParamError("count", f"at most {MAX_JOBS:,} jobs in all; there is room for "
                                      f"{MAX_JOBS - self.total:,} more")

    def _worker(self, number_given):
        n = require_int("worker", number_given, 1, len(self.workers))
        return self.workers[n - 1]

    def _enqueue(self, count):
        first = self.total + 1
        with tinyq.transaction(self.queue.db):
            for _ in range(count):
                self.queue.enqueue("send_email", {"n": len(self.emails)})
                self.emails.append(0)
        ids = f"job {first}" if count == 1 else f"jobs {first}–{first + count - 1}"
        self.emit(f"{ids} enqueued")

    # --- what the page draws ----------------------------------------------------------------
    @property
    def total(self):
        return len(self.emails) - 1

    def _count(self, status):
        return self.queue.db.execute("SELECT count(*) FROM jobs WHERE status = ?",
                                     (status,)).fetchone()[0]

    def _holder(self, token):
        """The worker that holds (or held, when it died) the claim with this token."""
        for worker in self.workers:
            for job in (worker.job, worker.abandoned):
                if job is not None and job.token == token:
                    return worker
        return None

    @property
    def finished(self):
        busy = any(w.state not in ("idle", "killed") or w.restart_at is not None
                   for w in self.workers)
        unfinished = self.queue.db.execute(UNFINISHED_JOBS).fetchone()[0]
        return self.settings["rate"] == 0 and not busy and not unfinished

    def job_rows(self):
        ids = []
        for query in (ROWS_RUNNING, ROWS_QUEUED, ROWS_FINISHED):
            ids += [job_id for job_id, in self.queue.db.execute(query, (MAX_ROWS - len(ids),))]
        holders = {w.job.token: w.number for w in self.workers if w.job is not None}
        rows = []
        for job_id, status, attempts, locked_until, token in self.queue.db.execute(
                f"SELECT id, status, attempts, locked_until, token FROM jobs "
                f"WHERE id IN ({','.join('?' * len(ids))}) ORDER BY id", ids):
            rows.append({"id": job_id, "status": status, "attempts": attempts,
                         "lease_left": self.lease_left(status, locked_until),
                         "token": token, "worker": holders.get(token),
                         "emails": self.emails[job_id]})
        return rows

    def stats(self):
        queued, running = self._count("queued"), self._count("running")
        oldest = self.queue.db.execute(
            "SELECT min(run_at) FROM jobs WHERE status = 'queued'").fetchone()[0]
        while self.acked and self.acked[0] <= self.clock.now - THROUGHPUT_WINDOW:
            self.acked.popleft()
        window = min(THROUGHPUT_WINDOW, self.clock.now) or 1.0
        return {
            "jobs_total": self.total,
            "depth": queued,
            "running": running,
            "done": self._count("done"),
            "oldest_wait": 0.0 if oldest is None else round(self.clock.now - oldest, 3),
            "throughput": round(len(self.acked) / window, 3),
            "attempts_per_job": round(self.done_attempts / self.done_count, 3)
            if self.done_count else None,
            "retried": self.retried,
            "emails_sent": self.emails_sent,
            "duplicate_emails": self.duplicates,
            "acks_refused": self.refused,
        }

    def outcome(self):
        if self.total == 0:
            return "No jobs yet: enqueue one."
        words = (f"{self.done_count:,} of {plural(self.total, 'job')} done, "
                 f"{plural(self.emails_sent, 'email')} sent")
        if self.duplicates:
            words += f" ({plural(self.duplicates, 'duplicate')})"
        dead = self._count("dead")
        if dead:
            words += (f"; {plural(dead, 'job')} dead (the lease ran out on the last of "
                      f"{self.queue.max_attempts} attempts)")
        if self._stuck():
            words += (f"; every worker is dead, so {plural(self.total - self.done_count, 'job')}"
                      f" will wait forever")
        return words + "."

    def _stuck(self):
        """Jobs are left, and no worker is alive or coming back to do them."""
        return (self.done_count < self.total and
                all(w.state == "killed" and w.restart_at is None for w in self.workers))

    def _state(self):
        workers = []
        for w in self.workers:
            left = None if w.state in ("idle", "killed") else round(
                max(0, w.until - self.ticks) / TICKS_PER_SECOND, 3)
            workers.append({"id": w.number, "state": w.state,
                            "job": None if w.job is None else w.job.id,
                            "abandoned": None if w.abandoned is None else w.abandoned.id,
                            "token": None if w.job is None else w.job.token,
                            "phase_left": left,
                            "restart_in": None if w.restart_at is None else
                            round((w.restart_at - self.ticks) / TICKS_PER_SECOND, 3)})
        return {"workers": workers, "stats": self.stats(), "settings": dict(self.settings),
                "jobs_shown": min(self.total, MAX_ROWS), "stuck": self._stuck()}

    def _work_ticks(self):
        """Steps in `working`: the job's duration less the claim and the ack."""
        return max(1, self._ticks(self.settings["duration"]) - CLAIM_TICKS - ACK_TICKS)

    @staticmethod
    def _ticks(seconds):
        return max(1, round(seconds * TICKS_PER_SECOND))
