"""What the page draws of a live queue: the job rows, the figures, the outcome in words and
the workers' cards. QueueView is a mixin of LiveQueue (live_queue.py), which holds the state it
reads; live_queue_view() turns its snapshot into the words and numbers shown (view.py)."""
from .picture import claims, picture
from ..engine.params import ParamError
from ..engine.simulation import UNFINISHED_JOBS, plural, require_int
from .ticks import in_seconds
from ..engine.view import bad_if, chip, dash, key_item, per_second, secs, table, tile, view

# What an embed shows, by how far the guide has got (its `level:`): level -> the parts it keeps
# back until a later chapter teaches them. The run is the same whatever the level (a hidden setting
# keeps its value); the page hides a part whose name is in the snapshot's "hidden":
#   token       the fencing token: the table's Token column and the token on a worker's card (ch. 12)
#   stall       the Stall buttons and their "Stall for (s)" field (chapter 5)
#   kill        the Kill buttons on the picture, and its key's "2nd try" (chapters 4 and 5; a link
#               that kills still replays: the act itself is allowed)
#   crash, supervisor           the fields "Crash chance per job" and "Restart dead workers" (ch. 8, 12)
#   duplicate_emails, acks_refused          the figures of those names (chapters 4 and 5)
# The casebook's controls, by the level that shows them: every chapter before the casebook
# keeps them back, and a case's embed (content/19-casebook.md) shows the group it needs.
EXTRAS = {"heartbeats": ("heartbeat", "grace", "duration_max"),
          "deploys": ("deploy_at", "shutdown_grace", "hand_back"),
          "poison": ("poison", "max_attempts", "cap_counts"),
          "retries": ("service_capacity", "backoff_base", "backoff_cap", "jitter"),
          "library": ("library", "what_if", "ack", "eta", "eta_wait", "lost_claim", "orphan",
                      "max_depth", "drop_lock")}
EVERY_EXTRA = tuple(name for group in EXTRAS.values() for name in group)
LEVELS = {
    "queue": ("token", "stall", "kill", "crash", "supervisor", "duplicate_emails", "acks_refused")   # ch. 3
             + EVERY_EXTRA,
    "all": EVERY_EXTRA,
    **{level: tuple(n for n in EVERY_EXTRA if n not in group) for level, group in EXTRAS.items()},
    "free": (),   # free play: every control of every level at once, whatever the chapter
}

MAX_ROWS = 50             # job rows in one snapshot: a page of the table (a bigger one cost a frame)
THROUGHPUT_WINDOW = 10.0  # seconds of history behind the throughput figure

# The rows a snapshot shows when there are too many: running, then waiting, then finished. Each
# status is written out, not bound as a parameter, so SQLite can answer from tinyq's partial indexes
# (jobs_due, jobs_leased) rather than read all 5,000 rows: with 64 workers and 5,000 jobs that was
# most of a snapshot, and a snapshot most of a frame (bench/bench_widgets.py "rows").
COUNT_QUEUED = "SELECT count(*) FROM jobs WHERE status = 'queued'"
COUNT_RUNNING = "SELECT count(*) FROM jobs WHERE status = 'running'"
ROWS_RUNNING = "SELECT id FROM jobs WHERE status = 'running'"   # from jobs_leased; sorted here
ROWS_QUEUED = "SELECT id FROM jobs WHERE status = 'queued' ORDER BY run_at, id LIMIT ? OFFSET ?"
ROWS_FINISHED = ("SELECT id FROM jobs WHERE status IN ('done', 'dead') ORDER BY id DESC "
                 "LIMIT ? OFFSET ?")
ROWS_DONE = "SELECT id FROM jobs WHERE status = 'done' ORDER BY id LIMIT ? OFFSET ?"
ROWS_DEAD = "SELECT id FROM jobs WHERE status = 'dead' ORDER BY id LIMIT ? OFFSET ?"

# Which jobs the table lists, a page of MAX_ROWS at a time, so that every job can be found:
# name -> the words a reader chooses it by. "watch" (the first) is what a playing queue is
# watched by: running, then the next to be claimed, then the latest finished.
TABLE_VIEWS = {"watch": "Running, then queued", "all": "Every job, by number",
               "queued": "Queued", "running": "Running", "done": "Done", "dead": "Dead"}


class QueueView:
    VIEW_ACTS = frozenset({"table"})   # which jobs the table lists: not one of the run's moves

    @property
    def total(self):
        return len(self.emails) - 1

    def _counts(self):
        """(queued, running, dead): every job is one of those or done (self.done_count)."""
        queued = self.queue.db.execute(COUNT_QUEUED).fetchone()[0]
        running = self.queue.db.execute(COUNT_RUNNING).fetchone()[0]
        return queued, running, self.total - queued - running - self.done_count

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
        if view not in TABLE_VIEWS:
            raise ParamError("view", f"must be one of {', '.join(TABLE_VIEWS)}; got {view!r}")
        self.table = (view, require_int("page", page, 1, self.MAX_JOBS))

    def _table_parts(self, view):
        """[(how many, fetch(offset, limit) -> ids)]: the view's jobs, in order, in parts."""
        queued, running, dead = self._counts()
        db = self.queue.db

        def query(sql):
            return lambda offset, limit: [i for i, in db.execute(sql, (limit, offset))]

        def leased(offset, limit):   # at most a few hundred, from jobs_leased
            return sorted(i for i, in db.execute(ROWS_RUNNING))[offset:offset + limit]

        parts = {"running": (running, leased), "queued": (queued, query(ROWS_QUEUED)),
                 "done": (self.done_count, query(ROWS_DONE)), "dead": (dead, query(ROWS_DEAD)),
                 "all": (self.total, lambda offset, limit: list(
                     range(offset + 1, min(self.total, offset + limit) + 1)))}
        if view == "watch":
            return [parts["running"], parts["queued"],
                    (self.done_count + dead, query(ROWS_FINISHED))]
        return [parts[view]]

    def table_page(self):
        """(the ids on the table's page, {view, page, pages, first, last, count, note})."""
        view, page = getattr(self, "table", ("watch", 1))
        parts = self._table_parts(view)
        count = sum(n for n, _ in parts)
        pages = max(1, -(-count // MAX_ROWS))
        page = min(page, pages)
        ids, offset = [], (page - 1) * MAX_ROWS
        for n, fetch in parts:
            if offset >= n:
                offset -= n
                continue
            ids += fetch(offset, MAX_ROWS - len(ids))
            offset = 0
            if len(ids) >= MAX_ROWS:
                break
        first = (page - 1) * MAX_ROWS + 1
        shown = f"{first:,}–{first + len(ids) - 1:,} of {plural(count, 'job')}" if ids else "no jobs"
        return ids, {"view": view, "page": page, "pages": pages, "count": count,
                     "views": TABLE_VIEWS, "note": f"({TABLE_VIEWS[view].lower()}: {shown})"}

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
            "handed_back": self.handed_back,
            "poison_claims": self.poison_claims,
            "poison_kills": self.poison_kills,
            "calls_failed": self.calls_failed,   # the email service's failures (retries level)
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
    # The picture's words (its aria-label) are the picture module's (live_queue_picture.py).
    return view(figures=[f for f in figures if f["key"] not in hidden], tables=[jobs],
                outcome=s["outcome"], key=[k for k in key if k["key"] not in hidden])
