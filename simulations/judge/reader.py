"""The reader's worker's one door: the reader's code in, a trace of what it asked for out.

The page starts a fresh worker, with a Python of its own, for each Run of a judge widget
(theme/js/sims/judge.js, python-worker.js with entry "reader") and throws it away after one
call. This module is all that worker answers:

    {"op": "record", "exercise": "payments-handler", "code": "...", "seed": 3}
        -> {"ok": true, "trace": {...}}         (simulations/judge.py's record())
    anything else, or a failure -> {"ok": false, "error": {"type", "message"}}

Nothing here decides a verdict: the trace goes to the simulations' worker (bridge.py's judge
op), which replays it in a world of its own. So the reply is plain data, and anything the
reader's code does to this interpreter can change only the effects the trace asks for.
"""
import json

MAX_CODE = 100_000   # characters of the reader's code
MAX_REPLY = 3_000_000   # characters of a trace: under the bridge's MAX_MESSAGE, far above an honest run's


def warm():
    """Run each exercise's fix once, small, before any code of the reader's arrives: the first
    run in a fresh Python pays for every path's first use (SQLite's statements, lazily imported
    modules), and each Run has a fresh Python. Never raises."""
    from .exercises import EXERCISES, record

    small = {"shop-handlers": {"customers": 1}, "race-claim": {"jobs": 1},
             "payments-handler": {"orders": 1}}
    for name, exercise in EXERCISES.items():
        try:
            json.dumps(record(name, exercise["fixed"], 0, **small[name]))
        except Exception:   # the Run that needs it says what is wrong
            pass


def handle(message):
    """Answer one JSON message with JSON text. Never raises, not even for a BaseException
    (SystemExit, KeyboardInterrupt, the judge's own OutOfSteps) raised in the reader's code."""
    try:
        request = json.loads(message)
        if not isinstance(request, dict) or request.get("op") != "record":
            raise ValueError("the reader's worker only records: send {op: 'record', ...}")
        code, seed = request.get("code"), request.get("seed", 0)
        if not isinstance(code, str) or len(code) > MAX_CODE:
            raise ValueError(f"code must be text of at most {MAX_CODE:,} characters")
        from .exercises import record

        reply = json.dumps({"ok": True, "trace": record(request.get("exercise"), code, seed)},
                           allow_nan=False)
        if len(reply) > MAX_REPLY:
            raise ValueError(f"your code asked for more than the judge reads "
                             f"({len(reply):,} characters of effects)")
        return reply
    except BaseException as error:   # noqa: B036: the reader's code may raise any of them
        return json.dumps({"ok": False, "error": {"type": type(error).__name__,
                                                  "message": str(error)[:500]}})
