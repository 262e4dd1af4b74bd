"""The race exercise: the reader's claim, in SQL, run by three workers one statement at a time.

The reader writes the claim as one or more SQL statements, each ended by ';'. Each statement may
use the parameters :now and :lease (seconds), :worker (its name) and every column of the rows the
claim's earlier statements returned (so a SELECT of `id` gives the next statement :id). The job a
claim took is the `id` of the last row it saw; a statement that returns columns but no row means
"nothing to claim" and the worker stops. After a claim, the worker sends the job's welcome email
and marks the job done, each one step. The steps of the workers interleave in a seeded order, as
in simulations/race.py. The audit: every address got exactly one email, every job is done.
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


def judge_race(code, seed, jobs=5, max_statements=2_000):
    """Run the reader's claim; return (audit dict, []). Raises ReaderError."""
    statements = split(code)
    rng = fresh_rng("judge-race", seed)
    now = [0.0]
    queue = tinyq.Queue(lease=LEASE, clock=lambda: now[0], rng=rng)
    queue.db.set_authorizer(no_attach)
    address = {}
    for email in ADDRESSES[:jobs]:
        address[queue.enqueue("send_welcome_email", {"address": email})] = email
    workers = [Worker(name) for name in WORKERS]
    sent, events = [], []    # (job id, worker); (job id or None, text)
    program_length = len(statements) + 2      # the claim, then send, then mark done
    steps = 0
    while any(not w.stopped for w in workers):
        if steps >= max_statements:
            raise ReaderError("budget", None, f"the workers ran more than {max_statements:,} "
                              f"steps and kept finding jobs: does your claim ever find nothing?")
        steps += 1
        now[0] = steps * STATEMENT_SECONDS
        worker = rng.choice([w for w in workers if not w.stopped])
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
        assert worker.pc <= program_length
    rows, problems, first = [], [], None
    for job_id, email in address.items():
        status = queue.db.execute("SELECT status FROM jobs WHERE id = ?", (job_id,)).fetchone()
        by = [name for sent_id, name in sent if sent_id == job_id]
        ok = len(by) == 1 and status == ("done",)
        rows.append({"job": job_id, "address": email, "emails": len(by), "sent_by": by,
                     "status": status[0] if status else "gone", "ok": ok})
        if len(by) != 1:
            problems.append(f"{email} got {len(by)} welcome emails (want 1)"
                            + (f", sent by {' and '.join(by)}" if by else ""))
            first = job_id if first is None else first
        if status != ("done",):
            problems.append(f"job {job_id} ended {status[0] if status else 'deleted'}, not done")
    story = [text for job_id, text in events if job_id == first][:16] if first else []
    figures = {"steps": steps, "emails sent": len(sent)}
    return {"passed": not problems, "jobs": rows, "problems": problems, "story": story,
            "figures": figures}, []
