"""What live-queue's picture draws (theme/js/sims/live-queue-picture.js): job tokens in a lane,
at the workers and in the done and dead piles, a bounded number of each, with the counts.

    picture(sim) -> {
        queued        the next MAX_QUEUED jobs to be claimed, in claim order:
                      [{id, attempts, emails, due_in}] (attempts > 0: it has been tried before;
                      due_in: the seconds until a retry waiting its backoff may be claimed, not
                      before then, or 0 once it is due)
        running       every running job (at most a few hundred: one per live claim, and the
                      claims of dead workers): [{id, attempts, emails, token, worker, dropped_by,
                      lease_left (seconds), lease (0-1: the share of its lease still left), was}];
                      `worker` is the worker whose live claim holds it (the table's Worker),
                      `dropped_by` the dead worker that held it (or null), `was` the worker
                      whose lease on it ran out before this claim took it over (or, while it
                      waits for a new claim, the worker whose lease just ran out), else null
        done, dead    up to MAX_FINISHED of each, the highest ids first (the latest to
                      finish, but for a job whose claim was taken over): [{id, attempts, emails}]
        counts        {queued, running, done, dead}: the piles' sizes (they add up to every job)
        backoff       how many of the queued jobs are retries not due yet (their backoff runs)
        duplicates    {jobs: how many jobs sent their email more than once, latest: the ids of the
                      last MAX_FINISHED of them, latest first}
        refused       the acks refused in the last REFUSED_SHOWN seconds, drawn on the worker
                      whose ack it was: [{worker, job, ago (seconds)}], at most one per worker
        frozen        the workers a stall froze, drawn so on their boxes (its log line alone
                      said it): [{worker, left (seconds until it moves again)}]
    }

A token's `attempts` is how many times its job has been claimed (tinyq counts a claim as an
attempt): 2 or more means it was handed over to another worker (or retried) at least once.

Only the first tokens of each pile are sent, so a run of 5,000 jobs costs the page a few dozen
tokens, never 5,000.
"""
from .ticks import in_seconds

MAX_QUEUED = 40     # queued tokens sent: more than the widest lane holds
MAX_FINISHED = 12   # done (and dead) tokens sent, latest first

QUEUED = ("SELECT id, attempts, run_at FROM jobs WHERE status = 'queued' "
          "ORDER BY run_at, id LIMIT ?")                       # from tinyq's jobs_due index
LATER = "SELECT count(*) FROM jobs WHERE status = 'queued' AND run_at > ?"   # jobs_due, too
RUNNING = ("SELECT id, attempts, locked_until, claimed_at, token FROM jobs "
           "WHERE status = 'running'")            # from jobs_leased (a few hundred); sorted here
# The latest finished jobs: jobs are enqueued and first claimed in id order, so the jobs never
# claimed yet are the highest ids (a retry waiting its backoff may sit lower) and the finished ones
# lie below the first of them. The highest finished ids below it are read backwards along the
# primary key, a few dozen rows, never the whole table (a pile shows its latest tokens and its
# exact count).
FINISHED = ("SELECT id, status, attempts FROM jobs WHERE id < ? AND status IN ('done', 'dead') "
            "ORDER BY id DESC LIMIT ?")
LATEST = 64         # finished jobs read to find the latest MAX_FINISHED of each
REFUSED_SHOWN = 2.0  # seconds a refused ack stays drawn on its worker


def claims(sim):
    """[(id, attempts, locked_until, claimed_at, token)]: every running job's claim (ticks)."""
    return sim.queue.db.execute(RUNNING).fetchall()


def picture(sim, rows):
    """The picture's part of a LiveQueue's snapshot (see the module's docstring); `rows` are
    claims(sim)."""
    db, emails, now = sim.queue.db, sim.emails, sim.ticks
    queued_count, running_count, dead_count = sim._counts()
    holders = {w.job.token: w.number for w in sim.workers if w.job is not None}
    dropped = {w.abandoned.token: w.number for w in sim.workers
               if w.state == "killed" and w.abandoned is not None}
    running = []
    for job_id, attempts, until, claimed, token in rows:
        span = until - (claimed if claimed is not None else now)
        was = (sim.lapsed if until < now else sim.handed).get(job_id)   # the hand-over
        worker, dead = holders.get(token), dropped.get(token)
        running.append({
            "id": job_id, "attempts": attempts, "emails": emails[job_id], "token": token,
            "worker": worker, "dropped_by": dead, "place": _place(worker, dead, until, now),
            "lease_left": in_seconds(max(0, until - now)),
            "lease": round(max(0.0, min(1.0, (until - now) / span)), 3) if span > 0 else 0.0,
            "was": None if was == holders.get(token) else was})

    def tokens(rows):
        return [{"id": job_id, "attempts": attempts, "emails": emails[job_id]}
                for job_id, attempts in rows]

    running.sort(key=lambda job: job["id"])
    queued = [{"id": job_id, "attempts": attempts, "emails": emails[job_id],
               "due_in": in_seconds(max(0, run_at - now))}
              for job_id, attempts, run_at in db.execute(QUEUED, (MAX_QUEUED,))]
    fresh = [job["id"] for job in queued if job["attempts"] == 0]
    frontier = min(fresh) if fresh else sim.total + 1
    finished = {"done": [], "dead": []}
    if sim.done_count or dead_count:
        for job_id, status, attempts in db.execute(FINISHED, (frontier, LATEST)):
            finished[status].append((job_id, attempts))
    return {
        "queued": queued,
        "running": running,
        "done": tokens(finished["done"][:MAX_FINISHED]),
        "dead": tokens(finished["dead"][:MAX_FINISHED]),
        "counts": {"queued": queued_count, "running": running_count,
                   "done": sim.done_count, "dead": dead_count},
        "backoff": db.execute(LATER, (now,)).fetchone()[0],
        "duplicates": _duplicates(sim),
        "refused": _refused(sim),
        "frozen": [{"worker": w.number, "left": in_seconds(w.frozen_until - now)}
                   for w in sim.workers if w.state != "killed" and w.frozen_until is not None
                   and w.frozen_until > now],
    }


def _place(worker, dead, until, now):
    """Where a running job is drawn (see the module's docstring): a claim is claimable again
    only once now > locked_until (tinyq's claim), whoever held it."""
    if worker is not None:
        return "worker"
    if until >= now:
        return "dropped" if dead is not None else "stuck"
    return "queue"


def _refused(sim):
    shown = []
    for number, (tick, job_id) in sorted(sim.refusals.items()):
        ago = in_seconds(sim.ticks - tick)
        if ago <= REFUSED_SHOWN:
            shown.append({"worker": number, "job": job_id, "ago": ago})
    return shown


def _duplicates(sim):
    if not sim.duplicates:
        return {"jobs": 0, "latest": []}
    twice = [job_id for job_id in range(len(sim.emails) - 1, 0, -1) if sim.emails[job_id] > 1]
    return {"jobs": len(twice), "latest": twice[:MAX_FINISHED]}
