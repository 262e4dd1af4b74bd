"""live-queue: one worker process's state, as the live queue's modules read and change it."""
from dataclasses import dataclass


@dataclass
class Worker:
    """One worker process; `state` is one of WORKER_STATES (simulation.py), never finished."""
    number: int
    state: str = "idle"
    job: object = None          # the tinyq.Job this worker believes it holds
    until: int = 0              # the tick its current phase ends
    crash_at: int = None        # the tick its process will crash, if it will
    restart_at: int = None      # the tick the supervisor restarts it, if it will
    abandoned: object = None    # the tinyq.Job it held when it died
    work: int = None            # ticks of work this job takes, when durations vary
    next_beat: int = None       # the tick of its next heartbeat, when heartbeats are on
    frozen_until: int = None    # the tick a stall ends: no heartbeats before it
    stopping: bool = False      # a deploy's stop signal reached it: it claims nothing more
    stop_by: int = None         # the tick it is killed if it is still busy
    replaced: bool = False      # its restart is the deploy's new version

    def drop_job(self):
        """Back to idle with no job, its attempt over (acked, failed, or its claim lost); returns
        the tinyq.Job it held."""
        job = self.job
        self.job, self.state, self.crash_at, self.next_beat = None, "idle", None, None
        return job
