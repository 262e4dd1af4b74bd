"""live-queue: a downstream service that fails more when it is busy, and the retry policy.

Every email is a call to one service that takes `service_capacity` calls a second. A call fails
with the chance 1 - capacity / load, where load is the calls made in the last second, this one
included (0 when the load is within the capacity); 0 as the capacity means the service never
fails. A failed call fails its job, which is retried after backoff(attempt, base, cap) seconds
(tinyq.backoff: base, 2 base, 4 base ... at most cap), spread by tinyq's equal jitter when
`jitter` is on; on its last attempt (the delivery cap, 5 unless the poison level sets another)
the job is dead. Without jitter, jobs that failed together come back together and overload the
service again: the thundering herd.

The live queue holds one Service and one RetryPolicy (model.py): each owns its settings and
state, and takes the run's tick and generator from the simulation when it is called.

Sources: sidekiq#480 and its fix sidekiq#483, a random "splay" added to each retry,
https://github.com/sidekiq/sidekiq/issues/480, https://github.com/sidekiq/sidekiq/pull/483;
Marc Brooker, "Exponential Backoff And Jitter",
https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/.
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


class Service:
    """The email service: `capacity` calls a second (0: it never fails), the ticks of the calls
    made in the last second (`per_second` ticks), and how many calls failed (`failed`)."""

    def __init__(self, capacity, per_second):
        self.capacity, self.per_second = capacity, per_second
        self.calls = deque()
        self.failed = 0

    def call(self, tick, rng):
        """One email call at `tick`: None if it went through, else why it failed, in words.
        Draws from `rng` only when the service can fail (so runs without it replay as before)."""
        if not self.capacity:
            return None
        calls = self.calls
        calls.append(tick)
        while calls[0] <= tick - self.per_second:
            calls.popleft()
        chance = max(0.0, 1 - self.capacity / len(calls))
        if rng.random() >= chance:
            return None
        self.failed += 1
        return f"the service failed under {len(calls)} calls in the last second"


class RetryPolicy:
    """When a failed job is tried again: tinyq's backoff from `base` to `cap` seconds, spread by
    its equal jitter when `jitter` is on. Raises ParamError (beside the cap's field) for a cap
    below the base."""

    def __init__(self, base, cap, jitter):
        if cap < base:
            raise ParamError("backoff_cap", f"must be at least the backoff base "
                                            f"({show_number(base)} s); got {show_number(cap)}",
                             label=PARAMS[2]["label"])
        self.base, self.cap, self.jitter = base, cap, jitter

    @classmethod
    def from_params(cls, params):
        return cls(params["backoff_base"], params["backoff_cap"], params["jitter"])

    def fail(self, queue, job, why, tick, per_second, rng):
        """Fail `job` (a tinyq.Job of `queue`, whose clock counts `per_second` ticks a second) at
        `tick`: queued again after the backoff, or dead on its last attempt. Returns what
        happened, in words (the claim may already have been taken over: then nothing is written)."""
        delay = tinyq.backoff(job.attempts, self.base, self.cap)
        if self.jitter:
            delay = tinyq.jitter(delay, rng)
        error = f"failed: {why}"
        try:
            if job.attempts >= queue.max_attempts:
                queue._guarded(job, queue.MARK_DEAD, {"error": error})
                return f"job {job.id} {error} on its last attempt: it is dead"
            queue._guarded(job, queue.MARK_RETRY,
                           {"error": error, "run_at": tick + delay * per_second})
            return f"job {job.id} {error}; retry in {delay:.2f} s (attempt {job.attempts})"
        except tinyq.LeaseLost:
            return f"job {job.id} {error}, but its claim had already been taken over"
