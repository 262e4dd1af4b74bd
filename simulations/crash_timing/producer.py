"""crash-timing's producer scenario: the other end of the queue. A is a web request that signs Ada
up (a row in `users`) and enqueues her welcome email; B is a worker that looks for jobs every
half second, finds Ada's row and sends the email. Where the request enqueues, relative to its
commit, decides what a crash or a rollback between the two leaves behind (chapter 11's outbox):

    before-commit      BEGIN, insert | enqueue | ... 1 s more of the request ... | COMMIT
    after-commit       BEGIN, insert | COMMIT | enqueue
    same-transaction   BEGIN, insert | enqueue into the same transaction | COMMIT (the outbox)

Until the commit, the row (and, in the same transaction, the job) is A's alone: nobody else sees
it, which the simulation keeps as A's pending statements and runs in one SQLite transaction at
the commit. `fault`: "crash" kills A between its two writes (for same-transaction, just after its
commit, before it answers), "rollback" rolls A's transaction back where it would have committed.
A job whose row is missing fails for good (a permanent failure: the row is not coming).

Sources: queue_classic's jobs, enqueued inside the transaction, ran before the commit and could
not find their record (https://github.com/ryansmith3136/queue_classic_example/issues/5; Rails
defers such enqueues since https://github.com/rails/rails/pull/51426); an enqueue after the
commit is lost if the process dies between the two (https://github.com/brandur/sorg/issues/239).
"""
from ..engine.capstone import tinyq
from .policies import Crash
from ..engine.params import choice
from ..engine.simulation import plural

ENQUEUE_MODES = ("before-commit", "after-commit", "same-transaction")
FAULTS = ("none", "crash", "rollback")
USERS = "CREATE TABLE users (email TEXT PRIMARY KEY)"
INSERT_USER = "INSERT INTO users (email) VALUES ('ada@example.com')"
FIND_USER = "SELECT count(*) FROM users WHERE email = 'ada@example.com'"
STEP = 0.5           # seconds between the request's moments
REST = 1.0           # seconds the request goes on after an enqueue inside its transaction
POLL = 0.5           # seconds between B's looks at the queue
WORK = 1.0           # seconds B works before it sends the email
WORDS = {"before-commit": ("insert Ada's row (not committed)", "enqueue the email job",
                           "commit"),
         "after-commit": ("insert Ada's row (not committed)", "commit", "enqueue the email job"),
         "same-transaction": ("insert Ada's row (not committed)",
                              "enqueue the job in the same transaction", "commit both")}
VERDICTS = {"lost": "Lost", "exactly once": "Exactly once", "consistent": "Consistent",
            "orphaned": "Orphaned job", "unfinished": "Unfinished"}


def producer_params():
    """The PARAMS entries of the producer scenario."""
    return (
        choice("enqueue", "Enqueue", "after-commit", ENQUEUE_MODES,
               "Where the web request enqueues the email job, relative to the commit of Ada's row "
               "(only when the scenario is \"A web request enqueues\").",
               {"before-commit": "Before the commit", "after-commit": "After the commit",
                "same-transaction": "In the same transaction (outbox)"}),
        choice("fault", "Fault", "none", FAULTS,
               "What goes wrong in the web request between its two writes (only when the "
               "scenario is \"A web request enqueues\").",
               {"none": "Nothing goes wrong", "crash": "The web process crashes",
                "rollback": "The request rolls back"}),
    )


class Producer:
    """The producer scenario's actors and verdict, a mixin of CrashTiming."""

    def _start_producer(self):
        self.queue.db.execute(USERS)
        self.job_id = None
        self.pending = []        # A's uncommitted writes: "user", "job"
        self.request_done = False
        self.agenda.schedule(0.0, "A", self._request())
        self.agenda.schedule(POLL + 0.25, "B", self._poll())

    def _request(self):
        """A, the web request (see the module's docstring)."""
        mode, fault = self.params["enqueue"], self.params["fault"]
        self.fate["A"] = "working"
        try:
            self.pending.append("user")
            self.moment("A", "effect", "A (the web request) opens a transaction and inserts Ada's "
                                       "row: nobody else sees it until the commit")
            yield STEP
            if mode == "after-commit":
                if not (yield from self._commit_or_fault(fault)):
                    return
                if fault == "crash":
                    yield 0.25
                    raise Crash
                yield STEP
                self._enqueue("A enqueues the welcome email, after its commit")
            else:
                if mode == "before-commit":
                    self._enqueue("A enqueues the welcome email; its own transaction is still open")
                else:
                    self.pending.append("job")
                    self.moment("A", "effect", "A writes the job into the same transaction "
                                               "(not committed either)")
                yield REST if mode == "before-commit" else STEP
                if not (yield from self._commit_or_fault(fault if mode == "before-commit" or
                                                          fault == "rollback" else "none")):
                    return
                if fault == "crash" and mode == "same-transaction":
                    yield 0.25
                    raise Crash
        except Crash:
            self._lose_pending()
            raise
        finally:
            self.request_done = True

    def _commit_or_fault(self, fault):
        """Commit A's pending writes, or roll them back, or die (fault crash) just before."""
        if fault == "rollback":
            self._lose_pending()
            self.moment("A", "rollback", "A's request fails and rolls back its transaction: "
                                         "nothing it wrote in it stays")
            return False
        if fault == "crash" and self.params["enqueue"] == "before-commit":
            yield 0.0
            raise Crash
        with tinyq.transaction(self.queue.db) as db:
            db.execute(INSERT_USER)
            if "job" in self.pending:
                self.job_id = self.queue.enqueue("welcome", {"email": "ada@example.com"})
        what = "Ada's row and her job, together" if "job" in self.pending else "Ada's row"
        self.pending = []
        self.moment("A", "ack", f"A commits: {what} can be seen now")
        return True

    def _lose_pending(self):
        if self.pending:
            self.moment("A", "rollback", "A's open transaction is rolled back: "
                        + ("Ada's row and her job are" if "job" in self.pending else "Ada's row is")
                        + " gone")
            self.pending = []

    def _enqueue(self, words):
        self.job_id = self.queue.enqueue("welcome", {"email": "ada@example.com"})
        self.moment("A", "effect", words)

    def _poll(self):
        """B looks for a job every POLL seconds until the request is over (and once after)."""
        self.fate["B"] = "working"
        while True:
            job = self.queue.claim("B")
            if job is not None:
                yield from self._handle(job)
                return
            self.moment("B", "claim", "B looks for work: the queue is empty")
            if self.request_done:
                return
            yield POLL

    def _handle(self, job):
        self.moment("B", "claim", f"B claims the job (attempt {job.attempts}, token {job.token})",
                    leased=True)
        if not self.queue.db.execute(FIND_USER).fetchone()[0]:
            self.queue.fail(job, "no user ada@example.com", permanent=True)
            self.moment("B", "refused", "B finds no row for Ada (not committed, or never): "
                                        "the job fails for good and is dead")
            return
        yield WORK
        self.send_email("B")
        yield STEP
        self.ack("B", job)

    # --- what the page says -----------------------------------------------------------------
    def producer_result(self):
        """"exactly once" (Ada's row and one email), "lost" (her row, no email),
        "orphaned" (a job for a row that never came), "consistent" (neither), "unfinished"."""
        user = self.queue.db.execute(FIND_USER).fetchone()[0]
        if self.job_id is not None and self._status() == "running":
            return "unfinished"
        if user:
            return "exactly once" if self.effects() == 1 else "lost"
        return "orphaned" if self.job_id is not None else "consistent"

    def producer_outcome(self):
        user = self.queue.db.execute(FIND_USER).fetchone()[0]
        emails = plural(self.effects(), "email")
        row = "Ada's row is committed" if user else "Ada's row does not exist"
        status = self._status() if self.job_id is not None else None
        job = (f"her job is {status}" if status else "no job was ever enqueued")
        if not self.finished:
            return f"So far: {row}; {job}; {emails} sent."
        return f"{VERDICTS[self.producer_result()]}: {row}; {job}; {emails} sent."

    def producer_strip(self):
        """(steps, points) for the request, in its own order."""
        labels = WORDS[self.params["enqueue"]]
        names = ("insert", "enqueue" if self.params["enqueue"] != "after-commit" else "commit",
                 "commit" if self.params["enqueue"] != "after-commit" else "enqueue")
        steps = [{"name": name, "label": label} for name, label in zip(names, labels)]
        points = [{"name": f"after-{name}", "label": f"after A's {name}"} for name in names]
        return steps, points
