"""Two runs side by side: a run the reader kept, held at the moment the live run shows, and
where the two part, in words.

A kept run is its record (params, seed, the reader's moves): the simulations are deterministic,
so it is re-created as a Timeline of its own in this same Python and survives whatever the reader
does next to the live run: another setting (a new run), Reset, another action at another moment.
The bridge (bridge.py) keeps one per widget id in `KEPT` and, while the reader compares, adds to
every snapshot of that widget a "compare" key:

    {"kept": the kept run's snapshot at the live run's moment (no events, no travel),
     "kept_name", "live_name":    what the two pictures are called ("The kept run", "This run")
     "kept_about", "live_about":  what sets each run apart: its settings and actions that the
                                  other does not share, in words ("Claim: Atomic")
     "differ":    where they part, in words (the first event that differs, with its time)
     "moment":    the moment both pictures show, in words ("4.2 s"), and "kept_moment", the
                  kept run's: the same, except beside a live run that is over, when the kept
                  run is shown at its own end (a finished run's picture stands still)}

Whether a run is kept shows in the snapshot's travel ("kept": true), as before.
"""
from .params import ParamError
from .timeline_record import ACT, apply_move
from .timeline_view import action_words, show, words

KEPT = {}                 # widget id -> Kept
MAX_CATCH_UP = 50         # run() calls that may bring one run to the other's moment
NAMES = {"kept": ("The kept run", "This run"),       # what each picture is called
         "fix": ("The fix", "The incident")}         # a casebook's pair (docs/authoring.md)


class Kept:
    """A run kept to compare with, and whether the page is showing the comparison."""

    def __init__(self, line, names="kept"):
        self.line = line.fork(len(line.moves))   # the whole run, whatever moment is shown
        self.names = NAMES[names]
        self.over = self.line.sim.finished       # nothing more to play on to
        self.played_out = False                  # played on to its end once (end())
        self.showing = False
        self.trail = Trail(self.line)
        self.trail.advance(self.line)
        self.live_trail = None                   # the live run's events, followed as it grows
        self.parted = None                       # where they part, once an event differs
        self.shown = None                        # (position, snapshot) last shown

    def at_moment(self, moment):
        """The kept run's snapshot at `moment` (seconds): its last position at or before it.
        A kept run that ends earlier and is not over is played on to it (its reader's actions
        all came before its end, so this is what Play would have shown)."""
        line = self.line
        if moment > line.times[-1] and not self.over:
            if line.at != len(line.moves):
                line.seek(len(line.moves))
            for _ in range(MAX_CATCH_UP):
                if line.run(moment):
                    break
            if self.parted is None:
                self.trail.advance(line)
            self.over = line.sim.finished
        at = line.position_at(moment)
        if self.shown is None or self.shown[0] != at:
            if line.at != at:   # (seeking where it stands would replay from a checkpoint)
                line.seek(at)
            snapshot = line.sim.snapshot()
            snapshot["events"], snapshot["events_dropped"] = [], 0
            self.shown = (at, snapshot)
        return self.shown[1]

    def end(self):
        """The time (seconds) the kept run ends when played on to its end (at most MAX_CATCH_UP
        run() calls, once): shown beside a live run that is over, whose picture stands still."""
        line = self.line
        if not self.over and not self.played_out:
            self.played_out = True
            if line.at != len(line.moves):
                line.seek(len(line.moves))
            for _ in range(MAX_CATCH_UP):
                if line.run(line.times[-1] + 3600) and line.sim.finished:
                    break
            if self.parted is None:
                self.trail.advance(line)
            self.over = line.sim.finished
        return line.times[-1]

    def differ(self, line):
        """Where the kept run and the live `line` part, in words. The live run's events are
        followed by a Trail kept between calls (started again when the live run is another run
        or another branch); once an event differs, neither trail is replayed further (what comes
        after cannot move the first difference)."""
        trail = self.live_trail
        if trail is None or not trail.follows(line):
            trail = self.live_trail = Trail(line)
            self.parted = None   # the kept run's trail stays: its run only ever grows
        if self.parted:
            return self.parted
        self.trail.advance(self.line)
        trail.advance(line)
        said, parted = differ(line.kind, self.trail.events, trail.events,
                              (self.line.times[-1], line.times[len(line.moves)]), self.names)
        if parted:
            self.parted = said
        return said


class Trail:
    """The events of a Timeline's branch, replayed in a simulation of its own: (time, text)."""

    def __init__(self, line):
        self.kind, self.params, self.seed = line.kind, dict(line.params), line.seed
        self.moves = []            # the moves replayed so far
        self.sim = line.kind(line.params, line.seed)
        self.sim._events.clear()
        self.events = []

    def follows(self, line):
        """Whether `line` is this run with perhaps more moves after those replayed."""
        return (line.kind is self.kind and line.params == self.params and line.seed == self.seed
                and line.moves[:len(self.moves)] == self.moves)

    def advance(self, line):
        """Replay the moves of `line`'s branch not replayed yet, keeping their events."""
        for move in line.moves[len(self.moves):]:
            apply_move(self.sim, move)
            self.events.extend((event["time"], event["text"]) for event in self.sim._events)
            self.sim._events.clear()
            self.moves.append(move)


def keep(sim_id, line, names="kept"):
    """Keep the whole run of `line` for widget `sim_id` (replacing one kept before); its words.
    `names`: a key of NAMES, what the two pictures are called. ParamError for another."""
    if names not in NAMES:
        raise ParamError("as", f"must be one of {', '.join(NAMES)}")
    old = KEPT.get(sim_id)
    KEPT[sim_id] = Kept(line, names)
    KEPT[sim_id].showing = bool(old and old.showing)
    return (f"Kept this run, to {words(line.kind, line.times[len(line.moves)])}. Now change "
            "anything (a setting, an action, the moment you act) and compare the two runs.")


def compare(sim_id, line, on=True):
    """Show (on) or stop showing the comparison for `sim_id`. Turning it on brings a live run
    that ends before the kept one and has no more reader's actions on to the kept run's end (as
    Play would), so both pictures stand at the same moment. Returns what to say.
    Raises ParamError when no run is kept."""
    kept = KEPT.get(sim_id)
    if kept is None:
        raise ParamError("compare", "there is no kept run: keep one first")
    kept.showing = bool(on)
    if not on:
        return "Stopped comparing; the kept run is still kept."
    end = kept.line.times[len(kept.line.moves)]
    if line.at == len(line.moves) and line.times[line.at] < end and not line.sim.finished:
        for _ in range(MAX_CATCH_UP):
            if line.run(end):
                break
    return f"Comparing the kept run with this one, at {words(line.kind, line.times[line.at])}."


def forget(sim_id):
    """The widget is gone (destroy): its kept run goes too."""
    KEPT.pop(sim_id, None)


def attach(sim_id, line, snapshot):
    """Mark `snapshot` (of `line`, widget `sim_id`) with what the comparison shows; in place."""
    kept = KEPT.get(sim_id)
    if "travel" in snapshot:
        snapshot["travel"]["kept"] = kept is not None
        snapshot["travel"]["comparing"] = bool(kept and kept.showing)
    if kept is None or not kept.showing:
        return snapshot
    moment = kept_moment = line.times[line.at]
    if line.at == len(line.moves) and line.sim.finished:   # nothing more happens in this run
        kept_moment = max(moment, kept.end())
    kept_about, live_about = about(kept.line, line)
    snapshot["compare"] = {"kept": kept.at_moment(kept_moment), "kept_about": kept_about,
                           "kept_moment": words(line.kind, kept_moment),
                           "kept_name": kept.names[0], "live_name": kept.names[1],
                           "live_about": live_about, "moment": words(line.kind, moment),
                           "differ": kept.differ(line)}
    return snapshot


def about(kept, live):
    """What sets each run apart, in words: (kept's, live's). Its settings the other does not
    share ("Claim: Look, then grab"), then its reader's actions if they differ."""
    mine, yours = [], []
    if kept.kind is live.kind:
        left, right = kept.sim.params, live.sim.params
        for spec in kept.kind.PARAMS:
            name = spec["name"]
            if left.get(name) != right.get(name):
                mine.append(f"{spec['label']}: {value_words(spec, left.get(name))}")
                yours.append(f"{spec['label']}: {value_words(spec, right.get(name))}")
    acts = [actions(kept), actions(live)]
    if acts[0] != acts[1]:
        mine.append(acts[0] or "none of your actions")
        yours.append(acts[1] or "none of your actions")
    if not mine:
        return "the same settings and actions", "the same settings and actions"
    return "; ".join(mine), "; ".join(yours)


def actions(line):
    """The reader's actions on a branch in words: "kill worker 2 at 1.5 s, ..." ("" for none)."""
    said = [f"{action_words(line.kind, move[1], move[2])} at {words(line.kind, line.times[at])}"
            for at, move in enumerate(line.moves) if move[0] == ACT]
    if len(said) > 3:
        said = [*said[:3], f"{len(said) - 3:,} more"]
    return ", ".join(said)


def value_words(spec, value):
    """A setting's value as its field shows it: a menu's words, on/off, 10 for 10.0."""
    if spec["type"] == "choice":
        return spec.get("labels", {}).get(value, str(value))
    if spec["type"] == "bool":
        return "on" if value else "off"
    return show(value)


def differ(kind, kept, live, ends, names=NAMES["kept"]):
    """Where two runs' events (lists of (time, text)) part: (words, whether two events differ).
    `ends`: the time (seconds) each run has reached, (kept's, live's), since a run that stops
    earlier has not parted yet; `names`: what the two runs are called (NAMES)."""
    names = tuple(name[0].lower() + name[1:] for name in names)
    for left, right in zip(kept, live):
        if left != right:
            when = words(kind, min(left[0], right[0]))
            if left[0] == right[0]:
                return f"They part at {when}: in {names[0]}, {left[1]}; in {names[1]}, {right[1]}.", True
            return (f"They part at {when}: in {names[0]}, at {words(kind, left[0])}, {left[1]}; "
                    f"in {names[1]}, at {words(kind, right[0])}, {right[1]}."), True
    if len(kept) == len(live):
        return "Nothing differs in what happened, as far as both runs go.", False
    longer = 0 if len(kept) > len(live) else 1
    shorter = 1 - longer
    when, text = (kept, live)[longer][len((kept, live)[shorter])]
    if when <= ends[shorter]:   # (not settled: the shorter run may yet do something then)
        return (f"They part at {words(kind, when)}: in {names[longer]}, {text}; in "
                f"{names[shorter]}, nothing happens then."), False
    return (f"The same events as far as {names[shorter]} goes (to {words(kind, ends[shorter])}); "
            f"{names[longer]} goes on: at {words(kind, when)}, {text}."), False
