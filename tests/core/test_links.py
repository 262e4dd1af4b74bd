"""Every embed of every chapter: the run its "Copy link" writes replays to the same state.

The page's link code is theme/js/sims/permalink.js: writeLink puts each of the snapshot's
`params` in the URL as JavaScript's String(value), readLink accepts a value only if it fits
VALUE, and the widget creates the simulation from the chapter's params with the link's on top,
replays each action at its time and runs on to the link's time (widget.js, boot and replay).
This does the same in Python, so every embed in content/ is covered without a browser
(tests/widgets/test_links.py opens one such link in the real page).
"""
import re
from pathlib import Path

import pytest

from builder.markdown.sim import pair_words, scalar
from simulations import SIMULATIONS

CONTENT = Path(__file__).resolve().parents[2] / "content"
VALUE = re.compile(r"^[\w.+-]{1,40}$", re.ASCII)   # permalink.js, VALUE
FENCE = re.compile(r"^```sim (\S+)(?: id=\S+)?\n(.*?)^```", re.M | re.S)

# One action a reader might take in each simulation, at 1 s (the widget's vocabulary).
ACTIONS = {"live-queue": ("kill", {"worker": "1"}), "race": ("step_b", {}),
           "crash-timing": None, "payments": None}


def embeds():
    found = []
    for path in sorted(CONTENT.glob("*.md")):
        for match in FENCE.finditer(path.read_text(encoding="utf-8")):
            header = match.group(2).split("\n---", 1)[0]
            params, pair = {}, None
            for line in header.splitlines():
                if ":" in line:
                    key, value = line.split(":", 1)
                    if key.strip() == "compare":   # a pair's second run (sim.py): its link too
                        pair = {key: scalar(value) for key, value in pair_words(value)[1].items()}
                    elif key.strip() != "print":   # the printed run's moves (sim_print.py), not a parameter
                        params[key.strip()] = scalar(value)
            for run in [params] + ([{**params, **pair}] if pair else []):
                found.append(pytest.param(match.group(1), run,
                                          id=f"{path.stem}:{match.group(1)}:{len(found)}"))
    return found


def js_string(value):
    """JavaScript's String(value) for a JSON value from a snapshot."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def state(snapshot):
    return {key: value for key, value in snapshot.items() if key not in ("events", "events_dropped")}


def test_the_content_has_embeds_of_every_simulation():
    assert {param.values[0] for param in embeds()} == set(SIMULATIONS)


@pytest.mark.parametrize("name, chapter", embeds())
def test_an_embeds_link_replays_to_the_same_state(name, chapter):
    cls = SIMULATIONS[name]
    seed = chapter.pop("seed", 0)
    sim = cls(chapter, seed=seed)
    done = []
    action = ACTIONS[name]
    if action:
        sim.run(until=1.0)
        done.append((sim.clock.now, action))    # widget.js records the time before the action
        sim.act(action[0], **action[1])
    sim.run(until=3.0)
    seen = sim.snapshot()

    # writeLink: every parameter of the snapshot, as String(value); readLink: VALUE, or refused
    link = {key: js_string(value) for key, value in seen["params"].items()}
    for key, value in link.items():
        assert VALUE.match(value), (key, value)
    replayed = cls({**chapter, "seed": seed, **link})
    for at, (act_name, args) in done:
        replayed.run(until=at)
        replayed.act(act_name, **args)
    replayed.run(until=seen["time"])
    assert state(replayed.snapshot()) == state(seen)
