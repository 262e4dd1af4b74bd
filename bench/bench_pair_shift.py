"""Layout shift as the casebook's pairs start: python3 bench/bench_pair_shift.py (after build.py)

Each before/after pair (a sim fence's `compare:`) is scrolled into view and waited on until ready,
at 1280x900 and at 390x844, in real Chromium with real Pyodide; prints the layout shift summed
over the whole visit (Layout Instability API, shifts without recent input) and the shifts over
0.01 with the classes of the elements that moved. The build draws a pair's box
(builder/markdown/sim_pair.py), so the sum stays small.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.served import serve  # noqa: E402

SHIFTS = """(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput)
      window.__shifts.push([entry.value, entry.sources.map((s) => s.node && (s.node.id || s.node.className)).join(",")]);
  }).observe({ type: "layout-shift", buffered: true });
})();"""
CHROMIUM = Path("/usr/bin/chromium")


def main():
    server, served = serve(ROOT / "site")
    try:
        with sync_playwright() as playwright:
            options = {"executable_path": str(CHROMIUM)} if CHROMIUM.exists() else {}
            browser = playwright.chromium.launch(args=["--disable-gpu"], **options)
            for viewport in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
                context = browser.new_context(viewport=viewport)
                context.add_init_script(SHIFTS)
                page = context.new_page()
                page.goto(served.at("19-casebook.html"))
                ids = [root.get_attribute("id") for root in page.locator(".sim[data-compare]").all()]
                for ident in ids:
                    page.locator(f"#{ident}").scroll_into_view_if_needed()
                    page.wait_for_selector(f'#{ident}[data-state="ready"]', timeout=120_000)
                    page.wait_for_timeout(300)
                shifts = page.evaluate("() => window.__shifts")
                print(f"{viewport['width']} px: {len(ids)} pairs, layout shift {sum(v for v, _ in shifts):.4f}")
                for value, sources in shifts:
                    if value > 0.01:
                        print(f"  {value:.4f} {sources}")
                context.close()
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
