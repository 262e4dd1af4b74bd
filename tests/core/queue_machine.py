"""A hypothesis state machine that drives tinyq through random histories and checks its promises.

It enqueues jobs, lets two workers claim (a claim is split into
"look" and "grab" so a broken claim can be interleaved), moves the clock past leases,
renews leases (extend) and hands jobs back (release), finishes jobs (ack, fail, complete()
with an effect written in the same transaction), and crashes workers at any point,
including inside an open complete(). After every step:

- no job is lost: every enqueued job is still in the table, in one of the four states,
  and a running job always has a lease that will run out;
- two workers never hold live (unexpired) claims on one job at the same time;
- no job is finished (done or dead) twice;
- a job's effect written with complete() exists exactly once if the job is done by
  complete(), and not at all otherwise;
- the delivery cap holds: no job is ever claimed more than max_attempts times, so a job whose
  lease keeps running out ends dead instead of being handed out for ever;
and, at random moments, on a copy of the database with time moved on, a worker that never
crashes can take every job to done or dead.

tests/core/test_tinyq_properties.py runs it, on both engines and against broken queues.
"""
import random
import sqlite3
from collections import Counter

from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tests.support.capstone import tinyq
from tests.support.clock import FakeClock

LEASE = 10.0
MAX_ATTEMPTS = 3
WORKERS = ("w1", "w2")
SETTINGS = settings(max_examples=300, stateful_step_count=40, deadline=None, database=None,
                    derandomize=True, suppress_health_check=[HealthCheck.too_slow])
# A broken queue only has to be caught, not explained: search longer, skip shrinking.
HUNT = settings(SETTINGS, max_examples=1500, phases=[Phase.generate])


class PropertyViolated(AssertionError):
    """One of the queue's promises was broken."""


def require(ok, message):
    if not ok:
        raise PropertyViolated(message)


class Crash(BaseException):
    """The worker's process dies here: nothing after this line runs."""


class AtomicClaim:
    """tinyq's own claim: looking is nothing, grabbing is the one atomic statement."""

    def look(self, queue):
        return True

    def grab(self, queue, looked):
        return queue.claim()


class QueueMachine(RuleBasedStateMachine):
    queue_class = tinyq.Queue
    claim_method = AtomicClaim()

    def __init__(self):
        super().__init__()
        self.clock = FakeClock()
        self.queue = self.queue_class(self.place(), lease=LEASE, max_attempts=MAX_ATTEMPTS,
                                      backoff_base=1.0,
                                      backoff_cap=4.0, clock=self.clock, rng=random.Random(0))
        self.sqlite = isinstance(self.queue.db, sqlite3.Connection)
        self.queue.db.execute("CREATE TABLE effects (job_id INTEGER NOT NULL)")
        self.enqueued = set()
        self.keys_used = set()
        self.looked = {}      # worker -> what its "look" saw
        self.held = {}        # worker -> (job, lease end) it believes it holds
        self.finished = Counter()   # job id -> successful finishes to done or dead
        self.done_by_complete = set()

    def place(self):
        """Where a new example's queue lives: a fresh, empty database."""
        return ":memory:"

    def add_effect(self, db, job):
        db.execute("INSERT INTO effects VALUES (?)" if self.sqlite else
                   "INSERT INTO effects VALUES (%s)", (job.id,))

    def in_transaction(self):
        db = self.queue.db
        return db.in_transaction if self.sqlite else db.info.transaction_status.name != "IDLE"

    # --- what happens -----------------------------------------------------------------
    @initialize(jobs=st.integers(min_value=1, max_value=3))
    def some_jobs_wait(self, jobs):
        for _ in range(jobs):
            self.enqueue(None)

    @rule(key=st.one_of(st.none(), st.sampled_from(["k1", "k2", "k3"])))
    def enqueue(self, key):
        job_id = self.queue.enqueue("work", {"n": len(self.enqueued)}, unique_key=key)
        if key in self.keys_used:
            require(job_id is None, f"a second job with unique key {key} was accepted")
        else:
            require(job_id is not None, f"a job with a new key {key} was refused")
            self.enqueued.add(job_id)
        if key is not None:
            self.keys_used.add(key)

    @rule(seconds=st.sampled_from([0.5, 1.0, 3.0, LEASE, 2 * LEASE]))
    def time_passes(self, seconds):
        self.clock.now += seconds

    def idle(self):
        return [w for w in WORKERS if w not in self.held]

    @precondition(lambda self: self.idle())
    @rule(data=st.data())
    def claim(self, data):
        worker = data.draw(st.sampled_from(self.idle()), label="worker")
        self._look(worker)
        self._grab(worker)

    @precondition(lambda self: self.idle())
    @rule(data=st.data())
    def look(self, data):
        self._look(data.draw(st.sampled_from(self.idle()), label="worker"))

    @precondition(lambda self: self.looked)
    @rule(data=st.data())
    def grab(self, data):
        self._grab(data.draw(st.sampled_from(sorted(self.looked)), label="worker"))

    @precondition(lambda self: self.held)
    @rule(data=st.data(), how=st.sampled_from(["ack", "fail", "complete"]))
    def finish(self, data, how):
        worker = data.draw(st.sampled_from(sorted(self.held)), label="worker")
        job, _ = self.held.pop(worker)
        try:
            if how == "ack":
                self.queue.ack(job)
            elif how == "fail":
                self.queue.fail(job, "TimeoutError: no reply")
            else:
                with job.complete() as db:
                    self.add_effect(db, job)
                self.done_by_complete.add(job.id)
        except tinyq.LeaseLost:
            return
        if job.outcome in ("done", "dead"):
            self.finished[job.id] += 1

    @precondition(lambda self: self.held)
    @rule(data=st.data())
    def heartbeat(self, data):
        worker = data.draw(st.sampled_from(sorted(self.held)), label="worker")
        job, _ = self.held[worker]
        try:
            until = self.queue.extend(job)
        except tinyq.LeaseLost:
            self.held.pop(worker)       # it hears the lease is lost, and stops the work
            return
        require(until == self.clock.now + LEASE, f"extend returned {until}")
        self.held[worker] = (job, until)

    @precondition(lambda self: self.held)
    @rule(data=st.data())
    def release(self, data):
        worker = data.draw(st.sampled_from(sorted(self.held)), label="worker")
        job, _ = self.held.pop(worker)
        try:
            self.queue.release(job)
        except tinyq.LeaseLost:
            pass

    @precondition(lambda self: self.held or self.looked)
    @rule(data=st.data())
    def crash_holding_a_job(self, data):
        worker = data.draw(st.sampled_from(sorted(set(self.held) | set(self.looked))),
                           label="worker")
        self.held.pop(worker, None)
        self.looked.pop(worker, None)

    @precondition(lambda self: self.held)
    @rule(data=st.data())
    def crash_inside_complete(self, data):
        worker = data.draw(st.sampled_from(sorted(self.held)), label="worker")
        job, _ = self.held.pop(worker)
        try:
            with job.complete() as db:
                self.add_effect(db, job)
                raise Crash
        except Crash:
            pass

    def _look(self, worker):
        self.looked[worker] = self.claim_method.look(self.queue)

    def _grab(self, worker):
        job = self.claim_method.grab(self.queue, self.looked.pop(worker))
        if job is None:
            return
        now = self.clock.now
        require(job.attempts <= MAX_ATTEMPTS, f"job {job.id} was handed out for attempt "
                                              f"{job.attempts} of {MAX_ATTEMPTS}")
        for other, (held, lease_end) in self.held.items():
            require(not (held.id == job.id and lease_end >= now),   # [claim, lease_end]
                    f"{worker} claimed job {job.id} while {other}'s lease on it runs "
                    f"until {lease_end} (now {now})")
        self.held[worker] = (job, now + LEASE)

    # --- what must always be true -------------------------------------------------------
    def rows(self):
        return {job_id: (status, locked_until) for job_id, status, locked_until in
                self.queue.db.execute("SELECT id, status, locked_until FROM jobs")}

    @invariant()
    def no_job_is_lost(self):
        rows = self.rows()
        require(set(rows) == self.enqueued, f"jobs in table {sorted(rows)} != {sorted(self.enqueued)}")
        for job_id, (status, locked_until) in rows.items():
            require(status in tinyq.STATES, f"job {job_id} has status {status!r}")
            require(status != "running" or locked_until is not None,
                    f"job {job_id} is running with no lease: it would be stuck forever")
        require(not self.in_transaction(), "a transaction was left open")

    @invariant()
    def no_job_is_finished_twice(self):
        twice = {job_id: n for job_id, n in self.finished.items() if n > 1}
        require(not twice, f"jobs finished more than once: {twice}")

    @invariant()
    def complete_effects_happen_exactly_once(self):
        effects = Counter(job_id for (job_id,) in self.queue.db.execute("SELECT job_id FROM effects"))
        statuses = self.rows()
        for job_id in self.enqueued:
            want = 1 if job_id in self.done_by_complete and statuses[job_id][0] == "done" else 0
            require(effects[job_id] == want,
                    f"job {job_id} ({statuses[job_id][0]}): effect happened {effects[job_id]} "
                    f"times, want {want}")

    @rule()
    def a_healthy_worker_could_drain_the_queue(self):
        """On a copy of the database, with every lease and backoff over, one worker that
        never crashes takes every job to done or dead: nothing is stuck or lost.
        (On PostgreSQL the "copy" is a transaction that is rolled back afterwards.)"""
        if not self.sqlite:
            with self.queue.db.transaction(force_rollback=True):
                self.clock.now += 1e6
                try:
                    self.drain(self.queue)
                finally:
                    self.clock.now -= 1e6
            return
        copy = tinyq.Queue(lease=LEASE, max_attempts=MAX_ATTEMPTS,
                           clock=lambda: self.clock.now + 1e6)
        try:
            self.queue.db.backup(copy.db)
            self.drain(copy)
        finally:
            copy.close()

    def drain(self, queue):
        for _ in range(4 * len(self.enqueued) + 1):
            job = queue.claim()
            if job is None:
                break
            queue.ack(job)
        left = {job_id: status for job_id, status in
                queue.db.execute("SELECT id, status FROM jobs WHERE status IN ('queued', 'running')")}
        require(not left, f"jobs a healthy worker could not finish: {left}")

    def teardown(self):
        self.queue.close()
