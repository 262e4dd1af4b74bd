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

# The trace events' names, by what the main thread was doing (anything else: "other").
CAUSES = {
    "script": ("FunctionCall", "EvaluateScript", "v8.run", "v8.callFunction", "V8.Execute", "RunMicrotasks",
               "TimerFire", "FireAnimationFrame", "EventDispatch", "v8.compile", "v8.compileModule",
               "V8.CompileCode", "v8.evaluateModule", "ResizeObserver", "IntersectionObserverController::computeIntersections"),
    "style": ("UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet", "StyleInvalidatorInvalidationTracking"),
    "layout": ("Layout", "UpdateLayout", "LocalFrameView::layout"),
    "pre-paint": ("PrePaint", "UpdateLayerTree", "Layerize", "LocalFrameView::RunPrePaintLifecyclePhase"),
    "paint": ("Paint", "PaintImage", "PaintSetup", "LocalFrameView::RunPaintLifecyclePhase", "PaintArtifactCompositor::Update"),
    "composite": ("CompositeLayers", "Commit", "ProxyMain::BeginMainFrame::commit", "LayerTreeHost::DoUpdateLayers",
                  "Scroll"),
    "garbage collection": ("MajorGC", "MinorGC", "V8.GCScavenger", "V8.GCFinalizeMC", "V8.GCIncrementalMarking",
                           "V8.GC_MC_BACKGROUND_MARKING", "BlinkGC.AtomicPhase", "V8.GCCompactor", "BlinkGC.IncrementalMarkingStep",
                           "V8.GCMarkCompactor", "CppGC.AtomicMark", "CppGC.IncrementalMark"),
    "hit testing": ("HitTest",),
    "accessibility": ("ProcessDeferredUpdatesAXObjectCacheImpl", "AXObjectCacheImpl::ProcessDeferredAccessibilityEvents",
                      "AXObjectCacheImpl::CommitAXUpdates", "RenderAccessibilityImpl::SendPendingAccessibilityEvents",
                      "AXObjectCacheImpl::ProcessCleanLayoutCallbacks", "AXObjectCacheImpl::UpdateTreeIfNeeded"),
    "message from the worker": ("MessagePort::Accept", "WorkerMessagingProxy::PostMessageToWorkerObject",
                                "DedicatedWorkerObjectProxy::PostMessageToWorkerObject", "v8.deserialize",
                                "SerializedScriptValue::Deserialize"),
}
BY_NAME = {name: cause for cause, names in CAUSES.items() for name in names}


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
        if name in ("ThreadControllerImpl::RunTask", "RunTask", "ThreadPool_RunTask", "MessageLoop::RunTask",
                    "SequenceManager::DoIdleWork", "TaskGraphRunner::RunTask"):
            causes["native, outside any traced step"] += micro
        else:
            causes[BY_NAME.get(name, "other")] += micro
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
    return {
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
    out.append(f"{indent}top events by self time: " + "; ".join(f"{name} {s:.2f}" for name, s in result["names"][:10]))
    return out
