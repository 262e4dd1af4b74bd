"""The shape every simulation shares: validated parameters, virtual time, bounded steps,
a reader's actions, an event log, and a JSON-able snapshot.

Subclasses set NAME, PARAMS (see params.py) and MAX_RUN_STEPS, and write:
    _start()                  build the starting state (called by __init__ and reset)
    _step()                   advance one bounded step; return False if there was nothing to do
    next_time()               when the next step would happen (seconds), for run(until)
    finished (property)       True when nothing more happens unless the reader acts
    still()                   why nothing moves once finished, in words (a default is given)
    outcome()                 the result in words
    job_rows()                [{id, status, attempts, lease_left, ...}]
    _state()                  the simulation's own snapshot keys
    VIEW                      snapshot -> what the reader is shown (view.py; a default is given)
    act_<name>(**args)        one method per action a reader can take
"""
import heapq
import inspect
import random
import sys
from collections import deque

from . import view as _view
from .params import (ParamError, check_help, convert, integer, seconds, seed_param, show_number,
                     validate)

# What a worker is doing, one vocabulary for every simulation (as tinyq.STATES is for jobs):
# idle (no job; not started yet), claimed, working, acking, finished (its attempt is over, it
# stops), killed (its process died: a crash, or the reader). Never a job state's word.
WORKER_STATES = ("idle", "claimed", "working", "acking", "finished", "killed")

MAX_EVENTS = 500  # events kept between two snapshots; older ones are counted, not kept

# Is any job left to do? Two lookups, each answered by one of tinyq's partial indexes (jobs_due,
# jobs_leased), where "status IN ('queued', 'running')" reads every row of the table. Asked at
# every step: in Pyodide's SQLite that scan was three quarters of a live-queue step with 1,000
# jobs (160 us of 210; bench/bench_widgets.py, "step").
UNFINISHED_JOBS = ("SELECT EXISTS (SELECT 1 FROM jobs WHERE status = 'queued') "
                   "OR EXISTS (SELECT 1 FROM jobs WHERE status = 'running')")


class VirtualClock:
    """Seconds of simulated time. tinyq reads it by calling it, like time.time."""

    def __init__(self, now=0.0):
        self.now = now

    def __call__(self):
        return self.now


class Agenda:
    """What happens next, in time order: (time in seconds, who, script) entries.

    As SimPy's Environment keeps its event queue: the clock advances only when an entry is
    popped, and entries at the same time come out in the order they were scheduled (a serial
    number breaks the tie), so a run replays exactly. `who` names the actor ("A", "lease");
    `script` is whatever the simulation resumes then, usually a generator.
    """

    def __init__(self, clock):
        self.clock = clock
        self._entries = []
        self._serial = 0   # an int, not itertools.count: a checkpoint pickles the agenda

    def schedule(self, when, who, script):
        """Put `who`'s `script` on the agenda at `when` (seconds, not before now)."""
        self._serial += 1
        heapq.heappush(self._entries, (max(when, self.clock.now), self._serial, who, script))

    def peek(self):
        """The time of the next entry, or infinity when the agenda is empty."""
        return self._entries[0][0] if self._entries else float("inf")

    def pop(self):
        """Take the next entry and move the clock to its time; returns (who, script)."""
        when, _, who, script = heapq.heappop(self._entries)
        self.clock.now = when
        return who, script

    def cancel(self, who):
        """Take `who`'s entry off the agenda and return its script (None if it has none)."""
        for index, (_, _, actor, script) in enumerate(self._entries):
            if actor == who:
                self._entries.pop(index)
                heapq.heapify(self._entries)
                return script
        return None

    def copy(self, clock):
        """An independent agenda on `clock` with the same entries (their scripts are shared,
        so this suits scripts that are plain data, not generators)."""
        twin = Agenda(clock)
        twin._entries, twin._serial = list(self._entries), self._serial
        return twin

    def actors(self):
        """Who has something on the agenda."""
        return [who for _, _, who, _ in self._entries]

    def __bool__(self):
        return bool(self._entries)


class Simulation:
    NAME = ""
    PARAMS = (seed_param(),)
    MAX_RUN_STEPS = 1000  # the most steps one run() call takes, so no call can run long
    VIEW_ACTS = frozenset()  # actions that change what the page is shown, not the run (timeline.py)
    # snapshot -> its "view": the figures, tables and sentences the reader is shown (view.py)
    VIEW = staticmethod(_view.generic)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Help texts in the reader's words (params.py): checked wherever the tests and the build
        # import the class, not in the page's Python (sys.platform "emscripten"), where its
        # dozen regular expressions, compiled on the first widget's way to its first frame,
        # would check constants already checked (bench/bench_widgets.py, `ready`).
        if sys.platform != "emscripten":
            check_help(cls.PARAMS)

    def __init__(self, params=None, seed=0):
        """params: {name: value}, values possibly as strings; `seed` is used unless params
        holds one. Raises ParamError naming the first bad field."""
        if params is not None and not isinstance(params, dict):
            raise ParamError("params", f"must be a mapping of name to value, got {params!r}")
        given = dict(params or {})
        given.setdefault("seed", seed)
        self.params = validate(self.PARAMS, given)
        self.given = given  # as passed: a subclass may need to know what was left to default
        self.seed = self.params["seed"]
        self._reset()

    def _reset(self):
        self.clock = VirtualClock()
        self.rng = random.Random(self.seed)
        self._events = deque(maxlen=MAX_EVENTS)
        self._dropped = 0
        self._start()

    # --- the reader's controls ----------------------------------------------------------
    def step(self):
        """Advance by one bounded step. Returns False when there was nothing to do."""
        if self.finished:
            return False
        return self._step() is not False

    def run(self, until):
        """Step until the next step would happen after `until` (seconds), or the simulation
        is finished, taking at most MAX_RUN_STEPS steps. Returns True if it got there,
        False if it stopped at the cap (call it again to go on)."""
        until = seconds("until", until)
        for _ in range(self.MAX_RUN_STEPS):
            if self.finished:
                return True
            if self.next_time() > until:
                self._wait_until(until)
                return True
            if not self.step():
                return True
        return self.finished or self.next_time() > until

    def next_time(self):
        """The time (seconds) the next step would happen at."""
        return self.clock.now

    def _wait_until(self, until):
        """Nothing happens before `until`: a simulation that jumps from event to event moves
        its clock there; one that ticks stays on its last tick."""

    def actions(self):
        return sorted(name[4:] for name in dir(self) if name.startswith("act_"))

    def act(self, name, /, **args):
        """Do a reader's action, e.g. act("kill", worker=2). Raises ParamError for an
        unknown action or a bad argument."""
        method = getattr(self, f"act_{name}", None) if isinstance(name, str) else None
        if method is None:
            raise ParamError("action", f"unknown action {name!r}; this simulation knows "
                                       + ", ".join(self.actions()))
        signature = inspect.signature(method)
        try:
            signature.bind(**args)
        except TypeError as error:
            takes = ", ".join(signature.parameters) or "no arguments"
            raise ParamError("action", f"{name} takes {takes}: {error}") from None
        return method(**args)

    def act_reset(self):
        """Start again from the same parameters and seed."""
        self._reset()

    # --- what the page draws --------------------------------------------------------
    def emit(self, text):
        """Log an event for the page (the oldest are dropped past MAX_EVENTS, and counted)."""
        self._dropped += len(self._events) == MAX_EVENTS
        self._events.append({"time": round(self.clock.now, 3), "text": text})

    def logged(self):
        """How many events were logged since the last snapshot, counting those dropped past
        MAX_EVENTS: a step that raises it is an event, where "Step to the next event" stops."""
        return len(self._events) + self._dropped

    def snapshot(self):
        """Everything the page draws, as plain JSON-able values. Takes the events
        emitted since the previous snapshot."""
        events, self._events = list(self._events), deque(maxlen=MAX_EVENTS)
        dropped, self._dropped = self._dropped, 0
        picture = {
            "sim": self.NAME,
            "time": round(self.clock.now, 3),
            "seed": self.seed,
            "params": dict(self.params),
            "jobs": self.job_rows(),
            "outcome": self.outcome(),
            "events": events,
            "events_dropped": dropped,
            "finished": self.finished,
            "still": self.still() if self.finished else None,
        }
        picture.update(self._state())
        picture["view"] = self.VIEW(picture)   # what the reader is shown, in words (view.py)
        return picture

    def still(self):
        """Why nothing moves now that the run is finished, and what the reader can do, in
        words: the page shows it beside Step, which it disables then."""
        return "Nothing more happens: this run is over. Press Reset to watch it again."

    def lease_left(self, status, locked_until):
        """Seconds left on a running job's lease (0 once it ran out); None if not running."""
        if status != "running" or locked_until is None:
            return None
        return round(max(0.0, locked_until - self.clock.now), 3)


def require_int(field, value, minimum, maximum):
    """An action's whole-number argument, checked like a parameter."""
    return convert(integer(field, field, minimum, minimum, maximum, ""), value)


def plural(count, word, many=None):
    """"1 job", "2 jobs", "5,000 jobs", "0.5 jobs": the word agrees with the count (an int,
    shown with thousands separators, or a float, shown with no float noise)."""
    shown = f"{count:,}" if isinstance(count, int) else show_number(count)
    return f"{shown} {word if count == 1 else (many or word + 's')}"
