"""Step back, scrub and compare: a run of any simulation that can go back in time.

A Timeline wraps one simulation and records its run as moves from the start: a step, a
reader's action (name, arguments) or a wait (Play moving an event-driven clock to a time).
Position k is the state after the first k moves; position 0 is the start. The record
(params, seed, the actions with the position of each, the length) rebuilds the run exactly,
because the simulations are deterministic for a seed (docs/simulations.md).

    line = Timeline("live-queue", {"workers": 3}, seed=1)
    line.step(); line.act("kill", worker=2); line.step()
    line.back()                 # the state after the kill, exactly as it was
    line.seek(1)                # after the first step
    line.act("kill", worker=1)  # {"branched": True, ...}: a new branch from position 1
    other = line.fork(1)        # an independent second timeline from position 1
    first_difference(line, other)   # timeline_diff.py

Going back restores the nearest checkpoint at or before the moment and replays forward.
Checkpoints (checkpoint.Checkpoint: bytes) are taken every `every` moves; when more than
`keep` exist, the spacing doubles and every other one goes, so memory stays bounded however
long the run. A moment that cannot be copied (an open transaction, crash-timing's generators)
gets no checkpoint: it is replayed from an earlier one, or from the start.

Snapshots: snapshot() hands over the events since the previous snapshot, as the simulation's
does. After back() or seek(k) the events are exactly those emitted by move k, the same as a
run that took a snapshot after every move.
"""
from . import timeline_record
from .params import ParamError
from .timeline_record import ACT, STEP, WAIT, apply_move

RECENT = 8  # extra checkpoints kept near where back() goes, `every` moves apart


class Timeline:
    def __init__(self, sim, params=None, seed=0, *, every=16, keep=96, compress=False):
        """sim: a name in SIMULATIONS or a Simulation class; params and seed as for it
        (ParamError for bad ones). every: moves between checkpoints at first (>= 1);
        keep: the most checkpoints held (>= 2); compress: zlib the checkpoints (about 3.5
        times smaller, but ~40 ms to take one and ~10 ms to restore one in Pyodide)."""
        if isinstance(sim, str):
            from .. import SIMULATIONS
            if sim not in SIMULATIONS:
                raise ParamError("sim", f"unknown simulation {sim!r}")
            sim = SIMULATIONS[sim]
        if int(every) < 1 or int(keep) < 2:
            raise ValueError("every must be >= 1 and keep >= 2")
        self.kind, self.every, self.keep, self.compress = sim, int(every), int(keep), compress
        self.sim = sim(params, seed)
        # as given, not as filled in: a default named explicitly can be refused (crash-timing)
        self.params, self.seed = dict(params or {}), self.sim.seed
        self.moves = []        # the current branch: (STEP,) | (ACT, name, args) | (WAIT, until)
        self.times = [self._now()]  # virtual seconds at each position 0..len(moves)
        self.at = 0            # the position self.sim is in
        self.checkpoints = {}  # position -> Checkpoint of the simulation there
        self.views = {}        # view action -> its latest args: kept across every move
        self.interval = self.every
        self.recent = {}       # position -> Checkpoint taken while stepping back (at most RECENT)

    # --- moving ------------------------------------------------------------------------------
    def step(self):
        """One move forward: the branch's next recorded move if there is one (what seek(at + 1)
        shows), else one new step of the simulation. Returns False when nothing happened."""
        if self.at < len(self.moves):
            self._apply(self.moves[self.at])
            return True
        if not self.sim.step():
            return False
        self._record((STEP,))
        return True

    def act(self, name, /, **args):
        """A reader's action now. Acting before the end of the branch starts a new branch
        here (the moves after this moment are dropped) unless it is the very action recorded
        next. Returns {"branched": bool, "dropped": moves dropped, "at": position}.
        Raises ParamError like the simulation's act (then nothing is recorded).
        A view action (the simulation's VIEW_ACTS, e.g. which jobs the table lists) is no move:
        it is never recorded, never branches, and holds at every position until changed."""
        if name in self.kind.VIEW_ACTS:
            self.sim.act(name, **args)
            self.views[name] = dict(args)
            return {"branched": False, "dropped": 0, "at": self.at}
        move = (ACT, name, dict(args))
        if self.at < len(self.moves) and self.moves[self.at] == move:
            self._apply(move)
            return {"branched": False, "dropped": 0, "at": self.at}
        self.sim.act(name, **args)
        dropped = self._truncate()
        self._record(move)
        return {"branched": dropped > 0, "dropped": dropped, "at": self.at}

    def run(self, until):
        """Play to `until` (seconds), at most MAX_RUN_STEPS moves: follows the branch's
        recorded moves that fall by then, then steps. Returns True if it got there."""
        until = float(until)
        for _ in range(self.kind.MAX_RUN_STEPS):
            if self.at < len(self.moves):
                move = self.moves[self.at]
                if ((move[0] == STEP and self.sim.next_time() > until)
                        or (move[0] == WAIT and move[1] > until)):
                    return True
                self._apply(move)
                continue
            if self.sim.finished:
                return True
            if self.sim.next_time() > until:
                before = self._now()
                self.sim.run(until)       # takes no step: only moves an event-driven clock
                if self._now() != before:
                    self._record((WAIT, until))
                return True
            if not self.step():
                return True
        return False

    def back(self):
        """One move back: exactly the state the run had at position at - 1. Returns the new
        position (0 stays 0)."""
        return self.seek(max(0, self.at - 1), dense=True)

    def seek(self, k, dense=False):
        """Go to position k (0..len(moves)) of the current branch; the next snapshot holds
        the events of move k (so seeking where it stands shows them again). Returns k.
        Raises ParamError for a position off the branch. dense: keep extra checkpoints on
        the way (back() does, since one back() tends to follow another)."""
        k = int(k)
        if not 0 <= k <= len(self.moves):
            raise ParamError("at", f"must be a position from 0 to {len(self.moves)}, got {k}")
        if not 0 < k - self.at <= self.interval:  # forward by a little: just replay
            self.sim, self.at = self._restore(k - 1 if k else 0)
        self._replay_to(k, dense)
        return k

    def fork(self, k=None):
        """A second, independent timeline at position k (default: here) with the same past
        and no future; acting in either leaves the other as it was."""
        twin = self._twin(self.at if k is None else k)
        twin._truncate()
        return twin

    # --- what the page reads -----------------------------------------------------------------
    @property
    def clock(self):
        """The simulation's virtual clock (seconds), as Simulation.clock."""
        return self.sim.clock

    def snapshot(self):
        """The simulation's snapshot, plus "timeline": {at, length, branch_time}."""
        picture = self.sim.snapshot()
        picture["timeline"] = {"at": self.at, "length": len(self.moves)}
        return picture

    def marks(self):
        """The reader's actions on the current branch, for a slider:
        [{at, time, action, args}], `at` the position after the action, `time` in seconds."""
        return [{"at": at + 1, "time": self.times[at + 1], "action": move[1], "args": move[2]}
                for at, move in enumerate(self.moves) if move[0] == ACT]

    def position_at(self, seconds, nth=None):
        """The last position whose virtual time is at or before `seconds` (0 if none); with
        nth, the nth position (from 0) of those at that same time (moment() in reverse)."""
        last = max((at for at, t in enumerate(self.times) if t <= seconds + 1e-9), default=0)
        if nth is None:
            return last
        return min(self._first_at(last) + max(0, int(nth)), last)

    def moment(self):
        """(seconds, nth) naming this position for a link: its time, and how many earlier
        positions share that time."""
        return self.times[self.at], self.at - self._first_at(self.at)

    def _first_at(self, k):
        first = k
        while first > 0 and self.times[first - 1] == self.times[k]:
            first -= 1
        return first

    def record(self):
        """The run and the moment, as plain JSON for a link (timeline_record.py)."""
        return timeline_record.record(self)

    @classmethod
    def from_record(cls, record, **options):
        """Rebuild a timeline from record() and go to its moment (timeline_record.py). Raises
        ParamError (field "record", or the simulation's own) for one that does not fit."""
        return timeline_record.from_record(cls, record, **options)

    # --- inside --------------------------------------------------------------------------
    def _now(self):
        return self.sim.clock.now

    def _apply(self, move):
        """Replay a recorded move at self.at."""
        apply_move(self.sim, move)
        self.at += 1
        self.times[self.at] = self._now()
        self._checkpoint()

    def _replay_to(self, k, dense=False):
        """Replay the branch's moves to position k. dense: also keep checkpoints every
        `every` moves on the way (in self.recent), so the next back() replays little."""
        while self.at < k:
            if self.at == k - 1:
                self.sim.snapshot()  # drop older events: the snapshot shows move k's own
            self._apply(self.moves[self.at])
            if (dense and self.at % self.every == 0 and self.at not in self.checkpoints
                    and k - self.at <= RECENT * self.every):
                self._remember(k)

    def _remember(self, k):
        from .checkpoint import CannotClone, Checkpoint   # see _checkpoint()

        try:
            self.recent[self.at] = Checkpoint(self.sim, compress=False)  # few, and short-lived
        except CannotClone:
            return
        while len(self.recent) > RECENT:
            del self.recent[max(self.recent, key=lambda at: abs(at - k))]

    def _twin(self, k):
        """An independent copy of this timeline at position k, future included."""
        k = int(k)
        if not 0 <= k <= len(self.moves):
            raise ParamError("at", f"must be a position from 0 to {len(self.moves)}, got {k}")
        twin = object.__new__(Timeline)
        twin.__dict__.update(self.__dict__)
        twin.moves, twin.times = list(self.moves), list(self.times)
        twin.checkpoints = dict(self.checkpoints)  # shared: a Checkpoint is only ever thawed
        twin.recent = dict(self.recent)
        twin.views = dict(self.views)
        twin.sim, twin.at = self._restore(k - 1 if k else 0)
        twin._replay_to(k)
        return twin

    def _record(self, move):
        self.moves.append(move)
        self.times.append(None)
        self.at += 1
        self.times[self.at] = self._now()
        self._checkpoint()

    def _truncate(self):
        dropped = len(self.moves) - self.at
        del self.moves[self.at:], self.times[self.at + 1:]
        for saved in (self.checkpoints, self.recent):
            for at in [at for at in saved if at > self.at]:
                del saved[at]
        return dropped

    def _checkpoint(self):
        if self.at % self.interval or self.at in self.checkpoints:
            return
        # Imported at the first checkpoint, not with the module: a new run's first snapshot needs
        # none, and pickle is a large module for the page's Python to compile (the worker imports
        # it once the first reply is out: python-worker.js)
        from .checkpoint import CannotClone, Checkpoint

        try:
            self.checkpoints[self.at] = Checkpoint(self.sim, self.compress)
        except CannotClone:
            return
        while len(self.checkpoints) > self.keep:
            self.interval *= 2
            for at in [at for at in self.checkpoints if at % self.interval]:
                del self.checkpoints[at]

    def _restore(self, k):
        """A simulation at the latest checkpoint at or before k, and its position."""
        best = max((at for at in (*self.checkpoints, *self.recent) if at <= k), default=0)
        saved = self.checkpoints.get(best) or self.recent.get(best) if best else None
        sim = saved.thaw() if saved else self.kind(self.params, self.seed)
        for name, args in self.views.items():   # what the reader chose to see, at any moment
            sim.act(name, **args)
        return sim, best

