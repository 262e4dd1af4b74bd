"""What a widget's time controls say, from a Timeline (timeline.py): the bridge's snapshots
carry it, so the page draws the slider, its value text and the reader's marked actions from
Python's words, never from a copy in JavaScript (theme/js/sims/timetravel.js).

    picture(line) -> the simulation's snapshot plus "travel": {
        at, length        the position shown and the branch's length (moves)
        end               the virtual time (seconds) at the end of the branch
        moment, nth       the time (seconds) shown and how many earlier positions share it,
                          which a link records (Timeline.position_at(moment, nth) finds it again)
                          (end, moment and a mark's time are exact, never rounded: a link that
                          rounds them to the millisecond reopens a run short of an event at a
                          sub-millisecond time, as the payments' charge attempts are; only the
                          words round them)
        words             the slider's value text: "4.2 s, of 9.5 s so far" (the race counts
                          statements: "3 statements, of 12 statements so far")
        marks             the reader's actions on this branch, the first MAX_MARKS + 1 (one
                          more than a link holds, so the page sees when a link cannot hold
                          them all): [{at, time (seconds, when taken), action, args, words}]
        acts              how many actions the branch has in all
        kept, comparing   whether a run is kept to compare with, and shown (compare.py)
    }
"""
from .timeline import Timeline

MAX_MARKS = 200  # as many actions as a link holds (theme/js/sims/permalink.js)


class PageTimeline(Timeline):
    """A Timeline whose snapshot() is picture(): what the bridge keeps for each widget."""

    def snapshot(self):
        return picture(self)


def picture(line):
    """The snapshot of Timeline `line` with its "travel" key filled in for the page."""
    snapshot = line.sim.snapshot()   # not line.snapshot(): crash-timing has a "timeline" of its own
    moment, nth = line.moment()
    end = line.times[len(line.moves)]
    marks, acts = [], 0
    for at, move in enumerate(line.moves):
        acts += move[0] == "act"
        if move[0] == "act" and len(marks) <= MAX_MARKS:
            when = line.times[at]
            marks.append({"at": at + 1, "time": when, "action": move[1], "args": move[2],
                          "words": f"{action_words(line.kind, move[1], move[2])} at "
                                   f"{words(line.kind, when)}"})
    snapshot["travel"] = {
        "at": line.at, "length": len(line.moves), "end": end, "moment": moment, "nth": nth,
        "kept": False,   # a run kept to compare with, and whether it is shown (compare.attach)
        "comparing": False,
        "words": f"{words(line.kind, moment)}, of {words(line.kind, end)} so far",
        "marks": marks, "acts": acts}
    return snapshot


def words(kind, when):
    """A moment (seconds) in a reader's words: "4.2 s", or in the simulation's own unit when
    its class sets MOMENT_UNIT = (word, seconds per unit), e.g. the race's "3 statements"."""
    unit = getattr(kind, "MOMENT_UNIT", None)
    if unit:
        count = round(when / unit[1])
        return f"{count:,} {unit[0] if count == 1 else unit[0] + 's'}"
    return f"{in_hundredths(when)} s"


def in_hundredths(when):
    """Seconds as the page's clock and log write them (dom.js seconds(): to the hundredth, no
    trailing zeros), so the slider never says "12.682 s" beside a clock saying "12.68 s"."""
    shown = f"{round(when, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if shown in ("-0", "") else shown


def action_words(kind, name, args):
    """A reader's action in words: "kill worker 2", "lease set to 2"; a simulation whose
    buttons say it otherwise sets ACTION_WORDS = {name: "words with {argument}s"}."""
    said = getattr(kind, "ACTION_WORDS", {}).get(name)
    if said:
        return said.format(**{key: show(value) for key, value in args.items()})
    if name == "set" and {"param", "value"} <= set(args):
        return set_words(kind, args["param"], args["value"])
    return " ".join([name.replace("_", " "), *(f"{key} {value}" for key, value in args.items())])


def show(value):
    """An action's argument as a reader writes it: 10 for 10.0, 3.5, a name as it is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def set_words(kind, param, value):
    """A setting changed mid-run, in its field's words: "Lease (s) set to 2", "Restart dead
    workers turned on" (never "supervisor set to True")."""
    spec = next((spec for spec in kind.PARAMS if spec["name"] == param), None)
    if spec is None:
        return f"{param} set to {show(value)}"
    if spec["type"] == "bool":
        on = value if isinstance(value, bool) else str(value).lower() in ("true", "1", "on", "yes")
        return f"{spec['label']} turned {'on' if on else 'off'}"
    return f"{spec['label']} set to {show(value)}"


def branched(line, reply):
    """What the page says when an action started a new branch (Timeline.act's reply), or ""."""
    if not reply["branched"]:
        return ""
    dropped = reply["dropped"]
    return (f"A new branch: you acted at {words(line.kind, line.times[line.at - 1])}, before the "
            f"end of the run, so the run goes on from there and what came after it in the old "
            f"run ({dropped:,} {'step or action' if dropped == 1 else 'steps and actions'}) is gone.")
