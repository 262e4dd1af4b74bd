"""A simulation's chapter scenario run to its end at build time, for the printed page.

A printed widget can only show its starting state. So the build runs each embed as the chapter
sets it up (its parameters and seed, no reader's actions) until it finishes, or for at most
HORIZON virtual seconds, and writes the outcome, the jobs by status and the run's events under the
embed: folded on a chapter's page (it gives the ending away; printed open), shown on guide.html. The
simulations are deterministic for a seed, so this is exactly what the reader's Play shows.
"""
from __future__ import annotations

import html
import inspect
import re
from collections import Counter

from builder.markdown.env import report

HORIZON = 60.0        # virtual seconds: a scenario that never finishes (jobs keep arriving) stops here
MAX_CALLS = 200       # run() calls, each bounded by the simulation's MAX_RUN_STEPS
EVENTS_SHOWN = 12     # the first and last half of a longer log are printed, with a gap between
STATES = ("queued", "running", "done", "dead")
ACTION = re.compile(r"^(?P<time>\d{1,6}(?:\.\d{1,3})?):(?P<name>[a-z_]+)(?P<args>(?::[\w.+-]{1,20})*)$")


def parse_actions(text: str) -> list:
    """`1:kill:2,3:enqueue` -> [(1.0, "kill", ["2"]), (3.0, "enqueue", [])].
    Raises ValueError with the reason for a part that is not time:action:arguments, or out of order."""
    actions, last = [], 0.0
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        match = ACTION.match(part)
        if not match:
            raise ValueError(f"{part!r} is not time:action:arguments (e.g. 1:kill:2, seconds first)")
        at = float(match["time"])
        if at < last:
            raise ValueError(f"{part!r} comes before the action listed ahead of it; list them in time order")
        last = at
        actions.append((at, match["name"], [a for a in match["args"].split(":") if a]))
    return actions


def act(sim, name: str, args: list) -> None:
    """The reader's action `name` on `sim`, its arguments (text) given in the order of act_<name>'s
    parameters. Raises what the simulation raises (ParamError)."""
    method = getattr(sim, f"act_{name}", None)
    names = [p for p in inspect.signature(method).parameters] if method else []
    sim.act(name, **dict(zip(names, args)))


def moves_text(actions: list) -> str:
    """'a burst of 10 at 0 s, add worker at 0 s' -> for the printed title."""
    return ", ".join(f"{name.replace('_', ' ')}{''.join(' ' + a for a in args)} at {_seconds(at)}"
                     for at, name, args in actions)


def run_to_end(env: dict, line: int | None, name: str, cls, params: dict, seed: int,
               actions: list = ()) -> dict | None:
    """{time, outcome, finished, jobs: {status: count}, events: [{time, text}], events_total, moves},
    or None (reported at `line`) when the simulation fails on the way. `actions` (parse_actions)
    are made at their times first."""
    try:
        sim = cls(params, seed=seed)
        events = list(sim.snapshot().get("events", []))
        for at, action, args in actions:
            for _ in range(MAX_CALLS):
                if sim.run(until=at):
                    break
            else:
                report(env, line, f"sim {name}: print: the run does not reach {_seconds(at)}")
                return None
            events += sim.snapshot().get("events", [])
            act(sim, action, args)
        for _ in range(MAX_CALLS):
            reached = sim.run(until=HORIZON)
            snapshot = sim.snapshot()
            events += snapshot.get("events", [])
            if reached:
                break
    except Exception as error:   # a simulation's bug must not reach a reader as a traceback
        report(env, line, f"sim {name}: running it to the end for print failed: {type(error).__name__}: {error}")
        return None
    counts = Counter(job.get("status") for job in snapshot.get("jobs", []))
    total = snapshot.get("stats", {}).get("jobs_total") if isinstance(snapshot.get("stats"), dict) else None
    return {"time": float(snapshot["time"]), "outcome": str(snapshot["outcome"]),
            "finished": bool(snapshot["finished"]), "jobs": {s: counts[s] for s in STATES if counts[s]},
            "jobs_partial": bool(total and total > sum(counts.values())),
            "events": events, "events_total": len(events) + int(snapshot.get("events_dropped", 0) or 0),
            "moves": moves_text(actions)}


def _seconds(value: float) -> str:
    return f"{round(float(value), 2):g} s"


def print_outcome(meta: dict, guide: bool = False) -> str:
    """The HTML block of an embed's run (empty when there is none)."""
    ending = meta.get("ending")
    if not ending:
        return ""
    number = f" {meta['number']}" if meta.get("number") else ""
    until = "to its end" if ending["finished"] else f"for {_seconds(ending['time'])}"
    jobs = ", ".join(f"{count} {status}" for status, count in ending["jobs"].items()) or "none"
    if ending["jobs_partial"]:
        jobs += " (of the jobs shown in the table)"
    events = ending["events"]
    shown = events if len(events) <= EVENTS_SHOWN else events[:EVENTS_SHOWN // 2] + [None] + events[-EVENTS_SHOWN // 2:]
    items = []
    for event in shown:
        if event is None:
            items.append(f'<li class="sim-print-gap">… {len(events) - EVENTS_SHOWN} more events …</li>')
        else:
            items.append(f'<li><span class="sim-print-time">{_seconds(event["time"])}</span> '
                         f'{html.escape(str(event["text"]))}</li>')
    title = f"Simulation{number} as the chapter sets it up, run {until}"
    if ending.get("moves"):
        title += f", after the reader's moves: {ending['moves']}"
    if guide:
        opening, closing = (f'<div class="sim-print sim-print-guide">\n<p class="sim-print-title">{title}</p>\n',
                            "</div>\n")
    else:   # beside the live widget: folded (it tells the ending), printed open
        opening, closing = (f'<details class="sim-print sim-print-chapter">\n'
                            f'<summary class="sim-print-title">{title}</summary>\n', "</details>\n")
    return (opening +
            f'<p class="sim-print-outcome"><strong>Outcome at {_seconds(ending["time"])}:</strong> '
            f'{html.escape(ending["outcome"])}</p>\n'
            f'<p class="sim-print-jobs">Jobs at the end: {html.escape(jobs)}.</p>\n'
            + (f'<ol class="sim-print-events" aria-label="Events of simulation{number}">\n' + "\n".join(items) + "\n</ol>\n"
               if items else "")
            + closing)
