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
https://github.com/php-enqueue/enqueue-dev/pull/720. A mixin of LiveQueue (model.py).
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


class Poison:
    def _queue_cap(self):
        """The max_attempts tinyq is given: the cap, unless only failures count."""
        return UNCOUNTED if self.params["cap_counts"] == "failures" else self.params["max_attempts"]

    def _is_poison(self, job):
        return job is not None and job.id == POISON_JOB and self.params["poison"] != "healthy"

    def _poison_claimed(self, worker):
        """Just after a claim: count the poison job's claims, and plan its kill."""
        if not self._is_poison(worker.job):
            return
        self.poison_claims += 1
        if self.params["poison"] == "kills":   # halfway through the work, every time
            work = worker.work or self._work_ticks()
            worker.crash_at = self.ticks + self.CLAIM_TICKS + max(1, work // 2)

    def _poison_fails(self, worker):
        """The poison job's handler raises where the email would go out: record the failure as
        the cap's setting says, and leave the worker idle."""
        job, counts, cap = worker.job, self.params["cap_counts"], self.params["max_attempts"]
        error = "poison: the handler raised"
        worker.drop_job()
        try:
            if counts == "new-copy":
                delay = tinyq.jitter(tinyq.backoff(1, self.queue.backoff_base,
                                                   self.queue.backoff_cap), self.rng)
                self.queue._guarded(job, REQUEUE_AS_NEW, {"error": error,
                                                          "run_at": self.ticks + delay})
                self.emit(f"job {job.id} failed on worker {worker.number}; it is requeued as a "
                          f"new message, whose attempts start again from 0")
                return
            self.poison_failures += 1
            permanent = counts == "failures" and self.poison_failures >= cap
            state = self.queue.fail(job, error, permanent=permanent)
        except tinyq.LeaseLost:
            self.emit(f"job {job.id} failed on worker {worker.number}, whose claim had already "
                      f"been taken over: nothing was written")
            return
        if state == "dead":
            self.emit(f"job {job.id} failed on worker {worker.number} for the last time "
                      f"({cap} of {cap}): it is dead")
        else:
            self.emit(f"job {job.id} failed on worker {worker.number} (attempt {job.attempts}); "
                      f"it will be retried after a backoff")
