"""One judged run of an exercise: the queue, the world and the workers, on virtual time.

The world here is code/capstone/world.py's, kept in memory: a mail provider and a bank behind a
network that loses requests and replies (the same dice), each remembering idempotency keys.
Workers are cooperative: each takes a turn (claim, run the handler, finish) in a seeded order on
virtual time. The monkey kills a worker by raising WorkerKilled at a crash point, which nothing
catches until the supervisor, who starts a fresh worker; the job stays running until its lease
runs out, as after os._exit in code/capstone/shop.py.

Each exercise fills the world its own way (Run.setup: shop.py's customers, payments.py's orders)
and audits it its own way; trace.py records the reader's handlers in a run and replays them.
"""
import random
from contextlib import contextmanager

from ..engine.capstone import tinyq
from .effects import WorkerKilled, guarded
from .sandbox import fresh_rng, run_reader
from ..engine.simulation import VirtualClock

LEASE, TURN = 1.0, 0.01                   # seconds (virtual): a claim's lease, one worker's turn
MAX_ATTEMPTS, BACKOFF_BASE, BACKOFF_CAP = 30, 0.05, 0.5
MAX_TURNS = 20_000


_DICE = random.Random()


def dice(*about):
    """A number in [0, 1) that depends only on `about` (world.py's dice): the same number as
    fresh_rng(*about).random(), from one Random seeded again (a new one each time costs more,
    and both the reader's run and the judge's replay throw these dice at every crash point)."""
    _DICE.seed(":".join(map(str, about)))
    return _DICE.random()


class Run:
    """One judged run: the queue, the world, the workers and the story. An exercise's run
    (shop.py, payments.py) says in setup(count) what the world holds and which jobs are queued."""

    def __init__(self, seed, count, workers, chaos, lose_request, lose_reply):
        self.seed, self.chaos = seed, chaos
        self.lose_request, self.lose_reply = lose_request, lose_reply
        self.clock = VirtualClock()
        self.rng = fresh_rng("judge", seed)
        self.queue = tinyq.Queue(lease=LEASE, max_attempts=MAX_ATTEMPTS, clock=self.clock,
                                 backoff_base=BACKOFF_BASE, backoff_cap=BACKOFF_CAP, rng=self.rng)
        self.queue.db.set_authorizer(guarded)
        self.setup(count)
        self.workers = [f"worker {n}" for n in range(1, workers + 1)]
        self.started = workers
        self.sent, self.charges, self.keys, self.requests = [], [], {}, []
        self.events = []          # (job id, email, text)
        self.crashes = 0
        self.current = None       # (worker, job) during a turn
        self.killed = None        # the moment the monkey killed the current worker, if it did
        self.seen = {}            # crash points met in this attempt, for the dice

    def setup(self, count):
        """Fill the world and queue the exercise's jobs: `count` customers, orders..."""
        raise NotImplementedError

    @staticmethod
    def about(job):
        """Who or what a job is for, in words: 'customer 3' or 'order 2'."""
        return short(job.args["email"]) if "email" in job.args else f"order {job.args['order']}"

    # --- the world, as the reader's handlers see it ------------------------------------------
    def say(self, text):
        worker, job = self.current
        self.events.append((job.id, None, f"{self.clock.now:.2f} s, {worker}: {text}"))

    def maybe_crash(self, moment):
        if self.killed:  # a dead worker stays dead, even if the reader's `except:` caught it
            raise WorkerKilled(self.killed)
        worker, job = self.current
        nth = self.seen[moment] = self.seen.get(moment, 0) + 1
        about = job.args.get("email", job.args.get("order"))
        if dice(self.seed, job.kind, about, job.attempts, moment, nth) < self.chaos:
            self.say(f"killed by the chaos monkey {moment} (job {job.id}, attempt {job.attempts})")
            self.killed = moment
            raise WorkerKilled(moment)

    def request(self, service, about, key, deliver, repeat_answer):
        what = {"mail": "email", "bank": "charge"}[service]
        self.maybe_crash(f"before the {what}")
        earlier = sum(1 for s, a in self.requests if (s, a) == (service, about))
        self.requests.append((service, about))
        roll = dice(self.seed, service, about, earlier)
        if roll < self.lose_request:
            self.say(f"the {what} request for {short(about)} was lost on the way")
            raise ConnectionError(f"the {service} request about {about} never arrived")
        if key is not None and key in self.keys:
            answer = repeat_answer
            self.say(f"the {what} for {short(about)} was a repeat of key {key!r}: nothing done")
        else:
            answer = deliver()
            if key is not None:
                self.keys[key] = answer
        if roll < self.lose_request + self.lose_reply:
            self.say(f"the {what} for {short(about)} went through, but its reply was lost")
            raise TimeoutError(f"no reply from the {service} about {about}")
        self.maybe_crash(f"just after the {what}")
        return answer

    def send_email(self, to, subject, idempotency_key=None):
        def deliver():
            self.sent.append(to)
            self.say(f"sent an email to {short(to)}: {subject!r}")
            return "sent"
        return self.request("mail", to, idempotency_key, deliver, "already sent")

    def charge(self, account, dollars, idempotency_key=None):
        def take():
            self.charges.append((account, dollars, self.current[1].id))
            self.say(f"charged {short(account)} ${dollars}")
            return "charged"
        return self.request("bank", account, idempotency_key, take, "already charged")

    # --- workers, on virtual time ---------------------------------------------------------------
    def turn(self, worker, budget):
        """One worker claims a job and runs its handler to the end (or dies). Returns the job."""
        job = self.queue.claim()
        if job is None:
            return None
        self.current, self.seen, self.killed = (worker, job), {}, None
        self.say(f"claimed job {job.id}, {job.kind} for {self.about(job)} "
                 f"(attempt {job.attempts})")
        try:
            self.maybe_crash("before the handler ran")
            run_reader(budget, self.handlers[job.kind], JobView(job, self),
                       expected=(ConnectionError, TimeoutError, tinyq.LeaseLost))
            if job.outcome is None:
                self.maybe_crash("after the handler returned, before the ack")
                self.queue.ack(job)
                self.say(f"acked job {job.id}: done")
        except (ConnectionError, TimeoutError) as error:
            if job.outcome is None:
                state = self.queue.fail(job, f"{type(error).__name__}: {error}")
                self.say(f"job {job.id} failed ({type(error).__name__}): "
                         + ("it will be retried" if state == "queued" else "it is dead"))
        except tinyq.LeaseLost:
            self.say(f"job {job.id}: lease lost, another worker holds it")
        if self.killed:
            raise WorkerKilled(self.killed)
        return job

    def work(self, budget):
        """Run workers until no job is queued or running; restart the ones the monkey kills."""
        for _ in range(MAX_TURNS):
            busy = False
            order = list(self.workers)
            self.rng.shuffle(order)
            for worker in order:
                try:
                    busy = self.turn(worker, budget) is not None or busy
                except WorkerKilled:
                    self.crashes += 1
                    self.started += 1
                    self.workers[self.workers.index(worker)] = f"worker {self.started}"
                    busy = True
            if busy:
                self.clock.now += TURN
                continue
            due = self.queue.db.execute(
                "SELECT min(t) FROM (SELECT min(run_at) AS t FROM jobs WHERE status = 'queued' "
                "UNION ALL SELECT min(locked_until) FROM jobs WHERE status = 'running')"
            ).fetchone()[0]
            if due is None:
                return True
            self.clock.now = max(self.clock.now + TURN, due)
        return False


class JobView:
    """The job a handler receives: tinyq's Job, with a crash point inside complete()."""

    def __init__(self, job, run):
        self._job, self._run = job, run
        self.id, self.kind, self.args, self.attempts = job.id, job.kind, job.args, job.attempts

    @property
    def token(self):
        return self._job.token

    @contextmanager
    def complete(self):
        with self._job.complete() as db:
            yield db
            self._run.maybe_crash("in the transaction, before the commit")
        self._run.say(f"committed the handler's writes and marked job {self.id} done")


def short(email):
    """'customer03@example.com' -> 'customer 3'."""
    name = email.split("@")[0]
    return f"customer {int(name[8:])}" if name.startswith("customer") else email
