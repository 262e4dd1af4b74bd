"""live-queue: how a broker delivers a job, as real libraries differ: when the job is acked,
scheduled jobs (an ETA), what a worker does once its claim is lost, where a dead worker's job
goes, and a queue that can fill up.

    ack          "late": acked after the work (tinyq; Celery's acks_late). "early": acked as the
                 worker starts the job, which leaves the queue for good then; if that worker
                 dies, nobody runs the job again (Sidekiq's basic fetch takes the job off Redis
                 with BRPOP; Celery acks "just before the task is executed" by default).
    eta          seconds after its enqueue before a new job may run (Celery's eta/countdown).
    eta_wait     where a scheduled job waits: in the broker until it is due (tinyq's run_at,
                 Sidekiq's scheduled set), or in a worker that took it at once and holds it
                 unacked until the ETA (Celery). Held past its lease (Redis's visibility
                 timeout), the job is handed to another worker, which holds it too, so two
                 copies run at the ETA (Celery's Redis caveats).
    lost_claim   what a worker does when a heartbeat tells it the claim is gone: it stops the
                 job (tinyq), or runs on to the end (Bull: a stalled job's first worker goes on).
    orphan       when a dead worker's unacked job comes back: when its lease runs out (Redis,
                 SQS, tinyq), or at once, because the broker sees the connection close (AMQP).
    max_depth    the most jobs that may wait; an enqueue beyond it is refused, in words.

Sources: https://github.com/sidekiq/sidekiq/wiki/Reliability (BRPOP: "the job is now removed
from Redis. If Sidekiq crashes while processing that job, it is lost forever");
https://docs.celeryq.dev/en/stable/glossary.html (early and late acknowledgment; AMQP's
transaction fails when the connection closes, Redis's and SQS's after the visibility timeout);
https://docs.celeryq.dev/en/stable/getting-started/backends-and-brokers/redis.html#redis-caveats
(an ETA beyond the visibility timeout is redelivered and executed again, in a loop);
https://docs.bullmq.io/guide/jobs/stalled. A mixin of LiveQueue (model.py): it holds the
state, and this module adds to what it draws (sparse fields: none of them is sent when its
control is off, so older runs' snapshots stay as they were).
"""
from ..engine.capstone import tinyq
from ..engine.params import ParamError, choice, integer, number, show_number
from ..engine.simulation import plural
from .ticks import in_seconds, to_ticks

NEVER = 1e15   # ticks: the lease of a job acked early, which no claim may take over

# Acked early: the job leaves the queue (its lease never runs out) while its worker works on.
ACK_EARLY = """
UPDATE jobs SET locked_until = :never
 WHERE id = :id AND token = :token AND status = 'running'"""
# The broker forgets a job acked early whose worker died: nothing of it is left to run.
LOSE = """
UPDATE jobs SET status = 'done', locked_until = NULL, last_error = :error
 WHERE id = :id AND token = :token AND status = 'running'"""
# A lock dropped by hand: the claim ran out half a tick ago (the next claim may take the job).
DROP_LOCK = """
UPDATE jobs SET locked_until = :until
 WHERE id = :id AND token = :token AND status = 'running' AND locked_until < :never"""


def params(max_jobs):
    return (
        choice("ack", "Ack", "late", ["late", "early"],
               "When a worker acks its job. Acked early, the job is gone from the queue once "
               "its worker starts it, and nobody runs it again if that worker dies.",
               labels={"late": "late: after the work", "early": "early: as the work starts"}),
        number("eta", "Scheduled for (s)", 0.0, 0.0, 86_400.0,
               "How long after its enqueue a new job may run (an ETA or countdown); 0 runs "
               "it at once."),
        choice("eta_wait", "A scheduled job waits", "broker", ["broker", "worker"],
               "Where a scheduled job waits for its time. A worker that takes it at once holds "
               "it unacked, so its lease can run out before the ETA comes.",
               labels={"broker": "in the broker until it is due",
                       "worker": "in a worker that took it at once"}),
        choice("lost_claim", "A worker whose claim is lost", "stop", ["stop", "carry"],
               "What a worker does when its heartbeat is refused because another worker has "
               "taken its job over.",
               labels={"stop": "stops that job", "carry": "carries on to the end"}),
        choice("orphan", "A dead worker's job comes back", "lease", ["lease", "disconnect"],
               "When a job that a dead worker held, unacked, may be claimed again.",
               labels={"lease": "when its lease runs out",
                       "disconnect": "at once: the broker sees its connection close"}),
        integer("max_depth", "Queue capacity (jobs)", 0, 0, max_jobs,
                "The most jobs that may wait in the queue; a job enqueued beyond it is "
                "refused. 0 means no limit."),
    )


class Delivery:
    def _start_delivery(self):
        self.early = set()        # (job id, token): claims acked early, their work not over
        self.lost = set()         # job ids acked early whose worker died: nobody will run them
        self.due = {}             # job id -> the tick of its ETA (scheduled jobs only)
        self.carrying = set()     # tokens of claims lost whose worker carries on
        self.dropped = set()      # tokens of claims whose lock the reader dropped
        self.enqueues_refused = 0

    # --- enqueue: capacity and ETA ------------------------------------------------------
    def _room_in_queue(self, count):
        """How many of `count` new jobs the queue takes; says the rest were refused."""
        limit = self.params["max_depth"]
        if not limit:
            return count
        waiting = self.queue.db.execute("SELECT count(*) FROM jobs WHERE status = 'queued'"
                                        ).fetchone()[0]
        taken = max(0, min(count, limit - waiting))
        if taken < count:
            self.enqueues_refused += count - taken
            self.emit(f"the queue is full ({waiting + taken:,} waiting, its capacity): it "
                      f"refused {plural(count - taken, 'new job')}")
        return taken

    def _delay(self):
        """Ticks before a new job may be claimed: its ETA when the broker holds it."""
        eta = self.params["eta"]
        return to_ticks(eta) if eta and self.params["eta_wait"] == "broker" else 0.0

    def _scheduled(self, job_id):
        if self.params["eta"]:
            self.due[job_id] = self.ticks + to_ticks(self.params["eta"])

    def _hold_until_due(self, worker):
        """Just after a claim: a worker that took a scheduled job early holds it to its ETA."""
        due = self.due.get(worker.job.id)
        if self.params["eta_wait"] != "worker" or due is None or due <= worker.until:
            return
        worker.until = due
        self.emit(f"worker {worker.number} holds job {worker.job.id} unacked until its ETA at "
                  f"{show_number(in_seconds(due))} s")

    def _holds_for_eta(self, worker):
        return (worker.state == "claimed" and worker.job is not None
                and self.due.get(worker.job.id, 0) > self.ticks)

    # --- ack early, and its cost --------------------------------------------------------
    def _start_work(self, worker):
        """The job starts: acked now if acks are early. A claim another worker has taken over
        in the meantime (a scheduled job redelivered) runs anyway, as a second copy."""
        if self.params["ack"] != "early":
            return
        job = worker.job
        try:
            self.queue._guarded(job, ACK_EARLY, {"never": NEVER})
        except tinyq.LeaseLost:
            self.emit(f"worker {worker.number} starts job {job.id} although the queue has "
                      f"handed it to another worker since: a second copy runs")
            return
        self.early.add((job.id, job.token))
        self.emit(f"worker {worker.number} acked job {job.id} as it started: the job has left "
                  f"the queue")

    def _acked_early(self, job):
        return job is not None and (job.id, job.token) in self.early

    def _lose(self, worker, job, how):
        """A worker died holding a job acked early: the job is lost. True if it was one."""
        if not self._acked_early(job):
            return False
        self.early.discard((job.id, job.token))
        self.queue._guarded(job, LOSE, {"error": "lost: acked early, its worker died"})
        self.lost.add(job.id)
        self.emit(f"worker {worker.number} {how} in the middle of job {job.id}, acked when it "
                  f"started: the job is lost, and nobody will run it again")
        return True

    def _back_at_once(self, worker, job, how):
        """A dead worker's unacked job, when the broker sees its connection close: queued
        again at once. True if that happened."""
        if self.params["orphan"] != "disconnect":
            return False
        try:
            self.queue.release(job)
        except tinyq.LeaseLost:
            return False
        self.emit(f"worker {worker.number} {how} holding job {job.id}; the broker saw its "
                  f"connection close and queued the job again at once")
        return True

    # --- a claim lost -------------------------------------------------------------------
    def _carries_on(self, worker, job):
        """A refused heartbeat: True if the worker carries on with the job regardless."""
        if self.params["lost_claim"] != "carry":
            return False
        self.carrying.add(job.token)
        worker.next_beat = None   # it no longer renews a claim it has lost
        self.emit(f"worker {worker.number}'s heartbeat for job {job.id} was refused: "
                  f"{self._claim_named(job)} no longer holds it, but the worker carries on")
        return True

    def _can_drop_lock(self, worker):
        job = worker.job
        return (worker.state in ("claimed", "working", "acking") and job is not None
                and not self._acked_early(job) and job.token not in self.carrying
                and self.queue.db.execute("SELECT 1 FROM jobs WHERE id = ? AND token = ? AND "
                                          "status = 'running' AND locked_until >= ?",
                                          (job.id, job.token, self.ticks)).fetchone() is not None)

    def act_drop_lock(self, worker):
        """Drop a busy worker's lock on its job now (as when the lock's key is lost): another
        worker may claim the job at once, while this one does what `lost_claim` says when it
        finds out (at its next heartbeat, or its ack)."""
        target = self._worker(worker)
        if not self._can_drop_lock(target):
            raise ParamError("worker", f"worker {target.number} holds no lock to drop (it has "
                                       f"no job, or its job has no lease that may run out)")
        job = target.job
        self.queue._guarded(job, DROP_LOCK, {"until": self.ticks - 0.5, "never": NEVER})
        self.dropped.add(job.token)   # gone: no renewal or ack of this claim holds from now
        self.lapsed[job.id] = target.number
        self.emit(f"worker {target.number}'s lock on job {job.id} was dropped: another worker "
                  f"may claim the job now")

    # --- what the page is sent ----------------------------------------------------------
    def lease_left(self, status, locked_until):
        if locked_until is not None and locked_until >= in_seconds(NEVER):
            return None   # acked early: no lease
        return super().lease_left(status, locked_until)

    def _lock_dropped(self, job):
        return job is not None and job.token in self.dropped

    def _table_parts(self, view):
        """The table's parts, a lost job counted among the finished (its row says lost)."""
        parts = super()._table_parts(view)
        if self.lost and view in ("watch", "done"):
            count, fetch = parts[-1]
            parts[-1] = (count + len(self.lost), fetch)
        return parts

    def _counts(self):
        queued, running, dead = super()._counts()
        return queued, running, dead - len(self.lost)   # a lost job is neither done nor dead

    def job_rows(self):
        rows = super().job_rows()
        for row in rows:
            if row["id"] in self.lost:
                row["lost"] = True
            if row["id"] in self.due:
                row["eta"] = in_seconds(self.due[row["id"]])
            if (row["id"], row["token"]) in self.early and row["status"] == "running":
                row["acked_early"] = True
        return rows

    def outcome(self):
        words = super().outcome()
        if self.lost:
            words = words[:-1] + (f"; {plural(len(self.lost), 'job')} lost (acked early, its "
                                  f"worker died)." if len(self.lost) == 1 else
                                  f"; {plural(len(self.lost), 'job')} lost (acked early, their "
                                  f"workers died).")
        if self.enqueues_refused:
            words = words[:-1] + (f"; {plural(self.enqueues_refused, 'enqueue')} refused "
                                  f"(the queue was full).")
        return words

    def _state(self):
        state = super()._state()
        for card, worker in zip(state["workers"], self.workers):
            if self._acked_early(worker.job):
                card["acked_early"] = True
            if self._holds_for_eta(worker):
                card["holds_until"] = in_seconds(self.due[worker.job.id])
            if worker.job is not None and worker.job.token in self.carrying:
                card["carrying_on"] = True   # its claim is lost, and it works on
            if "drop_lock" not in state["hidden"] and self._can_drop_lock(worker):   # a query each
                card["actions"] = card["actions"] + ["drop_lock"]
        if self.lost or self.enqueues_refused or self.due:
            state["delivery"] = {"lost": sorted(self.lost), "refused": self.enqueues_refused,
                                 "scheduled": len(self.due)}
        return state
