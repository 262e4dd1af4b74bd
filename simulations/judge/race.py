"""The race exercise: the reader's claim, in SQL, run by three workers one statement at a time.

The reader writes the claim as one or more SQL statements, each ended by ';'. Each statement may
use the parameters :now and :lease (seconds), :worker (its name) and every column of the rows the
claim's earlier statements returned (so a SELECT of `id` gives the next statement :id). The job a
claim took is the `id` of the last row it saw; a statement that returns columns but no row means
"nothing to claim" and the worker stops. After a claim, the worker sends the job's welcome email
and marks the job done, each one step. The steps of the workers interleave in a seeded order, as
in simulations/race.py, and in two orders that are the same on every seed (SCHEDULES). The audit:
under every order, every address got exactly one email and every job is done.

record_race() runs in the reader's own interpreter (the page's throwaway reader worker) and
returns plain data: who sent which email, each job's status, the story. The reader's code here is
SQL, run under an authorizer that refuses ATTACH, so it cannot reach the Python that records it;
verdict_race() audits that data in the judge's interpreter.
"""
import sqlite3

from ..engine.capstone import tinyq
from .sandbox import ReaderError, fresh_rng, no_attach
from ..race.model import ADDRESSES

WORKERS = ("A", "B", "C")
LEASE = 3600.0                    # seconds: nobody dies in this race
STATEMENT_SECONDS = 1.0           # virtual time one step takes
MARK_DONE = "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = :id"


def split(code):
    """[(line, statement)] for each statement in `code`. Raises ReaderError for none or an
    unfinished one."""
    statements, buffer, start = [], "", None
    for number, line in enumerate(code.splitlines(keepends=True), 1):
        if start is None and line.strip() and not line.strip().startswith("--"):
            start = number
        buffer += line
        if start is not None and sqlite3.complete_statement(buffer):
            statements.append((start, buffer.strip()))
            buffer, start = "", None
    if start is not None:
        if not sqlite3.complete_statement(buffer + ";"):
            raise ReaderError("syntax", start, "this statement is not finished (a quote or a "
                                               "bracket is still open)")
        statements.append((start, buffer.strip()))
    if not statements:
        raise ReaderError("missing", None, "write the claim as one or more SQL statements")
    return statements


class Worker:
    def __init__(self, name):
        self.name, self.pc, self.row, self.job, self.stopped = name, 0, {}, None, False


# How the workers' statements interleave. The seeded order is one draw; the other two are the
# same on every seed, so a claim that is not atomic fails whatever seed the reader picks:
#   lockstep  A, B, C one statement each in turn: every look happens before any grab;
#   twins     the same, with two workers both named A (a restarted worker that kept its name,
#             while its old self is still between its statements): a claim that shares the
#             jobs out by worker name, and only so avoids its neighbours, meets itself.
SCHEDULES = (("seeded", WORKERS, "workers A, B and C, one statement at a time in a seeded order"),
             ("lockstep", WORKERS, "workers A, B and C, one statement each in turn"),
             ("twins", ("A", "A", "B"), "two workers both named A, and B, one statement each "
                                        "in turn"))


def record_race(code, seed, jobs=5, max_statements=2_000):
    """Run the reader's claim under each of SCHEDULES in the reader's own interpreter; return
    {"schedules": [{"name", "address", "sent", "status", "events", "steps"}]}: plain data (the
    reader's code here is SQL only, run under no_attach). Raises ReaderError."""
    statements = split(code)
    return {"schedules": [race_once(statements, seed, jobs, max_statements, name, names)
                          for name, names, _ in SCHEDULES]}


def race_once(statements, seed, jobs, max_statements, schedule, names):
    rng = fresh_rng("judge-race", seed)
    order = rng          # the seeded schedule's dice (the queue draws none: nobody fails here)
    now = [0.0]
    queue = tinyq.Queue(lease=LEASE, clock=lambda: now[0], rng=rng)
    queue.db.set_authorizer(no_attach)
    address = {}
    for email in ADDRESSES[:jobs]:
        address[queue.enqueue("send_welcome_email", {"address": email})] = email
    workers = [Worker(name) for name in names]
    sent, events = [], []    # (job id, worker); (job id or None, text)
    steps, turn = 0, 0
    while any(not w.stopped for w in workers):
        if steps >= max_statements:
            raise ReaderError("budget", None, f"the workers ran more than {max_statements:,} "
                              f"steps and kept finding jobs: does your claim ever find nothing?")
        steps += 1
        now[0] = steps * STATEMENT_SECONDS
        if schedule == "seeded":
            worker = order.choice([w for w in workers if not w.stopped])
        else:
            while workers[turn % len(workers)].stopped:
                turn += 1
            worker = workers[turn % len(workers)]
            turn += 1
        where = f"{now[0]:.0f} s, worker {worker.name}"
        if worker.pc < len(statements):
            line, sql = statements[worker.pc]
            params = {**worker.row, "now": now[0], "lease": LEASE, "worker": worker.name}
            try:
                cursor = queue.db.execute(sql, params)
                rows = cursor.fetchall()
            except sqlite3.Error as error:
                raise ReaderError("exception", line, f"SQLite refused this statement: {error}") \
                    from None
            finally:
                if queue.db.in_transaction:
                    queue.db.execute("ROLLBACK")
            if cursor.description is not None and not rows:
                worker.stopped = True
                events.append((None, f"{where}: line {line} found no job, so {worker.name} stops"))
                continue
            if rows:
                worker.row.update(zip([d[0] for d in cursor.description], rows[0]))
            worker.job = worker.row.get("id")
            events.append((worker.job, f"{where}: ran the {sql.split()[0].upper()} on line {line}"
                           + (f": it returned job {worker.job}" if rows and worker.job else "")))
            worker.pc += 1
            if worker.pc == len(statements) and worker.job not in address:
                raise ReaderError("exception", line, "the claim's last row must have the id of "
                                  f"a job (got {worker.row!r})")
        elif worker.pc == len(statements):
            sent.append((worker.job, worker.name))
            copies = sum(1 for job_id, _ in sent if job_id == worker.job)
            events.append((worker.job, f"{where}: sent the welcome email to "
                           f"{address[worker.job]}" + (f" (that is {copies})" if copies > 1
                                                       else "")))
            worker.pc += 1
        else:
            queue.db.execute(MARK_DONE, {"id": worker.job})
            events.append((worker.job, f"{where}: marked job {worker.job} done"))
            worker.pc, worker.row, worker.job = 0, {}, None
    status = {job_id: (queue.db.execute("SELECT status FROM jobs WHERE id = ?", (job_id,))
                       .fetchone() or ("gone",))[0] for job_id in address}
    return {"name": schedule, "address": [[job_id, email] for job_id, email in address.items()],
            "sent": [list(pair) for pair in sent], "status": [[k, v] for k, v in status.items()],
            "events": [list(event) for event in events], "steps": steps}


def verdict_race(trace, seed, jobs=5, max_statements=2_000):
    """The audit of a race trace (record_race's): every address got exactly one email and every
    job is done, under every schedule. Returns the audit dict; raises ValueError for a trace
    that is not record_race's shape."""
    runs = trace.get("schedules") if isinstance(trace, dict) else None
    if type(runs) is not list or [run.get("name") if isinstance(run, dict) else None
                                  for run in runs] != [name for name, _, _ in SCHEDULES]:
        raise ValueError("the race's trace does not hold its three schedules")
    audits = [audit_once(run, jobs) for run in runs]
    failed = [(audit, words) for audit, (_, _, words) in zip(audits, SCHEDULES) if audit["problems"]]
    shown, words = failed[0] if failed else (audits[0], SCHEDULES[0][2])
    return {"passed": not failed, "jobs": shown["jobs"], "problems": shown["problems"],
            "story": shown["story"], "figures": {"order of the steps": words, **shown["figures"]}}


def audit_once(run, jobs):
    address = {job_id: email for job_id, email in _pairs(run.get("address"), int, str)}
    status = dict(_pairs(run.get("status"), int, str))
    sent = _pairs(run.get("sent"), int, str)
    events = _pairs(run.get("events"), (int, type(None)), str)
    if [email for email in address.values()] != list(ADDRESSES[:jobs]):
        raise ValueError("the race's trace holds other jobs")
    rows, problems, first = [], [], None
    for job_id, email in address.items():
        by = [name for sent_id, name in sent if sent_id == job_id]
        ok = len(by) == 1 and status.get(job_id) == "done"
        rows.append({"job": job_id, "address": email, "emails": len(by), "sent_by": by,
                     "status": status.get(job_id, "gone"), "ok": ok})
        if len(by) != 1:
            problems.append(f"{email} got {len(by)} welcome emails (want 1)"
                            + (f", sent by {' and '.join(by)}" if by else ""))
            first = job_id if first is None else first
        if status.get(job_id) != "done":
            problems.append(f"job {job_id} ended {status.get(job_id, 'deleted')}, not done")
    story = [text for job_id, text in events if job_id == first][:16] if first else []
    figures = {"steps": run.get("steps") if type(run.get("steps")) is int else 0,
               "emails sent": len(sent)}
    return {"jobs": rows, "problems": problems, "story": story, "figures": figures}


def _pairs(items, first, second):
    if type(items) is not list or not all(type(item) is list and len(item) == 2
                                          and isinstance(item[0], first) and
                                          not isinstance(item[0], bool) and
                                          isinstance(item[1], second) for item in items):
        raise ValueError("the race's trace is not made of pairs")
    return [tuple(item) for item in items]
