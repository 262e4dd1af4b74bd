"""live-queue: a downstream service that fails more when it is busy, and the retry policy.

Every email is a call to one service that takes `service_capacity` calls a second. A call fails
with the chance 1 - capacity / load, where load is the calls made in the last second, this one
included (0 when the load is within the capacity); 0 as the capacity means the service never
fails. A failed call fails its job, which is retried after backoff(attempt, base, cap) seconds
(tinyq.backoff: base, 2 base, 4 base ... at most cap), spread by tinyq's equal jitter when
`jitter` is on; on its last attempt (the delivery cap, 5 unless the poison level sets another)
the job is dead. Without jitter, jobs that failed together come back together and overload the
service again: the thundering herd.

Sources: sidekiq#480 and its fix sidekiq#483, a random "splay" added to each retry,
https://github.com/sidekiq/sidekiq/issues/480, https://github.com/sidekiq/sidekiq/pull/483;
Marc Brooker, "Exponential Backoff And Jitter",
https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/. A mixin of LiveQueue.
"""
from collections import deque

from ..engine.capstone import tinyq
from ..engine.params import ParamError, boolean, integer, number, show_number

PARAMS = (
    integer("service_capacity", "Service capacity (calls/s)", 0, 0, 1000,
            "Calls a second the email service takes before it starts failing, more often the "
            "busier it is; 0 means it never fails."),
    number("backoff_base", "Backoff base (s)", 1.0, 0.1, 3600.0,
           "The wait before the first retry; it doubles with every failed attempt."),
    number("backoff_cap", "Backoff cap (s)", 300.0, 0.1, 86_400.0,
           "The longest wait between two attempts, however many have failed."),
    boolean("jitter", "Jitter", True,
            "Spread each wait at random over its second half, so that jobs that failed "
            "together do not come back together."),
)


class Retries:
    def _calls_fail(self, worker):
        """The service's answer to this worker's email call: True if it failed (the email did
        not go out). Draws from the run's generator only when the service can fail."""
        capacity = self.params["service_capacity"]
        if not capacity:
            return False
        calls = self.calls
        calls.append(self.ticks)
        while calls[0] <= self.ticks - self.TICKS_PER_SECOND:
            calls.popleft()
        chance = max(0.0, 1 - capacity / len(calls))
        if self.rng.random() >= chance:
            return False
        self.calls_failed += 1
        self._retry(worker, f"the service failed under {len(calls)} calls in the last second")
        return True

    def _retry(self, worker, why):
        """Fail the worker's job: retried after the policy's backoff, or dead on its last attempt."""
        job = worker.job
        worker.job, worker.state, worker.crash_at, worker.next_beat = None, "idle", None, None
        base, cap = self.params["backoff_base"], self.params["backoff_cap"]
        delay = tinyq.backoff(job.attempts, base, cap)
        if self.params["jitter"]:
            delay = tinyq.jitter(delay, self.rng)
        error = f"failed: {why}"
        try:
            if job.attempts >= self.queue.max_attempts:
                self.queue._guarded(job, self.queue.MARK_DEAD, {"error": error})
                self.emit(f"job {job.id} {error} on its last attempt: it is dead")
            else:
                self.queue._guarded(job, self.queue.MARK_RETRY,
                                    {"error": error, "run_at": self.ticks + delay * self.TICKS_PER_SECOND})
                self.emit(f"job {job.id} {error}; retry in {delay:.2f} s "
                          f"(attempt {job.attempts})")
        except tinyq.LeaseLost:
            self.emit(f"job {job.id} {error}, but its claim had already been taken over")

    def _start_retries(self):
        """Check the policy (a cap below the base is refused beside the cap's field)."""
        base, cap = self.params["backoff_base"], self.params["backoff_cap"]
        if cap < base:
            raise ParamError("backoff_cap", f"must be at least the backoff base "
                                            f"({show_number(base)} s); got {show_number(cap)}",
                             label=PARAMS[2]["label"])
        self.calls = deque()       # the ticks of the service's calls in the last second
        self.calls_failed = 0
