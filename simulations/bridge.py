"""The page's one door into the simulations: JSON text in, JSON text out, never an exception.

The Pyodide worker calls handle(message) once per animation frame (or per click). A message
is a JSON object with an "op" and, for most ops, the "id" the page chose for a simulation:

    {"op": "list"}                                        -> {"ok": true, "simulations": {name: PARAMS}}
    {"op": "params", "sim": "race"}                       -> {"ok": true, "params": PARAMS}
    {"op": "create", "id": "w1", "sim": "race", "params": {...}, "seed": 3} -> snapshot
    {"op": "step", "id": "w1", "count": 5}                -> snapshot after up to 5 steps
    {"op": "next", "id": "w1"}                            -> snapshot at the next step that logs an event
    {"op": "run", "id": "w1", "until": 30}  (or "seconds": 2, from now)     -> snapshot
    {"op": "act", "id": "w1", "name": "kill", "args": {"worker": 2}}        -> snapshot
    {"op": "snapshot", "id": "w1"}                        -> snapshot
    {"op": "back", "id": "w1"}                            -> snapshot one move earlier
    {"op": "seek", "id": "w1", "at": 12}  (or "time": 4.2, "nth": 0)        -> snapshot there
    {"op": "keep", "id": "w1"} -> {"kept": words, "snapshot": ...}: keep the whole run to compare
    {"op": "compare", "id": "w1", "on": true} -> {"compare": words, "snapshot": ...}: while on, every
        snapshot of w1 carries "compare", the kept run at the same moment (engine/compare.py); the
        kept run outlives a new run (create, Reset) under the same id
    {"op": "destroy", "id": "w1"}                         -> {"ok": true}
    {"op": "judge", "exercise": "shop-handlers", "trace": {...}, "seed": 7}  -> {"ok": true, "result": {...}}
        the verdict on a trace of the reader's code, which ran in the reader's own worker
        (simulations/judge/reader.py): its effects replayed in the judge's world
        (simulations/judge/). No reader's code runs here. The reader's own mistakes are in
        the result ("error"), not a failed reply

A reply carrying a snapshot is {"ok": true, "id": ..., "snapshot": {...}}; step adds
"steps" (how many it took: fewer once the simulation is finished) and run adds "reached"
(false when the per-call cap stopped it early: send it again to go on); act adds "branch" (what to
say when acting at an earlier moment started a new branch, else ""). Each id holds a Timeline
(timeline.py), so every simulation can step back and seek; its snapshots carry "travel"
(timeline_view.py). Any "req" in the message is
echoed back, so the page can match replies to requests. A failure is
{"ok": false, "error": {"type": ..., "message": ..., "field": ... (for bad input)}}; a
ParamError also carries "problems": [{"field", "message"}], every bad parameter at once.
"""
import json

from . import SIMULATIONS
from .engine.params import ParamError, seconds, show_number
from .engine import compare as kept_runs
from .engine.timeline_view import PageTimeline, branched

MAX_LIVE = 64          # simulations one page may hold at once (the build refuses a page with more)
MAX_STEPS_PER_CALL = 200
MAX_QUIET_STEPS = 1200   # "next": a live queue's 120 s (0.1 s ticks) with nothing logged, at most
MAX_MESSAGE = 4_000_000  # characters: a judge's trace of an honest run is well under 1 MB

live = {}              # id -> Timeline of a simulation


def handle(message):
    """Answer one JSON message with one JSON reply. Never raises."""
    request = {}
    try:
        if not isinstance(message, str) or len(message) > MAX_MESSAGE:
            raise ParamError("message", f"must be JSON text of at most {MAX_MESSAGE:,} characters")
        try:
            request = json.loads(message, parse_constant=_not_json)
        except ValueError as error:
            raise ParamError("message", f"is not JSON: {error}") from None
        except RecursionError:
            raise ParamError("message", "is nested too deeply") from None
        if not isinstance(request, dict):
            raise ParamError("message", "must be a JSON object")
        reply = {"ok": True, **_answer(request)}
    except ParamError as error:
        reply = {"ok": False, "error": {"type": "ParamError", "field": error.field,
                                        "message": str(error), "words": error.words,
                                        "problems": [{"field": problem.field,
                                                      "message": str(problem),
                                                      "words": problem.words}
                                                     for problem in error.problems]}}
    except BaseException as error:  # a bug (or SystemExit, KeyboardInterrupt...): report it to
        import traceback            # the page rather than end its worker; imported only then

        reply = {"ok": False, "error": {"type": type(error).__name__, "message": str(error),
                                        "words": f"the simulation failed inside ({type(error).__name__})",
                                        "trace": traceback.format_exc(limit=5)}}
    if isinstance(request, dict) and "req" in request:
        reply["req"] = request["req"]
    try:
        return json.dumps(reply, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        return json.dumps({"ok": False, "error": {"type": type(error).__name__,
                                                  "message": f"reply is not JSON: {error}"}},
                          allow_nan=False)


def warm(name):
    """Import, ahead of its first use, what `name` needs: "checkpoint" (a timeline's first
    checkpoint, taken at its 16th move), "judge" (the judge op), or a simulation's name. The page's
    worker calls it once the first reply is out (python-worker.js), since the page's Python
    compiles each module from source on its first import. Unknown names are ignored; never raises."""
    try:
        if name in SIMULATIONS:
            SIMULATIONS[name]   # the lookup imports its module
        elif name == "checkpoint":
            from .engine import checkpoint  # noqa: F401
        elif name == "judge":
            from . import judge  # noqa: F401
    except Exception:   # the call that needs it reports the failure, as it would have
        pass


def _not_json(word):
    """json.loads takes NaN, Infinity and -Infinity, which are not JSON (RFC 8259, section 6)."""
    raise ValueError(f"{word} is not a JSON value")


def _answer(request):
    op = request.get("op")
    if op == "list":
        return {"simulations": {name: list(cls.PARAMS) for name, cls in SIMULATIONS.items()}}
    if op == "params":
        return {"params": list(_class(request).PARAMS)}
    if op == "create":
        return _create(request)
    if op in OPS or op in TRAVEL:
        sim_id = _id(request)
        if sim_id not in live:
            raise ParamError("id", f"no simulation {sim_id!r}; create it first")
        reply = {"id": sim_id, **(OPS.get(op) or TRAVEL[op])(live[sim_id], request)}
        return _compared(sim_id, reply)
    if op == "destroy":
        live.pop(_id(request), None)
        kept_runs.forget(_id(request))
        return {}
    if op == "judge":
        return _judge(request)
    raise ParamError("op", f"unknown op {op!r}; ops are list, params, create, step, next, run, act, "
                           f"snapshot, destroy, judge")


def _class(request):
    name = request.get("sim")
    if name not in SIMULATIONS:
        raise ParamError("sim", f"unknown simulation {name!r}; known: {', '.join(SIMULATIONS)}")
    return SIMULATIONS[name]


def _id(request):
    sim_id = request.get("id")
    if not isinstance(sim_id, str) or not sim_id or len(sim_id) > 100:
        raise ParamError("id", "must be a non-empty string of at most 100 characters")
    return sim_id


def _create(request):
    sim_id, cls = _id(request), _class(request)
    if sim_id not in live and len(live) >= MAX_LIVE:
        raise ParamError("id", f"at most {MAX_LIVE} simulations at once; destroy one first")
    params = request.get("params") or {}
    if not isinstance(params, dict):
        raise ParamError("params", "must be a JSON object")
    live[sim_id] = PageTimeline(cls, params, request.get("seed", 0))
    return _compared(sim_id, {"id": sim_id, "snapshot": live[sim_id].snapshot()})


def _compared(sim_id, reply):
    """A reply whose snapshot shows the kept run beside it while the reader compares."""
    if "snapshot" in reply:
        kept_runs.attach(sim_id, live[sim_id], reply["snapshot"])
    return reply


def _keep(line, request):
    said = kept_runs.keep(request["id"], line, request.get("as", "kept"))
    return {"kept": said, "snapshot": line.snapshot()}


def _compare(line, request):
    on = request.get("on", True)
    if not isinstance(on, bool):
        raise ParamError("on", "must be true or false")
    said = kept_runs.compare(request["id"], line, on)
    return {"compare": said, "snapshot": line.snapshot()}


def _step(sim, request):
    count = request.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_STEPS_PER_CALL:
        raise ParamError("count", f"must be a whole number from 1 to {MAX_STEPS_PER_CALL}")
    taken = 0
    while taken < count and sim.step():
        taken += 1
    return {"snapshot": sim.snapshot(), "steps": taken}


def _next_event(line, request):
    """Step on to the next step that logs an event (the simulation's own log says what one is: a
    claim, an email, an ack, a lease running out), at most MAX_QUIET_STEPS steps, so a quiet
    run (a live queue waiting on no job) cannot hold the page. Returns the snapshot, "steps"
    taken and "found" (false if none came within the limit, or the run ended first)."""
    taken = found = 0
    start = line.clock.now
    while taken < MAX_QUIET_STEPS and not found:
        before = line.sim.logged()
        if not line.step():
            break
        taken += 1
        found = line.sim.logged() > before
    reply = {"snapshot": line.snapshot(), "steps": taken, "found": bool(found)}
    if not found:   # said on the widget's message line
        reply["words"] = (f"Nothing happened from {show_number(start)} s to "
                          f"{show_number(line.clock.now)} s; press it again to look further."
                          if taken else line.sim.still())
    return reply


def _run(sim, request):
    if "seconds" in request:
        try:
            ahead = seconds("seconds", request["seconds"])
        except ParamError:
            ahead = -1
        if ahead < 0 or isinstance(request["seconds"], str):
            raise ParamError("seconds", "must be a number of seconds from 0")
        until = sim.clock.now + ahead
    else:
        until = seconds("until", request.get("until"))
    reached = sim.run(until)
    return {"snapshot": sim.snapshot(), "reached": reached}


def _act(sim, request):
    args = request.get("args") or {}
    if not isinstance(args, dict):
        raise ParamError("args", "must be a JSON object")
    if not all(arg is None or isinstance(arg, (str, int, float)) for arg in args.values()):
        raise ParamError("args", "each argument must be a number, text, true, false or null")
    args = _with_defaults(sim.sim, request.get("name"), args)
    if request.get("name") == "reset":   # a new run: its timeline starts again too
        live[request["id"]] = sim = PageTimeline(sim.kind, sim.params, sim.seed)
        return {"snapshot": sim.snapshot(), "branch": ""}
    said = branched(sim, sim.act(request.get("name"), **args))
    return {"snapshot": sim.snapshot(), "branch": said}


def _with_defaults(simulation, name, args):
    """args with the action's defaults filled in, so the timeline records every argument (its
    words name each one). Unknown actions and bad arguments are left for act() to refuse."""
    import inspect

    method = getattr(simulation, f"act_{name}", None) if isinstance(name, str) else None
    try:
        bound = inspect.signature(method).bind(**args)
    except (TypeError, ValueError):
        return args
    bound.apply_defaults()
    return dict(bound.arguments)


def _seek(line, request):
    """Go to position "at" of the branch, or to the moment ("time" in seconds, "nth")."""
    if "time" in request:
        nth = request.get("nth", 0)
        if isinstance(nth, bool) or not isinstance(nth, int) or nth < 0:
            raise ParamError("nth", "must be a whole number from 0")
        at = line.position_at(seconds("time", request["time"]), nth)
    else:
        at = request.get("at")
        if isinstance(at, bool) or not isinstance(at, int):
            raise ParamError("at", "must be a whole number: a position of the run")
    line.seek(at)
    return {"snapshot": line.snapshot()}


TRAVEL = {"seek": _seek, "back": lambda line, request: (line.back(), {"snapshot": line.snapshot()})[1],
          "keep": _keep, "compare": _compare}


OPS = {"step": _step, "next": _next_event, "run": _run, "act": _act,
       "snapshot": lambda sim, request: {"snapshot": sim.snapshot()}}


def _judge(request):
    """The judge op: bad input (an unknown exercise, a seed that is not a whole number) is a
    ParamError naming the field; a trace is data from the reader's worker, judged (a trace that
    cannot be read fails the audit, in words)."""
    from .judge import RECORDERS, verdict   # on first use: pages without an exercise skip it
    exercise, trace, seed = request.get("exercise"), request.get("trace"), request.get("seed", 0)
    if exercise not in RECORDERS:
        raise ParamError("exercise", f"unknown exercise {exercise!r}; there are {', '.join(RECORDERS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= 2**31 - 1:
        raise ParamError("seed", "must be a whole number from 0 to 2,147,483,647")
    if "code" in request:
        raise ParamError("code", "the reader's code runs in a worker of its own, never here: "
                                 "send its trace")
    return {"result": verdict(exercise, trace, seed)}
