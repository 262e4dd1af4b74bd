"""Judging an exercise in two halves: record() runs the reader's handlers in a Run and keeps the
effects they ask for as a trace (in the reader's own interpreter); replay() performs a trace's
effects in the judge's own Run (effects.py, replay.py). Also what the reader's code is given:
`queue` (ReaderQueue) and the world's calls (ReaderWorld).
"""
from .effects import Diverged, Recorder, ReaderDB
from .replay import Replayer
from .sandbox import Budget, ReaderError, fresh_rng, load


class ReaderQueue:
    """What the reader's code calls `queue`: handler(kind) to register, db (execute() only)."""

    def __init__(self, run, recorder, kinds):
        self._register, self._kinds = (lambda kind, function: run.handlers.__setitem__(
            kind, recorder.handler(function))), kinds
        self.db = ReaderDB(recorder)

    def handler(self, kind):
        if kind not in self._kinds:
            raise ValueError(f"this exercise has no job kind {kind!r}; "
                             f"its kinds are {', '.join(self._kinds)}")

        def register(function):
            self._register(kind, function)
            return function
        return register


class ReaderWorld:
    """What the reader's code calls `world` (send_email, charge) or `bank` (charge)."""

    def __init__(self, recorder):
        self.send_email, self.charge = recorder.send_email, recorder.charge


def record(run, code, names, kinds, seed, budget):
    """Run the reader's handlers for `kinds` on `run`, recording their effects; return the trace
    {"calls": [...], "printed": [lines], "lines": lines of the reader's code run}.
    Raises ReaderError."""
    run.handlers = {}
    meter = Budget(budget)
    recorder = Recorder(run)
    given = {"queue": ReaderQueue(run, recorder, kinds), **names(recorder)}
    # The reader's uuid4() has dice of its own: the judge's replay draws none of them.
    _, printed = load(code, given, fresh_rng("judge-uuid", seed), meter)
    missing = [kind for kind in kinds if kind not in run.handlers]
    if missing:
        raise ReaderError("missing", None, "your code registers no handler for "
                          + " or ".join(missing) + ' (use @queue.handler("' + missing[0] + '"))')
    run.work(meter)
    return {"calls": recorder.calls, "printed": printed, "lines": meter.used}


def replay(run, trace, kinds):
    """Perform `trace`'s effects in `run` (the judge's); return whether the run finished.
    Raises Diverged when the trace does not fit the run."""
    calls = trace.get("calls") if isinstance(trace, dict) else None
    replayer = Replayer(run, calls)
    run.handlers = {kind: replayer.handler for kind in kinds}
    finished = run.work(Budget(None))
    if replayer.left():
        raise Diverged(f"your code's run called its handlers {replayer.left()} more times "
                       "than the judge's run")
    return finished


def lines_of(trace):
    lines = trace.get("lines") if isinstance(trace, dict) else None
    return lines if type(lines) is int else 0
