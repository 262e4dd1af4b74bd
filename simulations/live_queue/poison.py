"""live-queue: a poison job, and what the delivery cap counts.

Job 1 can be a poison job: one that fails on every attempt (its handler raises before the email),
or one that kills its worker halfway through every attempt (a segfault, memory running out). The
delivery cap, `max_attempts`, makes a job dead instead of handing it out again; what it counts
decides whether a poison job ever gets there:

    claims     tinyq's rule: every claim counts, a lease that ran out too, so a job that kills
               its workers is dead after max_attempts claims (SQS's maxReceiveCount).
    failures   only a handler's failure counts: a job that kills its worker never fails, so it
               comes back for ever (Sidekiq before 2020: sidekiq#4069).
    new-copy   a failed job is deleted and sent again as a new message, whose count starts from
               0, so the cap is never reached (php-enqueue's SQS consumer: enqueue-dev#475).

A failed attempt waits tinyq's backoff with jitter (1 s doubling, at most 300 s) before the job
may be claimed again. Sources: https://github.com/sidekiq/sidekiq/issues/4069,
https://github.com/sidekiq/sidekiq/issues/4633, https://github.com/php-enqueue/enqueue-dev/issues/475,
https://github.com/php-enqueue/enqueue-dev/pull/720. The live queue holds one PoisonJob (model.py).
"""
from ..engine.capstone import tinyq
from ..engine.params import choice, integer

POISON_JOB = 1          # the job that is poison, when there is one
UNCOUNTED = 10 ** 9     # tinyq's cap when only failures count: never reached by claims

# Sent again as a new message: the same row, queued, its count of attempts back to 0 (a broken
# requeue, kept here and not in tinyq). Guarded by the claim's token like tinyq's own finishes.
REQUEUE_AS_NEW = """
UPDATE jobs SET status = 'queued', run_at = :run_at, locked_until = NULL, attempts = 0,
       last_error = :error
 WHERE id = :id AND token = :token AND status = 'running'"""

PARAMS = (
    choice("poison", "Poison job", "healthy", ["healthy", "fails", "kills"],
           "Whether job 1 is a poison job, and what it does on every attempt.",
           labels={"healthy": "job 1 is healthy", "fails": "job 1 fails every time",
                   "kills": "job 1 kills its worker every time"}),
    integer("max_attempts", "Delivery cap (attempts)", 5, 1, 1000,
            "How many times a job may be tried before it is marked dead."),
    choice("cap_counts", "The cap counts", "claims", ["claims", "failures", "new-copy"],
           "Which tries count towards the delivery cap.",
           labels={"claims": "all claims, a lease that ran out too",
                   "failures": "failures only: a killed worker's job is not counted",
                   "new-copy": "nothing: a failed job is requeued as a new message"}),
)


class PoisonJob:
    """Job 1 as the run's settings make it (`kind`: healthy, fails or kills), the delivery cap
    (`cap` attempts) and what it counts (`counts`: claims, failures or new-copy); and what
    happened to the poison job: its claims, its failures and the workers it killed (`killed`).
    The live queue holds one and calls it at each claim and wherever the job could fail or kill."""

    def __init__(self, kind, cap, counts):
        self.kind, self.cap, self.counts = kind, cap, counts
        self.claims = self.failures = self.killed = 0

    @classmethod
    def from_params(cls, params):
        return cls(params["poison"], params["max_attempts"], params["cap_counts"])

    def queue_cap(self):
        """The max_attempts tinyq is given: the cap, unless only failures count."""
        return UNCOUNTED if self.counts == "failures" else self.cap

    def is_poison(self, job):
        return job is not None and job.id == POISON_JOB and self.kind != "healthy"

    def claimed(self, worker, tick, claim_ticks, work_ticks):
        """Just after `worker`'s claim at `tick`: count the poison job's claims, and plan its
        kill halfway through the work (`work_ticks()`: the ticks its work takes)."""
        if not self.is_poison(worker.job):
            return
        self.claims += 1
        if self.kind == "kills":
            worker.crash_at = tick + claim_ticks + max(1, work_ticks() // 2)

    def kills(self, job):
        """Whether a worker whose process dies now was killed by `job` (then it is counted)."""
        if self.is_poison(job) and self.kind == "kills":
            self.killed += 1
            return True
        return False

    def fails(self, job):
        """Whether `job`'s handler raises now, where the email would go out."""
        return self.is_poison(job) and self.kind == "fails"

    def fail(self, worker, queue, tick, rng, emit):
        """The poison job's handler raised on `worker` at `tick`: record the failure in `queue`
        as the cap's setting says (drawing a jitter from `rng` for a new copy), say what happened
        through `emit`, and leave the worker idle."""
        error = "poison: the handler raised"
        job = worker.drop_job()
        try:
            if self.counts == "new-copy":
                delay = tinyq.jitter(tinyq.backoff(1, queue.backoff_base, queue.backoff_cap), rng)
                queue._guarded(job, REQUEUE_AS_NEW, {"error": error, "run_at": tick + delay})
                emit(f"job {job.id} failed on worker {worker.number}; it is requeued as a "
                     f"new message, whose attempts start again from 0")
                return
            self.failures += 1
            permanent = self.counts == "failures" and self.failures >= self.cap
            state = queue.fail(job, error, permanent=permanent)
        except tinyq.LeaseLost:
            emit(f"job {job.id} failed on worker {worker.number}, whose claim had already "
                 f"been taken over: nothing was written")
            return
        if state == "dead":
            emit(f"job {job.id} failed on worker {worker.number} for the last time "
                 f"({self.cap} of {self.cap}): it is dead")
        else:
            emit(f"job {job.id} failed on worker {worker.number} (attempt {job.attempts}); "
                 f"it will be retried after a backoff")
