"""A link reopens exactly the run it was copied from, for every simulation, finished or not, at
its end or at an earlier moment: over seeded random runs (plays of random length, single steps,
the reader's actions, a step back), the link Copy link writes is read back and replayed as the
page does, and the state reached is the state left.

The page's side, emulated here step for step: link-replay.js's copyLink takes the run's end and
moment from the snapshot's "travel" and the actions from its marks (timetravel.js), permalink.js's
writeLink writes each time as JavaScript's String(number), readLink accepts it if it fits TIME
(read from permalink.js itself), and replay runs to each action's time, acts, runs to the link's
time and seeks the moment (bridge.py's run and seek). A link that rounded its times to the
millisecond reopened a finished payments run one charge attempt short in about half of the runs
(charge attempts happen at sub-millisecond times)."""
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest

from simulations import SIMULATIONS, ParamError
from simulations.engine.timeline_view import PageTimeline
from tests.core.test_links import embeds, js_string

PERMALINK = Path(__file__).resolve().parents[2] / "theme/js/sims/permalink.js"
TIME = re.compile(re.search(r"^const TIME = /(.*)/;$", PERMALINK.read_text(), re.M).group(1))

# The reader's actions each widget offers (its JavaScript `vocabulary`), with arguments to try.
ACTIONS = {
    "live-queue": lambda rng: rng.choice([
        ("kill", {"worker": rng.randint(1, 3)}), ("restart", {"worker": rng.randint(1, 3)}),
        ("stall", {"worker": rng.randint(1, 3), "seconds": rng.choice([1, 3.5])}),
        ("enqueue", {}), ("add_worker", {}), ("burst", {"count": 10}),
        ("set", {"param": "supervisor", "value": rng.random() < 0.5})]),
    "race": lambda rng: (rng.choice(["step_a", "step_b"]), {}),
    "crash-timing": lambda rng: ("crash", {"worker": "A"}),
    "payments": None,
}


def js_number(value):
    """JavaScript's String(number): the shortest digits that read back as `value`, written out
    in full down to 1e-6 (below that with an exponent, as "1e-7")."""
    if isinstance(value, int) or float(value).is_integer():
        return js_string(value)
    if abs(value) < 1e-6:
        mantissa, exponent = repr(value).split("e")
        return f"{mantissa}e-{int(exponent[1:])}"
    return format(Decimal(repr(value)), "f")


def link_time(value):
    """A time as the link writes it, then as readLink reads it back (or refuses the link)."""
    text = js_number(value)
    assert TIME.match(text), f"readLink refuses the time {text!r}"
    return float(text)


def to(line, until):
    """link-replay.js runUntil: the run op until it says it got there."""
    for _ in range(1000):
        if line.run(until):
            return
    raise AssertionError(f"never reached {until} s")


def state(snapshot):
    travel = snapshot.pop("travel")
    snapshot.pop("events"), snapshot.pop("events_dropped")
    return {**snapshot, "moment": travel["moment"], "end": travel["end"], "nth": travel["nth"]}


def changed(params, chapter, cls, presets=None):
    """permalink.js changedParams: the run's settings that differ from the chapter's over the
    simulation's defaults (a preset's settings have none: the preset sets them again), each as
    String(value)."""
    base = {spec["name"]: js_string(spec["default"]) for spec in cls.PARAMS}
    for name in (presets or {}).get("sets", ()):
        base.pop(name, None)
    base.update({key: js_string(value) for key, value in chapter.items()})
    return {key: js_string(value) for key, value in params.items()
            if key not in base or base[key] != js_string(value)}


def settings(name, chapter, seed, rng):
    """The settings a run starts from: the chapter's, or (half the time) with a field or two
    changed by the reader, which the page sends as every field's value (fields.js paramsAfter),
    but for a preset's settings when the field changed picks the preset."""
    cls = SIMULATIONS[name]
    given = {**chapter, "seed": seed}
    if rng.random() < 0.5:
        start = cls(given).params
        fields = [s for s in cls.PARAMS if s["type"] in ("choice", "bool")]
        for spec in rng.sample(fields, k=min(2, len(fields))):
            options = spec["choices"] if spec["type"] == "choice" else [True, False]
            trial = {**start, spec["name"]: rng.choice(options)}
            # Picking a library or its what-if leaves the preset's settings to the preset, but
            # for the chapter's own (fields.js paramsAfter, the snapshot's "presets").
            presets = cls(start).snapshot().get("presets")
            if presets and spec["name"] in presets["by"]:
                for field in presets["sets"]:
                    if field in given:
                        trial[field] = given[field]
                    else:
                        trial.pop(field, None)
            try:
                cls(trial)
            except ParamError:
                continue
            start = trial
        given = start
    return given


def played(name, chapter, seed, rng):
    """A reader's run: plays of random length, steps, actions, maybe to the end, maybe back."""
    line = PageTimeline(SIMULATIONS[name], settings(name, chapter, seed, rng))
    for _ in range(rng.randint(1, 12)):
        move = rng.random()
        if move < 0.4:
            to(line, line.clock.now + rng.choice([0.05, 0.37, 1.3, 4.1]) * rng.random())
        elif move < 0.7:
            line.step()
        elif ACTIONS[name]:
            act, args = ACTIONS[name](rng)
            try:
                line.act(act, **args)
            except ParamError:
                pass
    if rng.random() < 0.4:
        for _ in range(100):                       # Run to the end: a finished run
            if line.sim.finished:
                break
            to(line, line.clock.now + 30)
    if rng.random() < 0.3 and line.at:
        line.seek(rng.randint(0, line.at))         # an earlier moment of the run
    return line


def reopened(name, chapter, seed, snapshot):
    """What the page shows from the link of `snapshot` (copyLink, writeLink, readLink, replay)."""
    travel = snapshot["travel"]
    chapter = {**chapter, "seed": seed}            # the widget's chapter settings hold its seed
    link = changed(snapshot["params"], chapter, SIMULATIONS[name], snapshot.get("presets"))
    line = PageTimeline(SIMULATIONS[name], {**chapter, **link})
    moment = link_time(travel["moment"]) if travel["at"] < travel["length"] else None
    for mark in travel["marks"]:
        if moment is not None and moment < mark["time"]:
            to(line, moment)                       # the moment on the way, as the run passed it
        to(line, link_time(mark["time"]))
        line.act(mark["action"], **mark["args"])
    if moment is not None:
        to(line, moment)
    if travel["length"]:                           # writeLink writes t once the run has moved
        to(line, link_time(travel["end"]))
    if moment is not None:                         # writeLink keeps the moment: readLink, seek
        line.seek(line.position_at(moment, travel["nth"]))
    return line.snapshot()


def cases():
    chapters = {}
    for param in embeds():
        name, chapter = param.values
        chapters.setdefault(name, []).append(chapter)
    return [pytest.param(name, chapters[name], seed, id=f"{name}-{seed}")
            for name in sorted(chapters) for seed in range(25)]


@pytest.mark.parametrize("name, chapters, seed", cases())
def test_a_link_reopens_the_run_it_was_copied_from(name, chapters, seed):
    rng = random.Random(f"{name}-{seed}")
    chapter = dict(rng.choice(chapters))
    chapter.pop("seed", None)
    line = played(name, chapter, seed, rng)
    left = line.snapshot()
    back = reopened(name, chapter, seed, left)
    assert state(back) == state(left)


def test_a_hundred_finished_payments_runs_reopen_finished():
    unfinished = []
    for seed in range(100):
        line = PageTimeline(SIMULATIONS["payments"], {"seed": seed})
        while not line.sim.finished:
            to(line, line.clock.now + 30)          # Run to the end
        left = line.snapshot()
        back = reopened("payments", {}, seed, left)
        if not back["finished"] or state(back) != state(left):
            unfinished.append(seed)
    assert unfinished == []
