"""live-queue: a deploy, which stops every worker gracefully and starts the new version.

At `deploy_at` seconds every live worker gets a stop signal (SIGTERM): it claims nothing more. An
idle worker exits at once; a busy one may finish its job for `shutdown_grace` seconds, then it is
killed (SIGKILL). With `hand_back` on, a worker whose grace runs out first hands its job back with
tinyq's Queue.release() (the job is queued again at once and that claim does not count as an
attempt); with it off, the job stays running until its lease runs out, as a crash would leave it.
Each stopped worker's replacement (the new version) starts 2 s after it exits, supervisor or not.

Sources: Oban pauses its queues and waits a grace period, then leaves unfinished jobs executing
(oban#429, https://github.com/oban-bg/oban/issues/429); Sidekiq waits its timeout (25 s) and
pushes unfinished jobs back to Redis (https://github.com/sidekiq/sidekiq/wiki/Signals). A mixin
of LiveQueue (model.py), which holds the state it reads.
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


class Deploys:
    def _deploy(self):
        """At the deploy's tick, send every live worker the stop signal."""
        at = self.params["deploy_at"]
        if not at or self.ticks != to_ticks(at):
            return
        grace = self.params["shutdown_grace"]
        self.emit(f"deploy: every worker gets a stop signal and has {show_number(grace)} s to "
                  f"finish its job")
        for worker in self.workers:
            if worker.state == "killed":
                continue
            worker.stopping, worker.stop_by = True, self.ticks + round(grace * self.TICKS_PER_SECOND)
            self._stop_if_due(worker)

    def _stop_if_due(self, worker):
        """A stopping worker exits when it has no job, and is killed when its grace is over.
        Returns True if it is gone."""
        if not worker.stopping:
            return False
        if worker.job is None or worker.state == "idle":
            self._exit(worker, "stopped (it had no job to finish)")
            return True
        if self.ticks < worker.stop_by:
            return False
        job = worker.job
        if self.params["hand_back"]:
            try:
                self.queue.release(job)
            except tinyq.LeaseLost:
                self.emit(f"worker {worker.number} could not hand job {job.id} back: another "
                          f"worker holds it now")
            else:
                self.handed_back += 1
                self.emit(f"worker {worker.number} handed job {job.id} back unfinished: it is "
                          f"queued again, and this claim does not count")
                worker.job = None
        self._exit(worker, "was killed at the end of its shutdown grace")
        return True

    def _exit(self, worker, how):
        worker.stopping, worker.stop_by = False, None
        self._die(worker, how)
        worker.restart_at = self.ticks + self.RESTART_TICKS   # the new version starts
        worker.replaced = True
