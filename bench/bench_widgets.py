"""The simulation widgets' figures, from one browser run: python3 bench/bench_widgets.py

ready       a cold click: the reader's click on Start (nothing loaded before it: a reader who
            saves data, for whom nothing starts on its own) to the first simulation frame drawn,
            over a bare page that only loads Pyodide and imports sqlite3 (bench/pages/bare.html);
            median of --rounds cold starts each, alternated (goal: at most 1.05); then where the
            time goes (the worker's marks of each phase, python-worker.js, against the bare page's)
            and what importing the simulations costs, module by module (Python's import profiler)
arrival     a reader who scrolls to chapter 5's live-queue at --speed px/s (from where its top is
            --approach screens below the window, default 3) and clicks Step the moment it is wholly
            in view: from then to the frame it draws, over the same bare start (goal: at most 0.3);
            Python loads while they approach (from two screens away: runtime.js, NEAR_MARGIN)
unreached   bytes fetched by a reader who reads each chapter down to where its first simulation is
            still two screens and a half below the window: Pyodide's and the simulations' bytes
            (goal: none) and all bytes
step        live-queue's step() in Pyodide in Chromium over CPython, on the same scenario
            (bench/core_scenarios.py's: 16 workers, 1,000 jobs), timed by bench/step_timing.py
            (goal: at most 2)
smoothness  main-thread long tasks (over 50 ms) while a live-queue plays for 10 seconds: chapter
            9's (3 workers, 60 jobs, crashes) at 1x, and 16 workers with 1,000 jobs at 10x (goal: none)
rows        smoothness: chapter 3's live queue opened by a link with each run of the table below, playing
            for 10 s: main-thread long tasks (goal: none) and frames/s (goal: at least 55), where the
            main thread's time went (Chrome's own metrics: script, style, layout, all tasks) and the
            virtual seconds reached; beside each, what one frame costs Python (run on by speed/60 s,
            snapshot(), json.dumps()) in Pyodide in Chromium over CPython, and the reply's size. Then
            a sampling profile of the main thread for the largest run at 10x: its top functions, and
            the breakdown below. --cpu-slowdown N plays each row with the page's CPU slowed N times
            (DevTools' throttling): how much room a fast machine's figures leave
breakdown   the largest run (64 workers, 5,000 jobs) at 1x and 10x, 5 s each in Chromium's trace: the
            main thread's time by cause (script, style, layout, paint, ...: bench/main_thread.py), and
            which changes made style and layout be recomputed
weight      bytes a chapter page transfers before any interaction (goal: under 60 KB), as served
            here (no compression) and gzipped (as GitHub Pages serves it)

Builds the site into a temporary folder, adds bench/pages/ as bench/, serves it on localhost as a
static host does (gzip, a 10-minute cache: lighthouse.py's handler) and
drives Debian's Chromium (or Playwright's own). The machine is shared and noisy: read the figures
as ratios from one run, not as limits.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from playwright.sync_api import sync_playwright  # noqa: E402

from builder import Config, build_site  # noqa: E402
from builder.serve import make_server, serve_in_background  # noqa: E402
from bench_browser import CHROMIUM_ARGS, LONG_TASKS, SAVE_DATA, VIEWPORT, chromium_path, page_result  # noqa: E402
import lighthouse  # noqa: E402
import main_thread  # noqa: E402
from page_bytes import PYTHON, unreached, weight  # noqa: E402
from widget_start import arrival, import_profile, phase_lines, ready_times, words_per_minute  # noqa: E402

SECTIONS = ("ready", "arrival", "unreached", "step", "smoothness", "rows", "breakdown", "weight")
# the smoothness runs: (workers, jobs, speed) on chapter 3's live queue (jobs of 0.5 s), then the largest
# at every other speed the widget offers
SPEEDS = ("0.25", "0.5", "1", "2", "5", "10", "50")
ROWS = [(1, 10, "50"), (16, 1000, "10"), (64, 5000, "10"), (64, 5000, "50")] + \
       [(64, 5000, speed) for speed in SPEEDS if speed not in ("10", "50")]
METRICS = ("ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration")
STEPS = 1000   # live-queue steps timed together (16 workers, 1,000 jobs, as core_scenarios)
CHAPTERS_WITH_SIMS = ("03-the-queue.html", "04-the-worker.html", "05-leases.html", "08-retry.html",
                      "09-did-it-happen.html", "10-idempotency.html", "11-effect-with-the-ack.html", "12-capstone.html",
                      "15-capacity-and-watching.html")


def pyodide_step_seconds(browser, url: str, bundle: str) -> float:
    """Seconds per live-queue step() in Pyodide in Chromium (bench/pages/step-worker.js)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}bench/step.html?bundle=../{bundle}&steps={STEPS}")
    page.wait_for_selector('#result[data-state="ready"]', state="attached", timeout=300_000)
    seconds = float(page.get_attribute("#result", "data-seconds"))
    context.close()
    return seconds


def cpython_step_seconds() -> float:
    """The same in this CPython (bench/step_timing.py)."""
    import core_scenarios
    import step_timing
    return step_timing.seconds_per_step(core_scenarios.LiveQueue, STEPS)


def smoothness(browser, url: str, page_name: str, query: str, speed: str, profile: bool = False,
               trace: list | None = None, seconds: float = 10, lead_in: float = 0, slowdown: float = 1) -> dict:
    """Play for `seconds`: long tasks, frames/s, virtual seconds reached, Chrome's metrics of where
    the main thread's time went (seconds), if `profile` its top functions by self time (ms), and
    if `trace` (a list of categories) Chromium's trace of the play (main_thread.py). `slowdown` > 1
    slows the page's CPU that many times while it plays (DevTools' CPU throttling,
    Emulation.setCPUThrottlingRate: https://chromedevtools.github.io/devtools-protocol/tot/Emulation/)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(SAVE_DATA)
    page = context.new_page()
    page.goto(f"{url}{page_name}{query}")
    root = page.locator('.sim[data-sim="live-queue"]').first
    sim_id = root.get_attribute("id")
    if root.get_attribute("data-state") == "idle":
        root.get_by_role("button", name="Start the simulation").click()
    page.wait_for_selector(f'#{sim_id}[data-state="ready"]', timeout=180_000)
    root.locator('[data-control="speed"]').select_option(speed)
    start_time = float(root.locator('[data-part="time"]').inner_text().split()[0])
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    if slowdown > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    if profile:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.start")
    before = metrics(cdp)
    page.evaluate(LONG_TASKS)
    play = root.get_by_role("button", name="Play", exact=True)
    traced = None
    if trace:
        play.evaluate("button => button.click()")   # no actionability checks inside the trace
        page.wait_for_timeout(lead_in * 1000)
        page.evaluate("() => { window.__long = []; window.__frames = 0; }")   # counted from here
        traced = main_thread.record(browser, page, lambda: page.wait_for_timeout(seconds * 1000), trace)
    else:
        play.click()
        page.wait_for_timeout(seconds * 1000)
    frames = page.evaluate("() => window.__frames")
    long_tasks = page.evaluate("() => window.__long")
    spent = {name: value - before[name] for name, value in metrics(cdp).items()}
    top = top_functions(cdp.send("Profiler.stop")["profile"]) if profile else []
    root.get_by_role("button", name="Pause", exact=True).click()
    end_time = float(root.locator('[data-part="time"]').inner_text().split()[0])
    context.close()
    return {"long": long_tasks, "fps": frames / seconds, "virtual": end_time - start_time, "spent": spent, "top": top,
            "trace": traced}


def metrics(cdp) -> dict:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] in METRICS}


def top_functions(profile: dict, count: int = 8) -> list:
    """[(ms of self time, "function file:line")], the most first, leaving out idle time."""
    import collections
    nodes = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    spent = collections.Counter()
    for node, delta in zip(profile["samples"], profile["timeDeltas"]):
        frame = nodes[node]
        where = frame["url"].split("/")[-1].split("?")[0]
        spent[f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber'] + 1}".strip(" :0")] += delta
    spent.pop("(idle)", None)
    return [(ms / 1000, name) for name, ms in spent.most_common(count)]


def python_frame_costs(browser, url: str, bundle: str) -> list:
    """[(CPython s, Pyodide s, reply bytes)] for one frame of each of ROWS (bench/step_timing.py)."""
    import json
    import core_scenarios
    import step_timing
    rows = [[workers, jobs, float(speed), 0.5] for workers, jobs, speed in ROWS]
    cpython = step_timing.frame_costs(core_scenarios.LiveQueue, rows)
    pyodide = page_result(browser, f"{url}bench/step.html?bundle=../{bundle}&rows={json.dumps(rows)}",
                          "data-seconds", 600_000)
    return [(c[0], p[0], p[1]) for c, p in zip(cpython, pyodide)]


def print_breakdown(browser, url: str) -> None:
    """Where the main thread's time goes while the largest run plays (Chromium's trace, 5 s of it,
    main_thread.py), at 1x and at 10x; then, from a second trace, which changes made the browser
    recompute style and layout."""
    import os
    query = "?sim-1.workers=64&sim-1.jobs=5000#sim-1"
    print(f"breakdown   64 workers, 5,000 jobs, traced for 5 s (the trace slows the page: its frames/s are not the rows'); "
          f"load average {' '.join(f'{n:.1f}' for n in os.getloadavg())}")
    for speed in ("1", "10"):
        result = smoothness(browser, url, "03-the-queue.html", query, speed, trace=main_thread.CATEGORIES, seconds=5, lead_in=1)
        print(f"            at {speed}x: {len(result['long'])} long tasks, {result['fps']:.1f} frames/s")
        for line in main_thread.lines(main_thread.breakdown(result["trace"], 5)):
            print(line)
    result = smoothness(browser, url, "03-the-queue.html", query, "1", trace=main_thread.INVALIDATIONS, seconds=2, lead_in=3)
    print("            at 1x, what made style or layout be recomputed (2 s, after 3 s of play; how many times, kind - reason - element):")
    for count, what in main_thread.invalidations(result["trace"]):
        print(f"              {count:6} {what}")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="cold starts per side for `ready` (default 5)")
    parser.add_argument("--speed", type=float, default=100,
                        help="the arriving reader's scrolling speed in px/s (default 100: a brisk skim)")
    parser.add_argument("--approach", type=float, default=3,
                        help="where the arriving reader starts: the widget's top this many screens below the window (default 3)")
    parser.add_argument("--cpu-slowdown", type=float, default=1,
                        help="rows: slow the page's CPU this many times while it plays (default 1: not at all), to see "
                             "how much room a faster machine leaves")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=SECTIONS, metavar="SECTION",
                        help=f"run only these sections ({', '.join(SECTIONS)}; arrival needs ready's bare start)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temp:
        site = Path(temp) / "site"
        build_site(Config(root=ROOT, out=site))
        (site / "bench").mkdir()
        for path in (HERE / "pages").iterdir():
            shutil.copy(path, site / "bench" / path.name)
        for name in ("core_scenarios.py", "step_timing.py"):
            shutil.copy(HERE / name, site / "bench" / name)
        bundle = next(site.glob("assets/py/simulations.json")).relative_to(site).as_posix()
        # Served as a static host serves the guide (gzip, a 10-minute cache: lighthouse.py's
        # handler), not as scripts/serve does for an author (no-cache: every module import after
        # runtime.js's fetch of it is asked again, and those requests queue with Pyodide's own on
        # HTTP/1.1's six connections).
        server = make_server(site, port=0, quiet=True, handler=lighthouse.StaticHostHandler)
        serve_in_background(server)
        url = f"http://127.0.0.1:{server.server_port}/"
        with sync_playwright() as playwright:
            executable = chromium_path()
            browser = playwright.chromium.launch(args=CHROMIUM_ARGS, **({"executable_path": executable} if executable else {}))
            print(f"Chromium {browser.version}; {args.rounds} cold starts per side (after one pair to warm up)\n")

            only = set(args.only) | ({"ready"} if "arrival" in args.only else set())
            if "ready" in only:
                bare, widget, loading_tasks, bare_phases, widget_phases = ready_times(browser, url, args.rounds)
                ratio = statistics.median(widget) / statistics.median(bare)
                pairs = statistics.median(w / b for w, b in zip(widget, bare))
                print(f"ready       bare Pyodide + sqlite3: {' '.join(f'{ms:5.0f}' for ms in bare)} ms "
                      f"(median {statistics.median(bare):.0f})")
                print(f"            Start -> first frame:   {' '.join(f'{ms:5.0f}' for ms in widget)} ms "
                      f"(median {statistics.median(widget):.0f})")
                print(f"            ratio of medians {ratio:.3f}, median of paired ratios {pairs:.3f}   (goal <= 1.05)")
                print(f"            main-thread long tasks while Python loaded: {len(loading_tasks)}"
                      f"{f' (longest {max(loading_tasks):.0f} ms)' if loading_tasks else ''}")
                for line in phase_lines(bare_phases, widget_phases) + import_profile(browser, url, bundle):
                    print(f"            {line}")
                print()

            if 'arrival' in only:
                arrivals = [arrival(browser, url, args.speed, args.approach) for _ in range(args.rounds)]
                arrive = [a["ms"] for a in arrivals]
                wpm = words_per_minute(browser, url, args.speed)
                print(f"arrival     from {args.approach:g} screens away, scrolling at {args.speed:.0f} px/s ({wpm:.0f} words a minute on chapter 5), "
                      f"then Step -> its frame: {' '.join(f'{ms:5.0f}' for ms in arrive)} ms (median "
                      f"{statistics.median(arrive):.0f}); found on arrival: {', '.join(a['found'] for a in arrivals)}")
                print(f"            ratio over the bare start {statistics.median(arrive) / statistics.median(bare):.3f}"
                      f"   (goal <= 0.3)\n")

            if 'unreached' in only:
                print("unreached   a reader who stops two screens and a half before the first simulation:")
                for page_name in CHAPTERS_WITH_SIMS:
                    result = unreached(browser, url, page_name)
                    print(f"            {page_name:24} read {result['screens']:4.1f} screens: {result['total'] / 1000:6.1f} KB, "
                          f"of which Python {result['python'] / 1000:.1f} KB")
                print("            (goal: no Python)\n")

            if 'step' in only:
                started = time.perf_counter()
                cpython = cpython_step_seconds()
                pyodide = pyodide_step_seconds(browser, url, bundle)
                print(f"step        live-queue step(), 16 workers, 1,000 jobs, {STEPS:,} steps: CPython {cpython * 1e6:.1f} us, "
                      f"Pyodide in Chromium {pyodide * 1e6:.1f} us")
                print(f"            ratio {pyodide / cpython:.2f}   (goal <= 2)   [{time.perf_counter() - started:.0f} s]\n")

            if 'smoothness' in only:
                for label, page_name, query, speed in (
                        ("chapter 9's live-queue at 1x", "12-capstone.html", "", "1"),
                        ("16 workers, 1,000 jobs at 10x", "05-leases.html",
                         "?sim-kill-a-worker.workers=16&sim-kill-a-worker.jobs=1000&sim-kill-a-worker.duration=2#sim-kill-a-worker", "10")):
                    result = smoothness(browser, url, page_name, query, speed)
                    longest = max(result["long"], default=0)
                    print(f"smoothness  {label}: {len(result['long'])} long tasks (longest {longest:.0f} ms), "
                          f"{result['fps']:.0f} frames/s, {result['virtual']:.1f} virtual s in 10 s")
                print("            (goal: no long task)\n")

            if 'rows' in only:
                import os
                slowed = f", the page's CPU slowed {args.cpu_slowdown:g}x" if args.cpu_slowdown > 1 else ""
                print(f"rows        smoothness, chapter 3's live queue (jobs of 0.5 s){slowed}; load average "
                      f"{' '.join(f'{n:.1f}' for n in os.getloadavg())} (2 cores: above 2 is a loaded machine)")
                costs = python_frame_costs(browser, url, bundle)
                print("            run                      long tasks (longest)  frames/s  virtual s | main thread s: script style layout all"
                      " | Python ms a frame: CPython Pyodide ratio, reply KB")
                largest = None
                for (workers, jobs, speed), (cpython, pyodide, size) in zip(ROWS, costs):
                    query = f"?sim-1.workers={workers}&sim-1.jobs={jobs}#sim-1"
                    result = smoothness(browser, url, "03-the-queue.html", query, speed,
                                        profile=(workers, jobs, speed) == (64, 5000, "10"), slowdown=args.cpu_slowdown)
                    largest = result if result["top"] else largest
                    spent = result["spent"]
                    label = f"{workers} worker{'s' * (workers > 1)}, {jobs:,} jobs, {speed}x"
                    print(f"            {label:24} {len(result['long']):4} ({max(result['long'], default=0):4.0f} ms)"
                          f"       {result['fps']:5.1f}  {result['virtual']:7.1f}   |"
                          f" {spent['ScriptDuration']:5.2f} {spent['RecalcStyleDuration']:5.2f} {spent['LayoutDuration']:5.2f}"
                          f" {spent['TaskDuration']:5.2f} | {cpython * 1e3:6.2f} {pyodide * 1e3:6.2f} {pyodide / cpython:5.2f}x,"
                          f" {size / 1000:5.1f}")
                print("            (goals: no long task, at least 55 frames/s)")
                if largest:
                    print("            main thread, 64 workers, 5,000 jobs, 10x, top self time in 10 s: " +
                          "; ".join(f"{ms:.0f} ms {name}" for ms, name in largest["top"]))
                print(f"            load average after: {' '.join(f'{n:.1f}' for n in os.getloadavg())}\n")

            if 'breakdown' in only or 'rows' in only:
                print_breakdown(browser, url)

            if 'weight' in only:
                print("weight      before any interaction (served here / gzipped):")
                for page_name in CHAPTERS_WITH_SIMS:
                    result = weight(browser, url, page_name)
                    python = [name for name in result["files"] if name.startswith(PYTHON)]
                    print(f"            {page_name:24} {result['raw'] / 1000:6.1f} KB / {result['gzip'] / 1000:5.1f} KB "
                          f"in {len(result['files'])} files" + (f"  PYTHON FETCHED: {python}" if python else ""))
                print("            (goal: under 60 KB)")
            browser.close()
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
