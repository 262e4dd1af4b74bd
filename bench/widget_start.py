"""How soon a widget answers a reader (bench_widgets.py's `ready` and `arrival`): a cold click on
Start against a bare page that only loads Pyodide, and a reader who scrolls to a widget and
clicks Step. Times in ms."""
import statistics

from bench_browser import ARRIVE, LONG_TASKS, SAVE_DATA, VIEWPORT, page_result

# The reader's click on the widget -> its data-state "ready" (the first frame drawn with it):
# {ms, clicked, ready} (the two moments in ms since the epoch, to set beside the worker's marks)
WATCH_READY = """(id) => ({ ready: new Promise((resolve) => {
  const root = document.getElementById(id);
  let clicked = null;
  root.addEventListener("click", (event) => { clicked ??= event.timeStamp; }, { capture: true });
  new MutationObserver(() => {
    if (root.dataset.state !== "ready") return;
    const now = performance.now();
    resolve({ ms: now - clicked, clicked: performance.timeOrigin + clicked, ready: performance.timeOrigin + now });
  }).observe(root, { attributes: true, attributeFilter: ["data-state"] });
}) })"""

# The phases of a start, as the worker marks them (python-worker.js; bench/pages/bare-worker.js
# marks the ones a bare start has): ms since the epoch of each "python:<phase>" mark.
WORKER_MARKS = """() => Object.fromEntries(performance.getEntriesByType("mark")
  .filter((mark) => mark.name.startsWith("python:"))
  .map((mark) => [mark.name.slice(7), performance.timeOrigin + mark.startTime]))"""
PHASES = (  # (label, from mark, to mark, the bare page's to mark or None): printed in this order
    ("click -> the worker has the load message", "click", "load", "load"),
    ("pyodide.mjs imported", "load", "pyodide.mjs", "pyodide.mjs"),
    ("loadPyodide() (wasm, stdlib, start)", "pyodide.mjs", "started", "started"),
    ("(our bundle in, counted from load)", "load", "bundle", None),
    ("the bundle written into the files", "started", "written", None),
    ("import sqlite3", "written", "sqlite3", "sqlite3"),
    ("import simulations.bridge", "sqlite3", "imported", None),
    ("imported -> the first call taken", "imported", "first-call", None),
    ("the first call (create) answered", "first-call", "first-reply", None),
    ("reply -> the page's first frame", "first-reply", "done", None),
    ("click -> ready", "click", "done", "sqlite3"),
)


def phase_lines(bare: list[dict], widget: list[dict]) -> list[str]:
    """One line per phase: its median (ms) over the rounds, on the bare page and on ours."""
    def median(runs, start, end):
        spans = [run[end] - run[start] for run in runs if start in run and end in run] if end else []
        return f"{statistics.median(spans):7.0f}" if spans else "      -"
    lines = [f"{'phase, median ms':42} {'bare':>7} {'ours':>7}"]
    for label, start, end, bare_end in PHASES:
        bare_start = "started" if start == "written" else start   # the bare page writes no files
        lines.append(f"{label:42} {median(bare, bare_start, bare_end)} {median(widget, start, end)}")
    return lines


def worker_marks(page) -> dict:
    """The phases the page's one worker has marked so far (ms since the epoch)."""
    return page.workers[0].evaluate(WORKER_MARKS) if page.workers else {}


def bare_ms(browser, url: str) -> tuple[float, dict]:
    """Click -> Python ready on the bare page (ms), and its phases (ms since the epoch)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "bench/bare.html")
    page.click("#start")
    page.wait_for_selector('#result[data-state="ready"]', state="attached", timeout=180_000)
    ms = float(page.get_attribute("#result", "data-ms"))
    phases = {**worker_marks(page), "click": float(page.get_attribute("#result", "data-clicked"))}
    context.close()
    return ms, phases


def widget_ms(browser, url: str) -> tuple[float, list[float], dict]:
    """Start -> first frame of chapter 5's live-queue (ms), the main thread's long tasks meanwhile,
    and the phases of the start (ms since the epoch: the worker's marks, the click, "done")."""
    context = browser.new_context()
    context.add_init_script(SAVE_DATA)
    page = context.new_page()
    page.goto(url + "05-leases.html")
    page.wait_for_selector("html[data-sims-ready]", state="attached")
    root = page.locator('.sim[data-sim="live-queue"]').first
    root.scroll_into_view_if_needed()
    page.evaluate(LONG_TASKS)
    waiting = page.evaluate_handle(WATCH_READY, root.get_attribute("id"))
    root.get_by_role("button", name="Start the simulation").click()
    watched = page.evaluate("(watch) => watch.ready", waiting)
    long_tasks = page.evaluate("() => window.__long")
    phases = {**worker_marks(page), "click": watched["clicked"], "done": watched["ready"]}
    context.close()
    return watched["ms"], long_tasks, phases


def ready_times(browser, url: str, rounds: int) -> tuple[list[float], list[float], list[float], list[dict], list[dict]]:
    """(bare page, widget, long tasks, bare phases, widget phases) over `rounds` pairs of cold
    starts, each in a fresh context, alternating which goes first; one pair before them warms the
    browser up, uncounted."""
    bare, widget, long_tasks, bare_phases, widget_phases = [], [], [], [], []
    for round_ in range(rounds + 1):
        pair = {}
        for side in (("bare", "widget") if round_ % 2 else ("widget", "bare")):
            pair[side] = bare_ms(browser, url) if side == "bare" else widget_ms(browser, url)
        if round_:
            bare.append(pair["bare"][0])
            bare_phases.append(pair["bare"][1])
            widget.append(pair["widget"][0])
            long_tasks += pair["widget"][1]
            widget_phases.append(pair["widget"][2])
    return bare, widget, long_tasks, bare_phases, widget_phases


def arrival(browser, url: str, speed: float, approach: float) -> dict:
    """A reader scrolling to chapter 5's live-queue from where its top is `approach` screens below
    the window: what they found on arrival (data-state) and their click on Step -> its frame (ms)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(url + "05-leases.html")
    page.wait_for_selector("html[data-sims-ready]", state="attached")
    root = page.locator('.sim[data-sim="live-queue"]').first
    top = root.evaluate("(root) => root.getBoundingClientRect().top + scrollY")
    page.evaluate(f"() => scrollTo(0, {max(0, top - (1 + approach) * VIEWPORT['height'])})")
    result = page.evaluate(ARRIVE, {"id": root.get_attribute("id"), "speed": speed})
    context.close()
    return result


def words_per_minute(browser, url: str, speed: float) -> float:
    """The reading speed `speed` px/s is on chapter 5's text, in words a minute."""
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(url + "05-leases.html")
    words, height = page.evaluate("() => { const main = document.querySelector('main'); "
                                  "return [main.innerText.split(/\\s+/).length, main.scrollHeight]; }")
    page.close()
    return speed * 60 * words / height


# The first call chapter 5's live-queue sends (its embed's params), for import_profile().
FIRST_CALL = ('{"op": "create", "id": "sim-kill-a-worker", "sim": "live-queue", "req": 1, '
              '"params": {"workers": 3, "jobs": 6, "lease": 5, "duration": 2, "seed": 0}}')


def import_profile(browser, url: str, bundle: str, top: int = 12) -> list[str]:
    """Lines to print: what `from simulations.bridge import handle` and chapter 5's first create
    cost in Pyodide in Chromium (ms), and the `top` modules by their own import time, from
    Python's import profiler (bench/pages/imports-worker.js)."""
    from urllib.parse import quote

    result = page_result(browser, f"{url}bench/imports.html?bundle=../{bundle}&message={quote(FIRST_CALL)}",
                         "data-profile", 300_000)
    modules = []   # (own us, cumulative us, name)
    for line in result["lines"]:
        if line.startswith("import time:") and "|" in line and "self [us]" not in line:
            own, cumulative, name = line[len("import time:"):].split("|")
            modules.append((int(own), int(cumulative), name.strip()))
    ours = sum(own for own, _, name in modules if name.startswith(("simulations", "tinyq")))
    rest = sum(own for own, _, name in modules) - ours
    lines = [f"Pyodide: import simulations.bridge {result['importMs']:.0f} ms (profiled: {len(modules)} modules,"
             f" ours {ours / 1000:.0f} ms, the standard library's {rest / 1000:.0f} ms); then chapter 5's"
             f" create {result['createMs']:.0f} ms, a reply of {result['replyBytes'] / 1000:.1f} KB",
             "the modules that took longest, own ms: " + ", ".join(
                 f"{name} {own / 1000:.0f}" for own, _, name in sorted(modules, reverse=True)[:top])]
    return lines
