"""Time a judge widget's Run -> verdict in Chromium, for the chapter's fix: python3 bench/bench_judge_page.py [SITE ...]

Each SITE is a built site folder (default: this checkout's site/, built by `python3 build.py`);
give two (e.g. main's and this branch's) to compare them. For each: a fresh browser page on
chapter 8, the charge-handler exercise, "Show the chapter's fix", then RUNS Runs on seeds 0, 1,
2...: wall-clock milliseconds from the click on Run to the verdict drawn. The first Run is shown
apart (where the reader's worker is started at the press of Run, it pays Python's start); the
median of the others is the figure to compare. Real Pyodide, real Chromium (/usr/bin/chromium if
present), localhost; a busy machine moves the figures: compare ratios from one sitting.
"""
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from tests.support.served import serve  # noqa: E402

RUNS = 8
CHAPTER = "10-idempotency.html"
JUDGE = "#sim-charge-handler"


def measure(browser, folder):
    server, site = serve(Path(folder))
    try:
        page = browser.new_page()
        page.goto(site.at(CHAPTER))
        root = page.locator(JUDGE)
        root.scroll_into_view_if_needed()
        try:   # scrolled into view, the widget may have started itself already
            root.locator('[data-action="start"]').click(timeout=3000)
        except Exception:
            pass
        expect(root).to_have_attribute("data-state", "ready", timeout=120_000)
        expect(root.locator(".cm-content")).to_be_visible(timeout=120_000)
        root.locator('[data-action="fix"]').click()
        times, parts = [], []
        for seed in range(RUNS):
            root.locator('[data-part="seed"]').fill(str(seed))
            run = root.locator('[data-action="run"]')
            expect(run).to_be_enabled(timeout=120_000)
            started = time.perf_counter()
            run.click()
            expect(root.locator(".judge-verdict")).to_have_text(f"Passed the audit on seed {seed}.",
                                                                timeout=120_000)
            times.append((time.perf_counter() - started) * 1000)
            split = page.evaluate("""() => {
              const at = (name) => performance.getEntriesByName(name).pop()?.startTime;
              const run = at("judge:run"), recorded = at("judge:recorded"), verdict = at("judge:verdict");
              return run === undefined ? null : [recorded - run, verdict - recorded];
            }""")
            if split:
                parts.append(split)
            page.wait_for_timeout(8000)   # the reader reads the verdict (the next worker starts)
        page.close()
        return times, parts
    finally:
        server.shutdown()


def main(folders):
    chromium = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=[
            "--disable-gpu", "--disable-background-networking", "--disable-component-update"])
        for folder in folders:
            times, parts = measure(browser, folder)
            print(f"{folder}: first Run {times[0]:.0f} ms; next {len(times) - 1}: median "
                  f"{statistics.median(times[1:]):.0f} ms (min {min(times[1:]):.0f}, "
                  f"max {max(times[1:]):.0f})")
            if parts:   # this branch's two steps: the reader's worker, then the judge's verdict
                print(f"  median recorded in the reader's worker {statistics.median(p[0] for p in parts[1:]):.0f} ms,"
                      f" verdict {statistics.median(p[1] for p in parts[1:]):.0f} ms")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:] or [str(ROOT / "site")])
