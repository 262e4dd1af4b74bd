"""live-queue: what a reader can do to a running queue (kill, restart and stall a worker, add
workers and jobs, change a setting), each a checked action. A mixin of LiveQueue (model.py),
whose state it changes; a refusal is a ParamError in the reader's words."""
from ..engine.params import ParamError, convert, show_number
from ..engine.simulation import require_int
from .ticks import lease_ticks, to_ticks


class ReaderActions:
    # The reader's actions in the words of their buttons, for the time slider's marks
    # (timeline_view.action_words): never the Python call ("stall worker 1 seconds 10").
    ACTION_WORDS = {"kill": "kill worker {worker}", "restart": "restart worker {worker}",
                    "stall": "stall worker {worker} for {seconds} s", "enqueue": "enqueue a job",
                    "burst": "enqueue {count} jobs", "add_worker": "add a worker"}

    def act_enqueue(self):
        """Add one job."""
        self._require_room(1, "action")
        self._enqueue(1)

    def act_burst(self, count=100):
        """Add `count` jobs at once."""
        count = require_int("count", count, 1, self.MAX_JOBS)
        self._require_room(count, "count")
        self._enqueue(count)

    def act_add_worker(self):
        """Start one more worker."""
        if len(self.workers) >= self.MAX_WORKERS:
            raise ParamError("workers", f"at most {self.MAX_WORKERS} workers")
        self.workers.append(self.Worker(len(self.workers) + 1))
        self.emit(f"worker {len(self.workers)} started")

    def worker_actions(self, worker):
        """["kill", "restart", "stall"]: which of those `worker` (a Worker) allows now, in that
        order: kill while it is alive, restart once it is dead, stall while it holds a job. The
        snapshot sends it (the page offers those buttons), and the acts below check it."""
        alive = worker.state != "killed"
        return ([name for name, allowed in (("kill", alive), ("restart", not alive),
                                            ("stall", worker.state in ("claimed", "working")))
                 if allowed])

    def act_kill(self, worker):
        """Kill a worker's process at once, whatever it is doing."""
        target = self._worker(worker)
        if "kill" not in self.worker_actions(target):
            raise ParamError("worker", f"worker {target.number} is already dead.", label="Kill")
        self._die(target, "was killed")

    def act_restart(self, worker):
        """Start a fresh process in a dead worker's place."""
        target = self._worker(worker)
        if "restart" not in self.worker_actions(target):
            raise ParamError("worker", f"worker {target.number} is not dead.", label="Restart")
        target.state, target.restart_at, target.abandoned = "idle", None, None
        self.emit(f"worker {target.number} restarted (a fresh process)")

    def act_stall(self, worker, seconds=10):
        """Freeze a busy worker for `seconds` (a long pause): it is slow, not dead."""
        target = self._worker(worker)
        if "stall" not in self.worker_actions(target):
            raise ParamError("worker", f"worker {target.number} is {target.state}, not working "
                                       f"on a job.", label="Stall")
        freeze = convert(self.STALL, seconds)
        target.until += to_ticks(freeze)
        target.frozen_until = max(self.ticks, target.frozen_until or 0) + to_ticks(freeze)   # no heartbeats
        if target.crash_at is not None:
            target.crash_at += to_ticks(freeze)
        self.emit(f"worker {target.number} freezes for {show_number(freeze)} s in the middle of job "
                  f"{target.job.id}; its lease keeps running")

    def act_set(self, param, value):
        """Change lease, duration, crash, rate or supervisor from now on."""
        if param not in self.SETTABLE:
            raise ParamError("param", f"can set {', '.join(self.SETTABLE)}; got {param!r}")
        spec = next(spec for spec in self.PARAMS if spec["name"] == param)
        new = convert(spec, value)
        longest = self.params["duration_max"]
        if param == "duration" and longest and new > longest:
            raise ParamError("duration", f"must be at most the longest job "
                                         f"({show_number(longest)} s) while jobs vary; got "
                                         f"{show_number(new)}", label=spec["label"])
        self.settings[param] = new
        self.queue.lease = lease_ticks(self.settings["lease"])
        value = self.settings[param]
        if param == "supervisor":   # from now on: restarts on their way are kept or called off
            for worker in self.workers:
                if worker.state == "killed":
                    worker.restart_at = self.ticks + self.RESTART_TICKS if value else None
        shown = ("on" if value else "off") if isinstance(value, bool) else show_number(value)
        self.emit(f"{spec['label']} is now {shown}")

    def _require_room(self, count, field):
        if self.total + count > self.MAX_JOBS:
            raise ParamError(field, f"at most {self.MAX_JOBS:,} jobs in all; there is room for "
                                      f"{self.MAX_JOBS - self.total:,} more")

    def _worker(self, number_given):
        n = require_int("worker", number_given, 1, len(self.workers))
        return self.workers[n - 1]
