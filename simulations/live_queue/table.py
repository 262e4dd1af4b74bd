"""live-queue's jobs table, a page at a time: which jobs a view lists (TABLE_VIEWS), in what
order, and which of them fall on the page the reader asked for. Up to 5,000 jobs do not fit in a
snapshot, so the page is sent, MAX_ROWS rows, with words saying which rows they are.

The simulation (view.py, QueueView) counts its jobs and chooses the parts; this module queries
and pages them. It holds no state: the reader's choice is the simulation's `table`.
"""
from ..engine.params import ParamError
from ..engine.simulation import plural, require_int

MAX_ROWS = 50             # job rows in one snapshot: a page of the table (a bigger one cost a frame)
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


def choose(view, page, max_jobs):
    """(view, page) checked: a TABLE_VIEWS name and a page from 1. Raises ParamError."""
    if view not in TABLE_VIEWS:
        raise ParamError("view", f"must be one of {', '.join(TABLE_VIEWS)}; got {view!r}")
    return view, require_int("page", page, 1, max_jobs)


def counts(db, total, done):
    """(queued, running, dead) of `total` jobs, `done` of them done."""
    queued = db.execute(COUNT_QUEUED).fetchone()[0]
    running = db.execute(COUNT_RUNNING).fetchone()[0]
    return queued, running, total - queued - running - done


def parts(db, view, total, done, queued, running, dead):
    """[(how many, fetch(offset, limit) -> ids)]: the view's jobs, in order, in parts."""
    def query(sql):
        return lambda offset, limit: [i for i, in db.execute(sql, (limit, offset))]

    def leased(offset, limit):   # at most a few hundred, from jobs_leased
        return sorted(i for i, in db.execute(ROWS_RUNNING))[offset:offset + limit]

    every = {"running": (running, leased), "queued": (queued, query(ROWS_QUEUED)),
             "done": (done, query(ROWS_DONE)), "dead": (dead, query(ROWS_DEAD)),
             "all": (total, lambda offset, limit: list(
                 range(offset + 1, min(total, offset + limit) + 1)))}
    if view == "watch":
        return [every["running"], every["queued"], (done + dead, query(ROWS_FINISHED))]
    return [every[view]]


def page_of(view_parts, view, page):
    """(the ids on the page, {view, page, pages, count, views, note}) of a view's parts; a page
    past the last is the last."""
    count = sum(n for n, _ in view_parts)
    pages = max(1, -(-count // MAX_ROWS))
    page = min(page, pages)
    ids, offset = [], (page - 1) * MAX_ROWS
    for n, fetch in view_parts:
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
