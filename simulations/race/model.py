"""race: workers A, B (up to J) claim welcome-email jobs from one table, one statement at a time.

With the naive claim each worker looks (SELECT) and then grabs (UPDATE) in two statements,
so the other can look in between and see the same job still queued: both send its email.
With the atomic claim (tinyq's own claim, one UPDATE ... RETURNING) looking and grabbing
are one statement, and no order of steps can give one job to both.

Each worker's program, one statement per step:
    naive:   look -> grab -> send -> mark done -> look ...     (stops when look finds nothing)
    atomic:  claim -> send -> ack -> claim ...                 (stops when claim finds nothing)

The table runs one statement at a time, STATEMENT_SECONDS each: the simulation's agenda
(simulation.Agenda, as crash-timing and payments have it) holds the moment of the next
statement, and the clock moves only when that entry is popped. Who runs it is decided then:
the seeded generator in Play, the reader with "Step worker A", "Step worker B", ...

What the page draws of it (the workers' marks on the job rows, the arrow on the statement each
just ran) is race_picture.py's.
"""
import copy
import json
import random
import sqlite3
import textwrap
from dataclasses import dataclass, replace

from ..engine.capstone import tinyq
from ..engine.params import ParamError, choice, integer, seed_param
from .picture import clock_words, mark_legend, names_in_words, program, row_keys, worker_keys
from .view import race_view
from ..engine.simulation import Agenda, Simulation, VirtualClock, plural


ADDRESSES = ("ada@example.com", "alan@example.com", "grace@example.com",
             "edsger@example.com", "barbara@example.com")
WORKER_NAMES = tuple("ABCDEFGHIJ")   # the first `workers` of them race (2 to 10)
STATEMENT_SECONDS = 1.0  # virtual time one statement takes
LEASE = 3600.0           # long enough never to run out here: this is a race, not a crash

# The look-then-grab claim, as the guide's chapter 4 first writes it (broken on purpose).
NAIVE_LOOK = "SELECT id, args FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1"
NAIVE_GRAB = ("UPDATE jobs SET status = 'running', attempts = attempts + 1, "
              "locked_until = :now + :lease WHERE id = :id")
NAIVE_DONE = "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = :id"

PROGRAMS = {"naive": ("look", "grab", "send", "done"), "atomic": ("claim", "send", "ack")}
# A worker's next step in words, for the chip beside its name ("done" is not the job state here).
STEP_WORDS = {"look": "next: look", "grab": "next: grab", "send": "next: send the email",
              "done": "next: mark done", "claim": "next: claim", "ack": "next: ack",
              "finished": "stopped"}


@dataclass
class RaceWorker:
    name: str
    step: str                 # the statement it runs next, or "finished"
    job_id: int = None        # the job it saw (naive look) or holds
    address: str = None
    job: object = None        # the tinyq.Job of an atomic claim
    last: int = None          # the index in its program of the statement it just ran


class Race(Simulation):
    NAME = "race"
    VIEW = staticmethod(race_view)
    MOMENT_UNIT = ("statement", STATEMENT_SECONDS)  # its time travel counts statements
    ACTION_WORDS = {f"step_{name.lower()}": f"step worker {name}" for name in WORKER_NAMES}
    MAX_RUN_STEPS = 200
    PARAMS = (
        choice("claim", "Claim", "naive", ("naive", "atomic"),
               "How a worker takes a job. \"Naive: look, then grab\" runs a SELECT, then an "
               "UPDATE: two statements. \"Atomic: one statement\" is one UPDATE ... RETURNING.",
               {"naive": "Naive: look, then grab", "atomic": "Atomic: one statement"}),
        integer("jobs", "Jobs", 2, 1, len(ADDRESSES), "Welcome emails waiting to be sent."),
        integer("workers", "Workers", 2, 2, len(WORKER_NAMES),
                "How many workers race for the jobs, named A, B, C and on."),
        seed_param(),
    )

    def _start(self):
        self.mode = self.params["claim"]
        self.queue = tinyq.Queue(lease=LEASE, clock=self.clock, rng=self.rng)
        for address in ADDRESSES[:self.params["jobs"]]:
            self.queue.enqueue("send_welcome_email", {"address": address})
        first = PROGRAMS[self.mode][0]
        self.workers = {name: RaceWorker(name, first)
                        for name in WORKER_NAMES[:self.params["workers"]]}
        self.looked = {}   # {job id: names of the workers that looked and saw it queued}
        self.taken = {}    # {job id: names of the workers that took it}
        self.emails = []  # (job id, address, worker name), in the order sent
        self.statements = 0
        self.agenda = Agenda(self.clock)   # the table's next statement (simulation.py)
        self.agenda.schedule(STATEMENT_SECONDS, "table", None)

    # --- stepping -----------------------------------------------------------------------------
    def _step(self):
        """Let a worker chosen by the seeded generator run its next statement."""
        ready = [name for name, worker in self.workers.items() if worker.step != "finished"]
        self._run_statement(self.workers[self.rng.choice(ready)])

    def next_time(self):
        return self.agenda.peek()

    def act_step(self, worker):
        """Worker "A", "B", ... runs its next statement."""
        given, worker = worker, str(worker).strip().upper()
        if worker not in self.workers:
            names = list(self.workers)
            allowed = " or ".join(names) if len(names) == 2 else f"one of {names[0]} to {names[-1]}"
            raise ParamError("worker", f"must be {allowed} (this race's workers), got {given!r}")
        if self.workers[worker].step == "finished":
            raise ParamError("worker", f"worker {worker} has finished: no jobs were left for it")
        self._run_statement(self.workers[worker])

    def _run_statement(self, worker):
        """The table's next statement is `worker`'s: the clock moves to it (the agenda's
        entry), the statement runs, and the one after is put on the agenda unless both
        workers have stopped."""
        self.agenda.pop()
        self.statements += 1
        worker.last = PROGRAMS[self.mode].index(worker.step)
        getattr(self, f"_do_{worker.step}")(worker)
        if not self.finished:
            self.agenda.schedule(self.clock.now + STATEMENT_SECONDS, "table", None)

    def _next(self, worker):
        program = PROGRAMS[self.mode]
        worker.step = program[(program.index(worker.step) + 1) % len(program)]

    def _do_look(self, worker):
        found = self.queue.db.execute(NAIVE_LOOK).fetchone()
        if found is None:
            worker.step, worker.job_id = "finished", None
            self.emit(f"{worker.name} looked: no queued job is left, so {worker.name} stops")
            return
        worker.job_id, worker.address = found[0], json.loads(found[1])["address"]
        self.looked.setdefault(worker.job_id, []).append(worker.name)
        self.emit(f"{worker.name} looked: job {worker.job_id} is queued")
        self._next(worker)

    def _do_grab(self, worker):
        self.queue.db.execute(NAIVE_GRAB, {"id": worker.job_id, "now": self.clock.now,
                                           "lease": LEASE})
        self.taken.setdefault(worker.job_id, []).append(worker.name)
        self.emit(f"{worker.name} grabbed job {worker.job_id}: running")
        self._next(worker)

    def _do_claim(self, worker):
        job = self.queue.claim()
        if job is None:
            worker.step = "finished"
            self.emit(f"{worker.name} claimed nothing: no queued job is left, so {worker.name} stops")
            return
        worker.job, worker.job_id, worker.address = job, job.id, job.args["address"]
        self.looked.setdefault(job.id, []).append(worker.name)   # one statement looks and takes
        self.taken.setdefault(job.id, []).append(worker.name)
        self.emit(f"{worker.name} claimed job {job.id} (token {job.token})")
        self._next(worker)

    def _do_send(self, worker):
        self.emails.append((worker.job_id, worker.address, worker.name))
        copies = sum(1 for job_id, _, _ in self.emails if job_id == worker.job_id)
        extra = "" if copies == 1 else f": that is {copies} emails for one job"
        self.emit(f"{worker.name} sent the welcome email to {worker.address}{extra}")
        self._next(worker)

    def _do_done(self, worker):
        self.queue.db.execute(NAIVE_DONE, {"id": worker.job_id})
        self.emit(f"{worker.name} marked job {worker.job_id} done")
        worker.job_id = worker.address = None
        self._next(worker)

    def _do_ack(self, worker):
        self.queue.ack(worker.job)
        self.emit(f"{worker.name} acked job {worker.job_id}: done")
        worker.job = worker.job_id = worker.address = None
        self._next(worker)

    # --- what the page draws --------------------------------------------------------------------
    def next_statement(self, worker):
        """What the worker runs next: {"kind": "sql" | "effect" | "none", "text": ...}."""
        id_ = worker.job_id
        if worker.step == "finished":
            return {"kind": "none", "text": "nothing: this worker has stopped"}
        if worker.step == "send":
            return {"kind": "effect", "text": f"send the welcome email to {worker.address}"}
        sql = {"look": NAIVE_LOOK,
               "grab": NAIVE_GRAB.replace(":id", str(id_)),
               "done": NAIVE_DONE.replace(":id", str(id_)),
               "claim": textwrap.dedent(tinyq.CLAIM_JOB).strip(),
               "ack": tinyq.MARK_DONE.strip().replace(":id", str(id_)).replace(
                   ":token", str(worker.job.token) if worker.job else ":token")}[worker.step]
        return {"kind": "sql", "text": sql}

    @property
    def finished(self):
        return all(worker.step == "finished" for worker in self.workers.values())

    def job_rows(self):
        rows = []
        for job_id, status, attempts, token, args in self.queue.db.execute(
                "SELECT id, status, attempts, token, args FROM jobs ORDER BY id"):
            rows.append({"id": job_id, "status": status, "attempts": attempts, "lease_left": None,
                         "token": token, "address": json.loads(args)["address"],
                         "emails": sum(1 for sent, _, _ in self.emails if sent == job_id),
                         **row_keys(self, job_id)})
        return rows

    def duplicates(self):
        """{address: [worker names]} for every address that got more than one email."""
        senders = {}
        for _, address, name in self.emails:
            senders.setdefault(address, []).append(name)
        return {address: names for address, names in senders.items() if len(names) > 1}

    def outcome(self):
        twice = self.duplicates()
        if twice:
            return "; ".join(f"{address} got {len(names)} emails (from {names_in_words(names)})"
                             for address, names in twice.items()) + "."
        sent = f"{plural(len(self.emails), 'email')} sent"
        if self.finished:
            return f"{sent}: every address got exactly one."
        return f"{sent} so far, no duplicates yet."

    def _state(self):
        workers = []
        for worker in self.workers.values():
            workers.append({"name": worker.name, "step": worker.step,
                            "step_words": STEP_WORDS[worker.step], "job": worker.job_id,
                            "next": self.next_statement(worker), **worker_keys(worker)})
        return {"claim": self.mode, "workers": workers, "statements": self.statements,
                "clock_words": clock_words(self.statements), "program": program(self.mode),
                "mark_legend": mark_legend(),
                "emails": [{"job": job_id, "address": address, "worker": name}
                           for job_id, address, name in self.emails],
                "duplicates": self.duplicates()}

    # --- for exploring every interleaving -------------------------------------------------------
    def clone(self):
        """An independent copy of this race, state and all (the database is copied)."""
        twin = copy.copy(self)
        twin.clock = VirtualClock(self.clock.now)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.queue = copy.copy(self.queue)
        twin.queue.clock, twin.queue.rng = twin.clock, twin.rng
        twin.agenda = self.agenda.copy(twin.clock)
        twin.queue.db = sqlite3.connect(":memory:", isolation_level=None)
        self.queue.db.backup(twin.queue.db)
        twin.workers = {name: replace(worker) for name, worker in self.workers.items()}
        twin.emails = list(self.emails)
        twin.looked = {job: list(names) for job, names in self.looked.items()}
        twin.taken = {job: list(names) for job, names in self.taken.items()}
        twin._events = copy.copy(self._events)
        return twin

    def state_key(self):
        """What decides the rest of the race: the workers, the table, the emails per job."""
        table = tuple(self.queue.db.execute("SELECT id, status, attempts, token FROM jobs"))
        workers = tuple((w.step, w.job_id, None if w.job is None else w.job.token)
                        for w in self.workers.values())
        counts = tuple(sorted((job_id, name) for job_id, _, name in self.emails))
        return workers, table, counts


def _step_action(name):
    def act(self):
        self.act_step(name)
    act.__name__ = f"act_step_{name.lower()}"
    act.__doc__ = f"Worker {name} runs its next statement (refused if this race has no {name})."
    return act


for _name in WORKER_NAMES:   # act_step_a ... act_step_j: the buttons "Step worker A", ...
    setattr(Race, f"act_step_{_name.lower()}", _step_action(_name))
