"""How soon a widget answers a reader (bench_widgets.py's `ready` and `arrival`): a cold click on
Start against a bare page that only loads Pyodide, and a reader who scrolls to a widget and
clicks Step. Times in ms."""
from bench_browser import ARRIVE, LONG_TASKS, SAVE_DATA, VIEWPORT, WATCH_READY


def bare_ms(browser, url: str) -> float:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "bench/bare.html")
    page.click("#start")
    page.wait_for_selector('#result[data-state="ready"]', state="attached", timeout=180_000)
    ms = float(page.get_attribute("#result", "data-ms"))
    context.close()
    return ms


def widget_ms(browser, url: str) -> tuple[float, list[float]]:
    """Start -> first frame of chapter 5's live-queue (ms), and the main thread's long tasks meanwhile."""
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
    ms = page.evaluate("(watch) => watch.ready", waiting)
    long_tasks = page.evaluate("() => window.__long")
    context.close()
    return ms, long_tasks


def ready_times(browser, url: str, rounds: int) -> tuple[list[float], list[float], list[float]]:
    """(bare page, widget, long tasks) over `rounds` pairs of cold starts, each in a fresh
    context, alternating which goes first; one pair before them warms the browser up, uncounted."""
    bare, widget, long_tasks = [], [], []
    for round_ in range(rounds + 1):
        pair = {}
        for side in (("bare", "widget") if round_ % 2 else ("widget", "bare")):
            pair[side] = bare_ms(browser, url) if side == "bare" else widget_ms(browser, url)
        if round_:
            bare.append(pair["bare"])
            widget.append(pair["widget"][0])
            long_tasks += pair["widget"][1]
    return bare, widget, long_tasks


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
