"""live-queue: heartbeats that renew a working worker's lease, and job durations that vary.

A worker with heartbeats on renews its claim every `heartbeat` seconds while it holds a job, with
tinyq's own Queue.extend(): each renewal runs the lease to now + heartbeat + grace seconds. So a
slow but live worker keeps its job however long the work takes, and a dead worker's job comes
back at most `heartbeat + grace` seconds after its last beat: the reaper (the next claim, which
takes running jobs whose lease has run out) waits `grace` seconds past a missed beat before it
counts the job as orphaned. A frozen worker (a stall) sends no beats, as a paused process would
not; when it wakes it beats at once, and if its job was taken over meanwhile, tinyq refuses the
renewal (LeaseLost) and the worker stops that job before it sends anything.

Sources: the better fix in pretix#2058 and readthedocs.org#12342 (a task that outlives the
visibility timeout), https://github.com/pretix/pretix/issues/2058; Oban's Lifeline plugin (how
long a job may run before it counts as orphaned), https://hexdocs.pm/oban/Oban.Plugins.Lifeline.html. A mixin of
LiveQueue (model.py), which holds the state it reads.
"""
from ..engine.capstone import tinyq
from ..engine.params import ParamError, number, show_number
from .ticks import lease_ticks, to_ticks

MAX_SECONDS = 86_400.0   # a day: leases, durations and heartbeats long enough for hours-long jobs

PARAMS = (
    number("heartbeat", "Heartbeat every (s)", 0.0, 0.0, MAX_SECONDS,
           "How often a working worker renews its lease; 0 turns heartbeats off. Each renewal "
           "runs the lease to the heartbeat plus the reaper's grace from now."),
    number("grace", "Reaper's grace (s)", 1.0, 0.0, MAX_SECONDS,
           "How long past a missed heartbeat before another worker may take the job over."),
    number("duration_max", "Longest job (s)", 0.0, 0.0, MAX_SECONDS,
           "When above 0, each job takes a random time between the job duration and this; "
           "0 gives every job the same duration."),
)


class Heartbeats:
    def _check_durations(self, duration, longest):
        """Refuse a longest job shorter than the job duration (both in seconds)."""
        if longest and longest < duration:
            raise ParamError("duration_max", f"must be 0, or at least the job duration "
                                             f"({show_number(duration)} s); got "
                                             f"{show_number(longest)}", label=PARAMS[2]["label"])

    def _draw_work(self, worker):
        """At a claim: the ticks this job's work will take, drawn with the run's generator
        when durations vary (nothing is drawn when they do not, so older runs replay)."""
        worker.work = None
        longest = self.params["duration_max"]
        if longest:
            shortest = self.settings["duration"]
            seconds = shortest + self.rng.random() * (max(shortest, longest) - shortest)
            worker.work = max(1, to_ticks(seconds) - self.CLAIM_TICKS - self.ACK_TICKS)
        every = self.params["heartbeat"]
        worker.next_beat = self.ticks + to_ticks(every) if every else None

    def _beat(self, worker):
        """Renew a busy worker's lease if a beat is due; return False if the job was lost
        (the worker has dropped it and is idle)."""
        if worker.next_beat is None or self.ticks < worker.next_beat or worker.job is None:
            return True
        if self._acked_early(worker.job):
            return True   # acked early: no lease left to renew
        if worker.frozen_until is not None and self.ticks < worker.frozen_until:
            return True   # a frozen process sends nothing
        every, grace = self.params["heartbeat"], self.params["grace"]
        job = worker.job
        try:
            if self._lock_dropped(job):   # the reader dropped its lock: no renewal holds
                raise tinyq.LeaseLost(f"job {job.id}'s lock was dropped")
            until = self.queue.extend(job, lease_ticks(every + grace))
        except tinyq.LeaseLost:
            if self._carries_on(worker, job):   # Bull's way: it works on regardless
                self.beats_refused += 1
                return True
            self.emit(f"worker {worker.number}'s heartbeat for job {job.id} was refused: "
                      f"{self._claim_named(job)} no longer holds it, so the worker stops that job")
            worker.drop_job()
            self.beats_refused += 1
            return False
        self.beats += 1
        worker.next_beat = self.ticks + to_ticks(every)
        if self.beats <= 3 or self.beats % 50 == 0:   # enough to see it, not one a second
            self.emit(f"worker {worker.number} sent a heartbeat for job {job.id}: its lease "
                      f"now runs to {show_number(until / self.TICKS_PER_SECOND)} s "
                      f"(heartbeat {self.beats})")
        return True
