"""What the page draws of a live queue: the job rows, the figures, the outcome in words and
the workers' cards. A mixin of LiveQueue (live_queue.py), which holds the state it reads."""
from .simulation import UNFINISHED_JOBS, plural
from .ticks import in_seconds

# What an embed shows, by how far the guide has got (its `level:`): level -> the parts it keeps
# back until a later chapter teaches them. The run is the same whatever the level (a hidden setting
# keeps its value); the page hides a part whose name is in the snapshot's "hidden":
#   token       the fencing token: the table's Token column and the token on a worker's card (ch. 9)
#   stall       the Stall buttons and their "Stall for (s)" field (chapter 5)
#   crash, supervisor           the fields "Crash chance per job" and "Restart dead workers" (ch. 6, 9)
#   duplicate_emails, acks_refused          the figures of those names (chapters 4 and 5)
LEVELS = {
    "queue": ("token", "stall", "crash", "supervisor", "duplicate_emails", "acks_refused"),   # ch. 3
    "all": (),
}

MAX_ROWS = 100            # job rows in one snapshot
THROUGHPUT_WINDOW = 10.0  # seconds of history behind the throughput figure

# The rows a snapshot shows when there are too many: running, then waiting, then finished.
ROWS_RUNNING = "SELECT id FROM jobs WHERE status = 'running' ORDER BY id LIMIT ?"
ROWS_QUEUED = "SELECT id FROM jobs WHERE status = 'queued' ORDER BY run_at, id LIMIT ?"
ROWS_FINISHED = "SELECT id FROM jobs WHERE status IN ('done', 'dead') ORDER BY id DESC LIMIT ?"


class QueueView:
    @property
    def total(self):
        return len(self.emails) - 1

    def _count(self, status):
        return self.queue.db.execute("SELECT count(*) FROM jobs WHERE status = ?",
                                     (status,)).fetchone()[0]

    def _holder(self, token):
        """The worker that holds (or held, when it died) the claim with this token."""
        for worker in self.workers:
            for job in (worker.job, worker.abandoned):
                if job is not None and job.token == token:
                    return worker
        return None

    @property
    def finished(self):
        """Nothing more happens unless the reader acts: no worker busy or coming back, no job
        left that a live worker could take, and no arrivals (none set, or the job cap met)."""
        if any(w.state not in ("idle", "killed") or w.restart_at is not None for w in self.workers):
            return False
        if self.settings["rate"] > 0 and self.total < self.MAX_JOBS:
            return False
        if all(w.state == "killed" for w in self.workers):
            return True
        return not self.queue.db.execute(UNFINISHED_JOBS).fetchone()[0]

    def job_rows(self):
        ids = []
        for query in (ROWS_RUNNING, ROWS_QUEUED, ROWS_FINISHED):
            ids += [job_id for job_id, in self.queue.db.execute(query, (MAX_ROWS - len(ids),))]
        holders = {w.job.token: w.number for w in self.workers if w.job is not None}
        rows = []
        for job_id, status, attempts, locked_until, token in self.queue.db.execute(
                f"SELECT id, status, attempts, locked_until, token FROM jobs "
                f"WHERE id IN ({','.join('?' * len(ids))}) ORDER BY id", ids):
            rows.append({"id": job_id, "status": status, "attempts": attempts,
                         "lease_left": self.lease_left(status, in_seconds(locked_until)),
                         "token": token, "worker": holders.get(token),
                         "emails": self.emails[job_id]})
        return rows

    def stats(self):
        queued, running = self._count("queued"), self._count("running")
        oldest = self.queue.db.execute(
            "SELECT min(run_at) FROM jobs WHERE status = 'queued'").fetchone()[0]
        while self.acked and self.acked[0] <= self.clock.now - THROUGHPUT_WINDOW:
            self.acked.popleft()
        window = min(THROUGHPUT_WINDOW, self.clock.now) or 1.0
        return {
            "jobs_total": self.total,
            "depth": queued,
            "running": running,
            "done": self.done_count,   # acked: a dead job is not done
            "dead": self.total - queued - running - self.done_count,
            "oldest_wait": 0.0 if oldest is None else in_seconds(self.ticks - oldest),
            "throughput": round(len(self.acked) / window, 3),
            "attempts_per_job": round(self.done_attempts / self.done_count, 3)
            if self.done_count else None,
            "retried": self.retried,
            "emails_sent": self.emails_sent,
            "duplicate_emails": self.duplicates,
            "acks_refused": self.refused,
        }

    def outcome(self):
        if self.total == 0:
            return "No jobs yet: enqueue one."
        words = (f"{self.done_count:,} of {plural(self.total, 'job')} done, "
                 f"{plural(self.emails_sent, 'email')} sent")
        if self.duplicates:
            words += f" ({plural(self.duplicates, 'duplicate')})"
        dead = self._count("dead")
        if dead:
            words += (f"; {plural(dead, 'job')} dead (the lease ran out on the last of "
                      f"{self.queue.max_attempts} attempts)")
        if self._stuck():
            words += (f"; every worker is dead, so {plural(self.total - self.done_count, 'job')}"
                      f" will wait forever")
        return words + "."

    def _stuck(self):
        """Jobs are left, and no worker is alive or coming back to do them."""
        return (self.done_count < self.total and
                all(w.state == "killed" and w.restart_at is None for w in self.workers))

    def _state(self):
        workers = []
        for w in self.workers:
            left = None if w.state in ("idle", "killed") else round(
                max(0, w.until - self.ticks) / self.TICKS_PER_SECOND, 3)
            workers.append({"id": w.number, "state": w.state,
                            "job": None if w.job is None else w.job.id,
                            "abandoned": None if w.abandoned is None else w.abandoned.id,
                            "token": None if w.job is None else w.job.token,
                            "phase_left": left,
                            "restart_in": None if w.restart_at is None else
                            round((w.restart_at - self.ticks) / self.TICKS_PER_SECOND, 3)})
        return {"workers": workers, "stats": self.stats(), "settings": dict(self.settings),
                "jobs_shown": min(self.total, MAX_ROWS), "stuck": self._stuck(),
                "room": {"workers": self.MAX_WORKERS - len(self.workers), "jobs": self.MAX_JOBS - self.total},
                "stall": self.STALL, "hidden": list(LEVELS[self.params["level"]])}
