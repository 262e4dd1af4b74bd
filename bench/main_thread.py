"""Where a page's main thread spends its time, by cause, from Chromium's own trace (the events the
DevTools Performance panel draws): bench_widgets.py's "rows" section records one while the
largest live queue plays and prints what `breakdown()` makes of it.

A trace event on the renderer's main thread (CrRendererMain) covers its children: a task runs a
script that fires an animation frame that... Each event's *self* time (its duration less its
children's) is counted once, under the cause its name stands for (CAUSES). With the category
disabled-by-default-devtools.timeline.invalidationTracking the trace also says which change made
the browser recompute style or layout (an attribute, a class, a text), and on which element:
`invalidations()` counts them by reason and element.
"""
from __future__ import annotations

import collections
import json

CATEGORIES = [
    "devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
    "v8", "v8.execute", "blink", "blink.user_timing", "cc", "gpu", "toplevel", "latencyInfo",
]
INVALIDATIONS = CATEGORIES + ["disabled-by-default-devtools.timeline.invalidationTracking"]

# What the main thread was doing, from a trace event's name: the first cause one of whose words
# is in the name (so "PrePaint" is pre-paint before "Paint" is paint); anything else is "other".
CAUSES = (
    ("garbage collection", ("GC", "Sweep", "Marking")),
    ("accessibility", ("AXObject", "Accessibility", "AXTree")),
    ("style", ("UpdateLayoutTree", "RecalculateStyles", "recalcStyle", "updateStyle", "StyleEngine",
               "StyleRecalc", "ParseAuthorStyleSheet", "Invalidat")),
    ("layout and text shaping", ("Layout", "performLayout", "InlineNode", "Shape", "SvgText", "SVGText")),
    ("pre-paint and compositing", ("PrePaint", "CompositingInputs", "Layerize", "PaintArtifactCompositor",
                                   "UpdateLayerTree", "Compositing", "Commit", "CompositeLayers", "LayerTreeHost",
                                   "ProxyMain", "ScheduleAnimation", "BeginMainFrame")),
    ("paint", ("Paint",)),
    ("hit testing", ("HitTest",)),
    ("script", ("FunctionCall", "EvaluateScript", "RunMicrotasks", "V8.", "v8.", "TimerFire", "FireAnimationFrame",
                "EventDispatch", "ResizeObserver", "IntersectionObserver", "MessagePort", "Deserialize")),
    ("tasks (the rest of a task: scheduling, messages)", ("RunTask", "ThreadController", "MessageLoop",
                                                          "SequenceManager", "TaskAnnotator")),
)


def cause_of(name: str) -> str:
    for cause, words in CAUSES:
        if any(word in name for word in words):
            return cause
    return "other"


def record(browser, page, act, categories=CATEGORIES) -> dict:
    """Trace `page` while `act()` runs; returns the trace (a dict with "traceEvents")."""
    browser.start_tracing(page=page, categories=categories)
    try:
        act()
    finally:
        data = browser.stop_tracing()
    return json.loads(data)


def main_thread(events: list) -> tuple:
    """(pid, tid) of the busiest renderer main thread in the trace."""
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    busy = collections.Counter()
    for e in events:
        if (e.get("pid"), e.get("tid")) in mains and e.get("ph") == "X":
            busy[(e["pid"], e["tid"])] += e.get("dur", 0)
    return busy.most_common(1)[0][0] if busy else (None, None)


def self_times(events: list, thread: tuple) -> collections.Counter:
    """{event name: self time (microseconds)} on `thread`, from its complete ("X") events and
    begin/end pairs, each nested event's time taken out of its parent's."""
    spans = []
    opened = collections.defaultdict(list)
    for e in events:
        if (e.get("pid"), e.get("tid")) != thread:
            continue
        if e.get("ph") == "X" and "dur" in e:
            spans.append((e["ts"], e["ts"] + e["dur"], e["name"]))
        elif e.get("ph") == "B":
            opened[e["name"]].append(e["ts"])
        elif e.get("ph") == "E" and opened[e.get("name")]:
            spans.append((opened[e["name"]].pop(), e["ts"], e["name"]))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    spent = collections.Counter()
    stack = []   # [start, end, name, children's time]
    for start, end, name in spans:
        while stack and stack[-1][1] <= start:
            done = stack.pop()
            spent[done[2]] += (done[1] - done[0]) - done[3]
        if stack:
            end = min(end, stack[-1][1])
            stack[-1][3] += end - start
        stack.append([start, end, name, 0])
    for done in stack:
        spent[done[2]] += (done[1] - done[0]) - done[3]
    return spent


def breakdown(trace: dict, seconds: float) -> dict:
    """What the trace's main thread did: {"causes": [(cause, s)], "names": [(name, s)] (the top
    15 events by self time), "busy": s, "seconds": s, "counts": {event: how many}, "style
    elements": mean elements a style recalculation touched, "layout objects": mean objects a
    layout laid out (of how many)}."""
    events = trace["traceEvents"]
    thread = main_thread(events)
    spent = self_times(events, thread)
    causes = collections.Counter()
    for name, micro in spent.items():
        causes[cause_of(name)] += micro
    counts = collections.Counter()
    elements = []
    dirty = []
    for e in events:
        if (e.get("pid"), e.get("tid")) != thread or e.get("ph") not in ("X", "B"):
            continue
        counts[e["name"]] += 1
        if e["name"] == "UpdateLayoutTree" and "elementCount" in e.get("args", {}):
            elements.append(e["args"]["elementCount"])
        if e["name"] == "Layout" and "beginData" in e.get("args", {}):
            data = e["args"]["beginData"]
            dirty.append((data.get("dirtyObjects", 0), data.get("totalObjects", 0)))
    busy = sum(spent.values()) / 1e6
    # The page's other threads (the Python worker, the compositor, raster): busy seconds by name.
    names = {(e["pid"], e["tid"]): e["args"].get("name", "?") for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("pid") == thread[0]}
    others = collections.Counter()
    doing = collections.defaultdict(collections.Counter)
    for key, name in names.items():
        if key != thread:
            name = name.rstrip("0123456789/")
            times = self_times(events, key)
            others[name] += sum(times.values())
            doing[name].update(times)
    return {
        "others": [(name, micro / 1e6, [(what, t / 1e6) for what, t in doing[name].most_common(3)])
                   for name, micro in others.most_common() if micro >= 5000],
        "seconds": seconds, "busy": busy,
        "causes": [(cause, micro / 1e6) for cause, micro in causes.most_common()],
        "names": [(name, micro / 1e6) for name, micro in spent.most_common(15)],
        "counts": {name: counts[name] for name in ("UpdateLayoutTree", "Layout", "Paint", "FireAnimationFrame", "MajorGC", "MinorGC")},
        "style elements": sum(elements) / len(elements) if elements else 0,
        "layout objects": (sum(d for d, _ in dirty) / len(dirty), sum(t for _, t in dirty) / len(dirty)) if dirty else (0, 0),
    }


def invalidations(trace: dict, count: int = 12) -> list:
    """[(how many, "reason: element")], the most first: which changes made the browser recompute
    style or lay out again (needs INVALIDATIONS' categories)."""
    events = trace["traceEvents"]
    thread = main_thread(events)
    seen = collections.Counter()
    for e in events:
        if e.get("pid") != thread[0]:
            continue
        name = e.get("name", "")
        if not name.endswith("InvalidationTracking"):
            continue
        data = e.get("args", {}).get("data", {})
        node = data.get("nodeName", "?")
        reason = data.get("reason") or (data.get("invalidationList") or [{}])[0].get("classes") or name
        extra = ""
        for item in data.get("invalidationList") or []:
            extra = " ".join(filter(None, [str(item.get("attributes") or ""), str(item.get("classes") or ""), str(item.get("tagNames") or "")]))
        kind = name.replace("InvalidationTracking", "")
        seen[f"{kind} - {reason} - {node}{f' [{extra}]' if extra else ''}"] += 1
    return [(n, what) for what, n in seen.most_common(count)]


def lines(result: dict, indent: str = "            ") -> list:
    """breakdown() as the bench prints it."""
    seconds = result["seconds"]
    out = [f"{indent}main thread busy {result['busy']:.2f} s of {seconds:g} s, by cause (trace self time): " +
           "; ".join(f"{cause} {s:.2f}" for cause, s in result["causes"] if s >= 0.005)]
    counts = result["counts"]
    out.append(f"{indent}per {seconds:g} s: {counts['FireAnimationFrame']} animation frames, {counts['UpdateLayoutTree']} style "
               f"recalculations ({result['style elements']:.0f} elements each on average), {counts['Layout']} layouts "
               f"({result['layout objects'][0]:.0f} of {result['layout objects'][1]:.0f} objects each), {counts['Paint']} paints, "
               f"{counts['MinorGC'] + counts['MajorGC']} GCs")
    out.append(f"{indent}top events by self time: " + "; ".join(f"{name} {s:.2f}" for name, s in result["names"][:12]))
    out.append(f"{indent}the renderer's other threads, busy s (their top events): " + "; ".join(
        f"{name} {s:.2f} ({', '.join(f'{what} {t:.2f}' for what, t in top)})" for name, s, top in result["others"]))
    return out


def long_tasks(trace: dict, ms: float = 50) -> list:
    """The main thread's tasks longer than `ms`, each as (ms, [what started it], [(name, ms
    of self time)] its top 8 events): what a long task is made of."""
    events = trace["traceEvents"]
    thread = main_thread(events)
    mine = [e for e in events if (e.get("pid"), e.get("tid")) == thread]
    found = []
    for task in mine:
        if task.get("ph") != "X" or task.get("name") not in ("ThreadControllerImpl::RunTask", "RunTask"):
            continue
        if task.get("dur", 0) < ms * 1000:
            continue
        start, end = task["ts"], task["ts"] + task["dur"]
        inside = [e for e in mine if start <= e.get("ts", 0) <= end]
        starts = []
        for e in inside:
            data = e.get("args", {}).get("data", {})
            if e.get("name") in ("FunctionCall", "TimerFire", "FireAnimationFrame", "EventDispatch") and e.get("ph") == "X":
                where = f"{data.get('functionName', '')} {str(data.get('url', '')).split('/')[-1]}:{data.get('lineNumber', '')}"
                starts.append(f"{e['name']}{' ' + data['type'] if data.get('type') else ''} {where.strip(' :')} {e.get('dur', 0) / 1000:.0f}ms")
        top = self_times(inside, thread).most_common(8)
        found.append((task["dur"] / 1000, starts[:6], [(name, micro / 1000) for name, micro in top]))
    return found
