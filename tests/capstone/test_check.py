"""The capstone's staircase: check.py accepts the real tinyq at every stage, rejects a broken
tinyq at the stage that teaches the broken part, in words, and the skeleton fits the reference."""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

CAPSTONE = Path(__file__).resolve().parents[2] / "code" / "capstone"
TINYQ = CAPSTONE / "tinyq.py"
SKELETON = CAPSTONE / "stairs" / "tinyq_skeleton.py"
# Speed only: the checker's throwaway databases go to memory-backed storage where there is some.
ENV = {**os.environ, **({"TMPDIR": "/dev/shm"} if os.path.isdir("/dev/shm") else {})}


def check(stage, path):
    done = subprocess.run([sys.executable, str(CAPSTONE / "check.py"), str(stage), str(path)],
                          capture_output=True, text=True, timeout=60, env=ENV)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done.returncode, done.stdout


@pytest.mark.parametrize("stage", [1, 2, 3, 4])
def test_the_real_tinyq_passes_every_stage(stage):
    code, out = check(stage, TINYQ)
    assert code == 0 and f"stage {stage} passed." in out, out
    assert "FAIL" not in out


# Each variant breaks one part of the real tinyq, by code appended to it (so it follows the
# real file as that changes) or by one replacement, and names the words check.py must say.
NAIVE_CLAIM = '''
def _look_then_grab(self, worker=None):
    row = self.db.execute("SELECT id FROM jobs WHERE (status = 'queued' AND run_at <= :now)"
                          " OR (status = 'running' AND locked_until < :now)"
                          " ORDER BY run_at, id LIMIT 1", {"now": self.clock()}).fetchone()
    if row is None:
        return None
    self.db.execute("UPDATE jobs SET status = 'running', attempts = attempts + 1,"
                    " locked_until = ?, token = 1 WHERE id = ?", (self.clock() + self.lease, row[0]))
    job_id, kind, args, attempts = self.db.execute(
        "SELECT id, kind, args, attempts FROM jobs WHERE id = ?", row).fetchone()
    return Job(job_id, kind, json.loads(args), attempts, 1, self)
Queue.claim = _look_then_grab
'''
# The same race behind a first write: the claim buries expired jobs, then looks and grabs.
NAIVE_CLAIM_AFTER_BURY = NAIVE_CLAIM.replace(
    "    row = self.db.execute(",
    "    self.db.execute(BURY_EXPIRED, {'now': self.clock(), 'max_attempts': self.max_attempts})\n"
    "    row = self.db.execute(", 1).replace("_look_then_grab", "_bury_then_look_then_grab")
LEAKY_COMPLETE = '''
@contextmanager
def _leaky(self):
    yield self.queue.db
    self.queue.ack(self)
Job.complete = _leaky
'''
UNFENCED_COMPLETE = '''
@contextmanager
def _unfenced(self):
    db = self.queue.db
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = ?", (self.id,))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    self.outcome = "done"
Job.complete = _unfenced
'''
NEVER_DEAD = '''
_fail = Queue.fail
def _never_dead(self, job, error):
    self.max_attempts = 10 ** 6
    return _fail(self, job, error)
Queue.fail = _never_dead
'''
FIXED_TOKEN = '''
_claim = Queue.claim
def _one_token(self, *args, **kwargs):
    job = _claim(self, *args, **kwargs)
    if job is not None:
        self.db.execute("UPDATE jobs SET token = 1 WHERE id = ?", (job.id,))
        job.token = 1
    return job
Queue.claim = _one_token
'''

VARIANTS = [
    (1, "look-then-grab claim", NAIVE_CLAIM, "job 1 was handed to two workers at once"),
    (1, "look-then-grab claim after burying expired jobs", NAIVE_CLAIM_AFTER_BURY,
     "job 1 was handed to two workers at once"),
    (1, "takeover at the lease's last instant",
     'Queue.CLAIM_JOB = CLAIM_JOB.replace("locked_until < :now", "locked_until <= :now")',
     "job 1 was claimed again at exactly the end of its 10.0-second lease"),
    (1, "a lease copied at the first claim",
     ('"lease": self.lease,', '"lease": self.__dict__.setdefault("first_lease", self.lease),'),
     "yet the second claim's lease lasts 10.0 seconds: read self.lease at each claim"),
    (1, "ack that does nothing", "Queue.ack = lambda self, job: None",
     "job 1 is 'running' after ack(); it should be 'done'"),
    (1, "decorator that loses the function",
     "Queue.handler = lambda self, kind: lambda f: self.handlers.__setitem__(kind, f)",
     "queue.handler(kind) must return the function it was given"),
    (2, "no jitter", "jitter = lambda delay, rng: delay",
     "five jobs that failed at the same moment all come back at the same moment"),
    (2, "jitter from the random module", "jitter = lambda d, rng: d / 2 + random.uniform(0, d / 2)",
     "draw the jitter from the queue's rng"),
    (2, "no cap", "backoff = lambda attempt, base, cap: base * 2 ** (attempt - 1)",
     "after failed attempt 4, job 1 waits"),
    (2, "a retry that keeps its lease",
     'Queue.MARK_RETRY = MARK_RETRY.replace("locked_until = NULL, ", "")',
     "a statement that ends a claim must also set locked_until = NULL"),
    (2, "no dead letters", NEVER_DEAD,
     "job 1 is 'queued' after failing all 3 of its attempts (max_attempts=3); it should be 'dead'"),
    (2, "no delivery cap", "Queue.BURY_EXPIRED = 'SELECT 1 WHERE :now AND :max_attempts'",
     "yet claim() handed it out again: make such a job dead first (the delivery cap)"),
    (2, "Permanent treated as any failure", ("permanent=isinstance(error, Permanent)", "permanent=False"),
     "job 1 is 'queued' after work_one() with a handler that raised Permanent"),
    (3, "one token for every claim", FIXED_TOKEN, "three claims in a row got the tokens [1, 1, 1]"),
    (3, "an ack without its token",
     "Queue.MARK_DONE = \"UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = :id\"",
     "yet A's ack() raised no LeaseLost"),
    (3, "a dead letter without its token",
     "Queue.MARK_DEAD = \"UPDATE jobs SET status = 'dead', locked_until = NULL, last_error = :error"
     " WHERE id = :id AND status = 'running'\"",
     "yet A's fail(..., permanent=True) raised no LeaseLost"),
    (3, "work_one that lets LeaseLost escape",
     ("except LeaseLost:\n            job.outcome", "except ZeroDivisionError:\n            job.outcome"),
     "worker A's work_one() let LeaseLost out"),
    (3, "tokens counted from the jobs table",
     'Queue.CLAIM_JOB = CLAIM_JOB.replace("(SELECT last_token + 1 FROM tokens)",'
     ' "(SELECT coalesce(max(token), 0) + 1 FROM jobs)")',
     "after the done jobs were deleted, a new claim got the token 1, though 2 had been handed out"),
    (4, "complete() without a transaction", LEAKY_COMPLETE,
     "the handler raised inside complete(), yet its INSERT was committed"),
    (4, "complete() without the guard", UNFENCED_COMPLETE,
     "worker A lost its lease before complete(), yet its points were committed"),
    (4, "a failure after complete()",
     ("if job.outcome is not None:     # raised after complete() committed", "if False:"),
     "it should stay 'done': do not fail (or ack) a job whose outcome the handler already set"),
    (4, "an ack after complete()",
     ("if job.outcome is None:  # not finished", "if True:  # not finished"),
     "job 1 was acked again after complete() had finished it"),
]


@pytest.mark.parametrize("stage, name, change, words", VARIANTS, ids=[v[1] for v in VARIANTS])
def test_a_broken_tinyq_is_caught_at_its_stage_in_words(stage, name, change, words, tmp_path):
    source = TINYQ.read_text(encoding="utf-8")
    if isinstance(change, tuple):
        assert source.count(change[0]) == 1, f"{change[0]!r} is no longer in tinyq.py"
        source = source.replace(*change)
    else:
        source += "\n" + change + "\n"
    broken = tmp_path / "tinyq.py"
    broken.write_text(source, encoding="utf-8")
    code, out = check(stage, broken)
    assert code == 1 and words in out, out
    if stage > 1:    # the stages before it do not notice: it is this stage's lesson
        code, out = check(stage - 1, broken)
        assert code == 0, out


def filled_skeleton():
    """The skeleton with every part marked for the reader taken from the reference."""
    reference = ast.parse(TINYQ.read_text(encoding="utf-8")).body \
        + ast.parse((CAPSTONE / "tinyq_sql.py").read_text(encoding="utf-8")).body
    skeleton = ast.parse(SKELETON.read_text(encoding="utf-8"))
    pieces = {}
    for node in reference:
        if isinstance(node, (ast.FunctionDef, ast.Assign)):
            pieces[ast.unparse(node.targets[0]) if isinstance(node, ast.Assign) else node.name] = node
        elif isinstance(node, ast.ClassDef):
            pieces[node.name] = node
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    pieces[f"{node.name}.{item.name}"] = item

    def fill(body, prefix=""):
        out = []
        for node in body:
            if isinstance(node, ast.FunctionDef) and "NotImplementedError" in ast.unparse(node):
                out.append(pieces[prefix + node.name])
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                    and node.value.value == "\n":
                out.append(pieces[ast.unparse(node.targets[0])])
            elif isinstance(node, ast.ClassDef):
                node.body = fill(node.body, node.name + ".")
                out.append(node)
            else:
                out.append(node)
            if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "MARK_DEAD":
                out.append(pieces["LeaseLost"])       # the class the reader writes in stage 3
        return out
    skeleton.body = fill(skeleton.body)
    return ast.unparse(skeleton)


def test_the_skeleton_filled_with_the_references_parts_passes_stage_4(tmp_path):
    filled = tmp_path / "tinyq.py"
    filled.write_text(filled_skeleton(), encoding="utf-8")
    code, out = check(4, filled)
    assert code == 0, out


STATEMENTS = {"INSERT_JOB", "BURY_EXPIRED", "CLAIM_JOB", "TOKEN_TAKEN", "MARK_DONE", "MARK_RETRY",
              "MARK_DEAD", "EXTEND_LEASE", "RELEASE_JOB"}


def _class(path, name):
    return next(node for node in ast.parse(path.read_text(encoding="utf-8")).body
                if isinstance(node, ast.ClassDef) and node.name == name)


def test_the_skeleton_names_what_tinyq_pg_swaps_in_so_a_readers_tinyq_runs_on_postgresql():
    swapped = {ast.unparse(target) for item in _class(CAPSTONE / "tinyq_pg.py", "Queue").body
               if isinstance(item, ast.Assign) for target in item.targets}
    swapped = {name.strip("()") for names in swapped for name in names.split(", ")}
    assert STATEMENTS | {"transaction"} <= swapped
    queue = _class(SKELETON, "Queue")
    named = {name.strip("()") for item in queue.body if isinstance(item, ast.Assign)
             for target in item.targets for name in ast.unparse(target).split(", ")}
    assert swapped <= named, swapped - named
    assert "_connect" in {item.name for item in queue.body if isinstance(item, ast.FunctionDef)}
    # The parts written for the reader use the statements through self, as the comments ask.
    for cls in (queue, _class(SKELETON, "Job")):
        for item in cls.body:
            if isinstance(item, ast.FunctionDef):
                bare = {n.id for n in ast.walk(item) if isinstance(n, ast.Name)} & (STATEMENTS | {"transaction"})
                assert not bare, f"{cls.name}.{item.name} uses {bare} instead of self.<name>"


def test_the_bare_skeleton_says_what_to_write_first():
    code, out = check(1, SKELETON)
    assert code == 1 and "not written yet: stage 1: write Queue.claim()" in out, out


def test_bad_input_gets_a_clear_message(tmp_path):
    done = subprocess.run([sys.executable, str(CAPSTONE / "check.py"), "5"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "needs a stage number, 1 to 4" in done.stdout
    code, out = check(1, tmp_path / "missing.py")
    assert code == 1 and "there is no" in out
    (tmp_path / "tinyq.py").write_text("def claim(:\n", encoding="utf-8")
    code, out = check(1, tmp_path / "tinyq.py")
    assert code == 1 and "tinyq.py line 1" in out, out

