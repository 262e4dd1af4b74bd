"""live-queue: a deploy, which stops every worker gracefully and starts the new version.

At `deploy_at` seconds every live worker gets a stop signal (SIGTERM): it claims nothing more. An
idle worker exits at once; a busy one may finish its job for `shutdown_grace` seconds, then it is
killed (SIGKILL). With `hand_back` on, a worker whose grace runs out first hands its job back with
tinyq's Queue.release() (the job is queued again at once and that claim does not count as an
attempt); with it off, the job stays running until its lease runs out, as a crash would leave it.
Each stopped worker's replacement (the new version) starts 2 s after it exits, supervisor or not.

Sources: Oban pauses its queues and waits a grace period, then leaves unfinished jobs executing
(oban#429, https://github.com/oban-bg/oban/issues/429); Sidekiq waits its timeout (25 s) and
pushes unfinished jobs back to Redis (https://github.com/sidekiq/sidekiq/wiki/Signals). The live
queue holds one Deploy (model.py) and kills the workers it says must go.
"""
from ..engine.capstone import tinyq
from ..engine.params import boolean, number, show_number
from .ticks import to_ticks

PARAMS = (
    number("deploy_at", "Deploy at (s)", 0.0, 0.0, 86_400.0,
           "When a deploy sends every worker a stop signal; 0 means no deploy."),
    number("shutdown_grace", "Shutdown grace (s)", 0.0, 0.0, 86_400.0,
           "How long a stopping worker may go on with its job before it is killed."),
    boolean("hand_back", "Hand running jobs back", False,
            "A worker still holding a job when its grace runs out gives the job back to the "
            "queue before it exits, instead of leaving it to its lease."),
)


class Deploy:
    """The run's deploy, from its three settings (seconds): which tick sends the stop signal (None
    when `at` is 0: no deploy), the grace a stopping worker has, and whether it hands its job
    back; and how many jobs were handed back (`handed_back`). The live queue calls signal() at
    every tick and stop() for each worker; a worker's own part of a deploy (`stopping`,
    `stop_by`) is on the Worker."""

    def __init__(self, at, grace, hand_back):
        self.tick = to_ticks(at) if at else None
        self.grace, self.hand_back = grace, hand_back
        self.handed_back = 0

    @classmethod
    def from_params(cls, params):
        return cls(params["deploy_at"], params["shutdown_grace"], params["hand_back"])

    def signal(self, tick):
        """The deploy's words when `tick` is the deploy's, else None."""
        if tick != self.tick:
            return None
        return (f"deploy: every worker gets a stop signal and has {show_number(self.grace)} s to "
                f"finish its job")

    def stop_signal(self, worker, tick, per_second):
        """The stop signal reaches `worker` at `tick`: it claims nothing more, and is killed
        `grace` seconds on (clock of `per_second` ticks a second) if it is still busy."""
        worker.stopping, worker.stop_by = True, tick + round(self.grace * per_second)

    def stop(self, worker, tick, queue, emit):
        """Whether a stopping worker goes now: None if it stays (not stopping, or busy within its
        grace), else how it goes, in words. A worker whose grace ran out hands its job back
        first (tinyq's release, in `queue`) when hand_back is on, saying so through `emit`."""
        if not worker.stopping:
            return None
        if worker.job is None or worker.state == "idle":
            return "stopped (it had no job to finish)"
        if tick < worker.stop_by:
            return None
        job = worker.job
        if self.hand_back:
            try:
                queue.release(job)
            except tinyq.LeaseLost:
                emit(f"worker {worker.number} could not hand job {job.id} back: another "
                     f"worker holds it now")
            else:
                self.handed_back += 1
                emit(f"worker {worker.number} handed job {job.id} back unfinished: it is "
                     f"queued again, and this claim does not count")
                worker.job = None
        return "was killed at the end of its shutdown grace"
