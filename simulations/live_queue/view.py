"""What the page draws of a live queue: the job rows, the figures, the outcome in words and
the workers' cards. QueueView is a mixin of LiveQueue (model.py), which holds the state it
reads; live_queue_view() turns its snapshot into the words and numbers shown (view.py)."""
from . import table as jobs_table
from .levels import LEVELS
from .picture import claims, picture
from ..engine.simulation import UNFINISHED_JOBS, plural
from .ticks import in_seconds
from ..engine.view import bad_if, chip, dash, key_item, per_second, secs, table, tile, view

THROUGHPUT_WINDOW = 10.0  # seconds of history behind the throughput figure


class QueueView:
    VIEW_ACTS = frozenset({"table"})   # which jobs the table lists: not one of the run's moves

    @property
    def total(self):
        return len(self.emails) - 1

    def _counts(self):
        """(queued, running, dead): every job is one of those or done (self.done_count)."""
        return jobs_table.counts(self.queue.db, self.total, self.done_count)

    def _claim_named(self, job):
        """How the log names the claim `job` holds: "token N", or "its claim" at a level that
        keeps the fencing token back (chapter 3's; chapter 5 teaches the token)."""
        return "its claim" if "token" in LEVELS[self.params["level"]] else f"token {job.token}"

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

    def act_table(self, view="watch", page=1):
        """Which jobs the table lists (a TABLE_VIEWS name) and which page of them, from 1. The
        run is untouched: the page sends it, never a link (it is not one of the reader's moves)."""
        self.table = jobs_table.choose(view, page, self.MAX_JOBS)

    def _table_parts(self, view):
        """[(how many, fetch(offset, limit) -> ids)]: the view's jobs, in order, in parts."""
        queued, running, dead = self._counts()
        return jobs_table.parts(self.queue.db, view, self.total, self.done_count,
                                queued, running, dead)

    def table_page(self):
        """(the ids on the table's page, {view, page, pages, first, last, count, note})."""
        view, page = getattr(self, "table", ("watch", 1))
        return jobs_table.page_of(self._table_parts(view), view, page)

    def job_rows(self):
        ids, self._table_drawn = self.table_page()   # _state() sends the page's figures with it
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
        queued, running, dead = self._counts()
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
            "dead": dead,
            "oldest_wait": 0.0 if oldest is None else in_seconds(self.ticks - oldest),
            "throughput": round(len(self.acked) / window, 3),
            "attempts_per_job": round(self.done_attempts / self.done_count, 3)
            if self.done_count else None,
            "retried": self.retried,
            "emails_sent": self.emails_sent,
            "duplicate_emails": self.duplicates,
            "acks_refused": self.refused,
            # the casebook's controls: heartbeats, a deploy, a poison job (job 1)
            "heartbeats": self.beats,
            "heartbeats_refused": self.beats_refused,
            "handed_back": self.deploy.handed_back,
            "poison_claims": self.poison.claims,
            "poison_kills": self.poison.killed,
            "calls_failed": self.service.failed,   # the email service's failures (retries level)
        }

    def outcome(self):
        if self.total == 0:
            return "No jobs yet: enqueue one."
        words = (f"{self.done_count:,} of {plural(self.total, 'job')} done, "
                 f"{plural(self.emails_sent, 'email')} sent")
        if self.duplicates:
            words += f" ({plural(self.duplicates, 'duplicate')})"
        dead = self._counts()[2]
        if dead and self.params["poison"] != "healthy":
            words += (f"; {plural(dead, 'job')} dead (out of attempts: the cap is "
                      f"{self.params['max_attempts']})")
        elif dead:
            words += (f"; {plural(dead, 'job')} dead (the lease ran out on the last of "
                      f"{self.queue.max_attempts} attempts)")
        if self._stuck():
            words += (f"; every worker is dead, so {plural(self.total - self.done_count, 'job')}"
                      f" will wait forever")
        return words + "."

    def still(self):
        """Why the queue stands still (it is finished), and what would set it going."""
        workers = "the worker" if len(self.workers) == 1 else "the workers"
        if all(w.state == "killed" for w in self.workers):
            return ("Nothing moves: every worker is dead. Press a Restart worker button, or "
                    "Add worker, to go on.")
        if self.total == 0:
            return (f"Nothing to do: no jobs yet. Enqueue a job, or set Arrivals above 0 and "
                    f"press Play, to give {workers} something to do.")
        if self.total >= self.MAX_JOBS:
            return (f"Nothing more to do: every job is finished and the queue holds its limit "
                    f"of {self.MAX_JOBS:,} jobs. Press Reset to start again.")
        return (f"Nothing to do: every job is finished. Enqueue another job to give {workers} "
                f"more work.")

    def _stuck(self):
        """Jobs are left, and no worker is alive or coming back to do them."""
        return (self.done_count < self.total and
                all(w.state == "killed" and w.restart_at is None for w in self.workers))

    def _own_lease(self, job, leases):
        """Seconds left on the lease of this worker's own claim on `job` (a tinyq.Job), 0 once it
        ran out or another claim took the job over; None when it holds nothing."""
        if job is None:
            return None
        until = leases.get(job.token)
        return 0.0 if until is None else in_seconds(max(0, until - self.ticks))

    def _state(self):
        rows = claims(self)
        leases = {token: until for _, _, until, _, token in rows}
        workers = []
        for w in self.workers:
            left = None if w.state in ("idle", "killed") else round(
                max(0, w.until - self.ticks) / self.TICKS_PER_SECOND, 3)
            workers.append({"id": w.number, "state": w.state,
                            "job": None if w.job is None else w.job.id,
                            "abandoned": None if w.abandoned is None else w.abandoned.id,
                            "token": None if w.job is None else w.job.token,
                            # its own claim's lease (a dead worker's: the claim it left), never
                            # the lease of another worker that took the job over
                            "lease_left": self._own_lease(
                                w.abandoned if w.state == "killed" else w.job, leases),
                            "phase_left": left,
                            "stopping": w.stopping,   # a deploy's stop signal reached it
                            "restart_in": None if w.restart_at is None else
                            round((w.restart_at - self.ticks) / self.TICKS_PER_SECOND, 3),
                            "actions": self.worker_actions(w)})   # its buttons (live_queue_actions)
        return {"workers": workers, "stats": self.stats(), "settings": dict(self.settings),
                "table": self._table_drawn, "stuck": self._stuck(),
                "room": {"workers": self.MAX_WORKERS - len(self.workers), "jobs": self.MAX_JOBS - self.total},
                "stall": self.STALL, "hidden": list(LEVELS[self.params["level"]]),
                # the form at this level, in the one shape every simulation's level gives
                "shown": {"hidden": list(LEVELS[self.params["level"]]), "options": {}},
                "picture": picture(self, rows)}


def live_queue_view(s):
    """The snapshot's "view" (view.py): the figures, the two charts' captions and the jobs
    table, without what the embed's level keeps back (the snapshot's "hidden")."""
    stats, hidden = s["stats"], s["hidden"]
    figures = [
        tile("depth", "Queue depth", f"{plural(stats['depth'], 'job')} waiting", group="depth"),
        tile("age", "Oldest waiting job", f"{secs(stats['oldest_wait'])} s old", group="age"),
        tile("running", "Running", str(stats["running"])),
        tile("done", "Done", str(stats["done"])),
        tile("dead", "Dead", str(stats["dead"])),
        tile("throughput", "Throughput", per_second(stats["throughput"], "job")),
        tile("attempts_per_job", "Attempts per done job", dash(stats["attempts_per_job"], secs)),
        tile("retried", "Done after a retry", str(stats["retried"])),
        tile("emails_sent", "Emails sent", str(stats["emails_sent"])),
        tile("duplicate_emails", "Duplicate emails", str(stats["duplicate_emails"]),
             bad_if(stats["duplicate_emails"] > 0)),
        tile("acks_refused", "Acks refused", str(stats["acks_refused"]),
             bad_if(stats["acks_refused"] > 0)),
    ]
    token = "token" not in hidden
    columns = ["Job", "Status", "Attempts", "Lease left (s)", "Worker"] + (["Token"] * token)
    rows = [(job["id"], [str(job["id"]), chip(job["status"]), str(job["attempts"]),
                         dash(job["lease_left"], secs), dash(job["worker"])]
             + [dash(job["token"])] * token
             + [{"text": str(job["emails"]), "tone": bad_if(job["emails"] > 1)}])
            for job in s["jobs"]]
    shown = s["table"]
    note = shown["note"] if shown["pages"] > 1 or shown["view"] != "watch" else ""
    jobs = table("jobs", "Jobs", columns + ["Emails"], rows, note=note, empty="No jobs yet.")
    key = [
        key_item("token", "a job: queue, then a worker, then done (or dead)", ("lqp-key-token", "7")),
        key_item("lease", "its lease running out", ("lqp-key-ring", ""), ("lqp-key-bar", "")),
        key_item("kill", "**2nd try** its second claim (**was worker 1**: once worker 1’s lease ran "
                         "out; a small box says **2nd**, and **5** for worker 5)"),
        key_item("duplicate_emails", "its email sent twice", ("lqp-key-dup", "✉×2")),
        key_item("acks_refused", "an ack refused", ("lqp-key-refused", "red box")),
    ]
    # The picture's words (its aria-label) are the picture module's (picture.py).
    return view(figures=[f for f in figures if f["key"] not in hidden], tables=[jobs],
                outcome=s["outcome"], key=[k for k in key if k["key"] not in hidden])
