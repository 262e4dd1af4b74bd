"""Where a page's first paint goes, read from Chromium's own trace (bench/bench_paint.py uses it).

One cold load is recorded with Chromium's tracing (the categories DevTools' Performance panel
records) and cut at the first contentful paint. The renderer's main thread between navigation
start and that paint is split by what it did, each event counted once (its own time, not its
children's): parse HTML, parse CSS, style (recalculation), layout, scripts (compile and run),
paint (pre-paint, paint, layerize, commit), other work, and idle (the thread waiting, for the
network as a rule). Beside that, when each request the paint had to wait for arrived.

`long_tasks` lists, for a page loaded with the CPU slowed (as Lighthouse's phone does), the main
thread's tasks over 50 ms (what Total Blocking Time counts) with what took their time: each
script function (name, file:line) and the style and layout work in them.

Event names: https://chromium.googlesource.com/chromium/src/+/main/third_party/blink/renderer/
core/inspector/inspector_trace_events.h (and DevTools' "Timeline event reference",
https://developer.chrome.com/docs/devtools/performance/timeline-reference).
"""
from __future__ import annotations

import collections
import json

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing",
              "loading", "toplevel", "v8.execute", "blink"]
KINDS = {
    "parse HTML": {"ParseHTML"},
    "parse CSS": {"ParseAuthorStyleSheet"},
    "style": {"UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation"},
    "layout": {"Layout", "UpdateLayout"},
    "scripts": {"EvaluateScript", "v8.compile", "v8.compileModule", "v8.evaluateModule", "FunctionCall",
                "v8.run", "V8.Execute", "RunMicrotasks", "TimerFire", "FireAnimationFrame", "EventDispatch",
                "v8.produceModuleCache", "v8.produceCache", "CompileScript", "CompileModule", "v8.parseOnBackground"},
    "paint": {"PrePaint", "Paint", "PaintImage", "Layerize", "UpdateLayer", "UpdateLayerTree", "Commit",
              "CompositeLayers", "RasterTask", "PaintSetup"},
}
KIND_OF = {name: kind for kind, names in KINDS.items() for name in names}
COLUMNS = ["parse HTML", "parse CSS", "style", "layout", "scripts", "paint", "other", "idle"]
TASK = {"RunTask", "ThreadControllerImpl::RunTask", "ThreadPool_RunTask"}


def record(browser, url: str, viewport: dict, cpu_slowdown: float = 1) -> list[dict]:
    """The trace events of one cold load of `url` (a fresh context), 1.5 s after its load event."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    if cpu_slowdown != 1:
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
    browser.start_tracing(page=page, categories=CATEGORIES)
    page.goto(url, wait_until="load")
    page.wait_for_timeout(1500)
    events = json.loads(browser.stop_tracing())
    context.close()
    return events.get("traceEvents", events) if isinstance(events, dict) else events


def _main_thread(events: list[dict], url: str) -> tuple[int, int, float, float | None]:
    """(pid, tid, navigation start, first contentful paint) of the page loaded from `url`, in µs."""
    starts = [e for e in events if e.get("name") == "navigationStart"
              and (e.get("args", {}).get("data", {}).get("documentLoaderURL") or "") == url]
    if not starts:
        raise RuntimeError(f"no navigationStart for {url} in the trace")
    start = starts[-1]
    frame = start["args"].get("frame")
    paints = [e for e in events if e.get("name") == "firstContentfulPaint" and e.get("pid") == start["pid"]
              and (frame is None or e.get("args", {}).get("frame") == frame)]
    return start["pid"], start["tid"], start["ts"], (paints[0]["ts"] if paints else None)


def _self_times(events: list[dict], start: float, end: float) -> dict[str, float]:
    """Each complete event's own time (µs) within [start, end], by KINDS (tasks themselves: other)."""
    spans = sorted((e for e in events if e.get("ph") == "X" and "dur" in e and e["ts"] < end
                    and e["ts"] + e["dur"] > start), key=lambda e: (e["ts"], -e["dur"]))
    totals: dict[str, float] = collections.defaultdict(float)
    stack: list[list] = []   # [end, kind, own time so far]

    def close(until: float) -> None:
        while stack and stack[-1][0] <= until:
            _, kind, own = stack.pop()
            totals[kind] += own

    for event in spans:
        begin, finish = max(event["ts"], start), min(event["ts"] + event["dur"], end)
        close(begin)
        if stack:
            stack[-1][2] -= finish - begin     # the parent's own time excludes this child
        kind = KIND_OF.get(event["name"], "other")
        if stack and kind == "other" and stack[-1][1] != "other":
            kind = stack[-1][1]                # an unnamed part of a script counts as the script
        stack.append([finish, kind, finish - begin])
    close(float("inf"))
    busy = sum(totals.values())
    totals["idle"] = max(0.0, (end - start) - busy)
    return totals


def _arrivals(events: list[dict], pid: int, start: float, end: float) -> list[tuple[str, float, str]]:
    """(file name, ms after navigation start it finished, its render-blocking status) of each
    request sent before `end` by the page's renderer."""
    sent = {}
    for e in events:
        data = e.get("args", {}).get("data", {})
        if e.get("name") == "ResourceSendRequest" and e.get("pid") == pid and e["ts"] <= end:
            sent[data.get("requestId")] = (data.get("url", "").split("/")[-1].split("?")[0],
                                           data.get("renderBlocking", ""))
    done = {}
    for e in events:
        data = e.get("args", {}).get("data", {})
        if e.get("name") == "ResourceFinish" and data.get("requestId") in sent:
            done[data["requestId"]] = (data.get("finishTime", 0) * 1e6 or e["ts"])
    out = []
    for request, (name, blocking) in sent.items():
        finished = done.get(request)
        out.append((name, (finished - start) / 1000 if finished else float("nan"), blocking))
    return sorted(out, key=lambda item: item[1])


def breakdown(events: list[dict], url: str) -> dict:
    """{"fcp": ms, "kinds": {kind: ms}, "requests": [(file, ms, blocking)]} for the load of `url`."""
    pid, tid, start, paint = _main_thread(events, url)
    if paint is None:
        return {"fcp": None, "kinds": {}, "requests": []}
    main = [e for e in events if e.get("pid") == pid and e.get("tid") == tid]
    kinds = _self_times(main, start, paint)
    return {"fcp": (paint - start) / 1000, "kinds": {k: kinds.get(k, 0.0) / 1000 for k in COLUMNS},
            "requests": _arrivals(events, pid, start, paint)}


def long_tasks(events: list[dict], url: str, over_ms: float = 50, top: int = 6) -> list[dict]:
    """The main thread's tasks longer than `over_ms` after navigation start, each with its biggest
    parts: [{"at": ms, "ms": ms, "parts": [(what, ms)]}]."""
    pid, tid, start, _ = _main_thread(events, url)
    main = [e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and "dur" in e]
    tasks = []
    for event in sorted((e for e in main if e["name"] in TASK and e["ts"] >= start), key=lambda e: (e["ts"], -e["dur"])):
        if tasks and event["ts"] < tasks[-1]["ts"] + tasks[-1]["dur"]:
            continue   # a task inside a task (RunTask around ThreadControllerImpl::RunTask): counted once
        tasks.append(event)
    tasks = [task for task in tasks if task["dur"] > over_ms * 1000]
    found = []
    for task in tasks:
        inside = [e for e in main if e is not task and task["ts"] <= e["ts"] < task["ts"] + task["dur"]]
        parts: dict[str, float] = collections.defaultdict(float)
        for name, own in _own_by_label(inside).items():
            parts[name] += own
        found.append({"at": (task["ts"] - start) / 1000, "ms": task["dur"] / 1000,
                      "parts": sorted(((k, v / 1000) for k, v in parts.items()), key=lambda p: -p[1])[:top]})
    return found


def _label(event: dict) -> str:
    data = event.get("args", {}).get("data", {}) or {}
    name = event["name"]
    where = (data.get("url") or "").split("/")[-1].split("?")[0]
    if name == "FunctionCall" or name == "EvaluateScript" or name.startswith("v8."):
        function = data.get("functionName") or ""
        line = data.get("lineNumber")
        return f"script {function or name} {where}{f':{line}' if line is not None else ''}".strip()
    return KIND_OF.get(name, name) if name not in TASK else "task"


def _own_by_label(events: list[dict]) -> dict[str, float]:
    """Own time (µs) of each event, summed by _label; an unnamed child counts as its parent."""
    spans = sorted(events, key=lambda e: (e["ts"], -e["dur"]))
    totals: dict[str, float] = collections.defaultdict(float)
    stack: list[list] = []

    def close(until: float) -> None:
        while stack and stack[-1][0] <= until:
            _, label, own = stack.pop()
            totals[label] += own

    for event in spans:
        close(event["ts"])
        if stack:
            stack[-1][2] -= event["dur"]
        label = _label(event)
        if stack and event["name"] not in KIND_OF and not label.startswith("script"):
            label = stack[-1][1]
        stack.append([event["ts"] + event["dur"], label, event["dur"]])
    close(float("inf"))
    return totals
