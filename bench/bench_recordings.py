"""Recorded runs, measured in one run: python3 bench/bench_recordings.py

play    on a cold cache (a fresh browser context each), the reader scrolls to a widget, and presses
        Play as soon as it shows (the recording arrived: theme/js/sims/recording.js): Play -> the
        first frame that moves (ms: the next animation frame after anything the widget draws
        changed, its clock, picture, figures or log; not the playback buttons), for every
        chapter's first embed and a casebook embed opened by its link (settings and a time only);
        each over a bare Pyodide start (bench/pages/bare.html: click -> Pyodide up and sqlite3
        imported), measured alternately in the same run (goal: at most 0.05). Also how long after
        the scroll the recording was there (Play shown), and the widget's data-state when it moved
        ("loading": Python was not yet up). An embed whose run waits for the reader (chapter 3's
        empty queue: Play says why nothing moves) is reported as such.
size    each embed's recording, gzipped as written (site/recordings/, builder/recordings.py): the
        average per embed (goal: at most 30 KB), the largest, and the total; pages without an
        embed fetch none.

Builds the site into a temporary folder (recordings come from the build's cache, .cache/recordings,
when the simulation code is unchanged), serves it as a static host does (bench/lighthouse.py's
handler: gzip, a short cache) and drives Debian's Chromium (or Playwright's own). The machine is
shared and noisy: read the figures as ratios from one run.
"""
from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from playwright.sync_api import sync_playwright  # noqa: E402

from builder import Config, build_site  # noqa: E402
from builder.recordings import recording_path  # noqa: E402
from builder.serve import make_server, serve_in_background  # noqa: E402
from bench_browser import CHROMIUM_ARGS, VIEWPORT, chromium_path  # noqa: E402
import lighthouse  # noqa: E402
from widget_start import bare_ms  # noqa: E402

EMBED = re.compile(r'<div class="sim" id="([^"]+)" data-sim="([^"]+)" data-state="idle" '
                   r"data-params='([^']*)' data-seed=\"(\d+)\"")
CASEBOOK = ("19-casebook.html", "sim-oban-short-lease")   # opened by a link: its settings and a time
# Play -> the first animation frame after anything the widget draws changed (its clock, picture,
# figures, tables, log; not the playback buttons themselves), and the state then.
WATCH_PLAY = """(id) => ({ moved: new Promise((resolve) => {
  const root = document.getElementById(id);
  const controls = root.querySelector(".sim-playback");
  let pressed = null;
  root.querySelector('[data-action="play"]').addEventListener("click", (event) => { pressed ??= event.timeStamp; }, { capture: true });
  // What the widget says (its message and status lines) is words about the run, not the run moving.
  const said = (node) => (node.nodeType === 1 ? node : node.parentElement)?.closest('[data-part="message"], [role="status"]');
  const drawn = (change) => change.target !== root && !controls.contains(change.target) && !said(change.target) &&
    (change.type !== "attributes" || change.oldValue !== change.target.getAttribute(change.attributeName));
  new MutationObserver((changes) => {
    if (pressed === null || !changes.some(drawn)) return;
    const state = root.dataset.state;
    requestAnimationFrame(() => resolve({ ms: performance.now() - pressed, state }));
  }).observe(root, { childList: true, characterData: true, subtree: true, attributes: true, attributeOldValue: true });
}) })"""


def embeds(site: Path) -> list[tuple[str, str, str, str, str]]:
    """(page, id, sim, params JSON, seed) of every embed in the built pages."""
    found = []
    for page in sorted(site.glob("*.html")):
        for ident, sim, params, seed in EMBED.findall(page.read_text(encoding="utf-8")):
            if sim != "judge":   # the judge runs the reader's code: nothing to record
                found.append((page.name, ident, sim, html.unescape(params), seed))
    return found


def play_ms(browser, url: str, page_name: str, ident: str, query: str = "") -> dict:
    """Cold: scroll to the widget, press Play once it shows; Play -> first moving frame (ms)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{url}{page_name}{query}")
    page.wait_for_selector("html[data-sims-ready]", state="attached")
    root = page.locator(f"#{ident}")
    scrolled = page.evaluate("() => performance.now()")
    root.scroll_into_view_if_needed()
    page.wait_for_selector(f"#{ident}[data-recorded], #{ident}[data-state=ready]", timeout=180_000)
    shown = page.evaluate("() => performance.now()") - scrolled
    recorded = root.get_attribute("data-recorded") is not None
    watch = page.evaluate_handle(WATCH_PLAY, ident)
    root.locator('[data-action="play"]').click()
    still = root.locator('[data-part="message"]')
    try:
        moved = page.evaluate("(watch) => Promise.race([watch.moved, new Promise((r) => setTimeout(() => r(null), 5000))])", watch)
    finally:
        message = still.inner_text()
        context.close()
    return {"shown": shown, "recorded": recorded, "moved": moved, "message": message}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="bare Pyodide starts, alternated with the embeds (default 3)")
    parser.add_argument("--only", nargs="+", choices=("play", "size"), default=("play", "size"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        site = Path(temp) / "site"
        build_site(Config(root=ROOT, out=site))
        found = embeds(site)
        if "size" in args.only:
            sizes = [(site / recording_path(sim, params, int(seed))).stat().st_size for _, _, sim, params, seed in found]
            distinct = {recording_path(sim, params, int(seed)) for _, _, sim, params, seed in found}
            largest = max(found, key=lambda e: (site / recording_path(e[2], e[3], int(e[4]))).stat().st_size)
            print(f"size   {len(found)} embeds, {len(distinct)} distinct runs: average {statistics.mean(sizes) / 1000:.1f} KB "
                  f"gzipped per embed (goal: at most 30), median {statistics.median(sizes) / 1000:.1f} KB, "
                  f"largest {max(sizes) / 1000:.1f} KB ({largest[0]} #{largest[1]}), "
                  f"all distinct {sum((site / p).stat().st_size for p in distinct) / 1000:.0f} KB")
        if "play" not in args.only:
            return 0
        (site / "bench").mkdir()
        for path in (HERE / "pages").iterdir():
            shutil.copy(path, site / "bench" / path.name)
        server = make_server(site, port=0, quiet=True, handler=lighthouse.StaticHostHandler)
        serve_in_background(server)
        url = f"http://127.0.0.1:{server.server_port}/"
        firsts = {}
        for page_name, ident, *_ in found:
            firsts.setdefault(page_name, ident)
        cases = [(page_name, ident, "") for page_name, ident in firsts.items() if page_name != CASEBOOK[0]]
        cases.append((CASEBOOK[0], CASEBOOK[1], f"?{CASEBOOK[1]}.t=4#{CASEBOOK[1]}"))
        with sync_playwright() as playwright:
            executable = chromium_path()
            browser = playwright.chromium.launch(args=CHROMIUM_ARGS, **({"executable_path": executable} if executable else {}))
            print(f"Chromium {browser.version}")
            bare_ms(browser, url)   # warms the browser up, uncounted
            bare, moved = [], []
            for index, (page_name, ident, query) in enumerate(cases):
                if index % max(1, len(cases) // args.rounds) == 0:
                    bare.append(bare_ms(browser, url)[0])
                result = play_ms(browser, url, page_name, ident, query)
                where = f"{page_name}{query or ''} #{ident}"
                if result["moved"] is None:
                    print(f"play   {where}: nothing moves on Play (the run waits for the reader: "
                          f"{result['message'][:70]!r}); recording shown {result['shown']:.0f} ms after the scroll")
                    continue
                moved.append(result["moved"]["ms"])
                print(f"play   {where}: Play -> moving {result['moved']['ms']:6.1f} ms, data-state then "
                      f"{result['moved']['state']!r}; recording shown {result['shown']:.0f} ms after the scroll")
            median_bare = statistics.median(bare)
            print(f"bare   Pyodide + sqlite3: {' '.join(f'{ms:.0f}' for ms in bare)} ms (median {median_bare:.0f})")
            print(f"ratio  Play -> first moving frame / bare Pyodide start: median {statistics.median(moved) / median_bare:.4f}, "
                  f"largest {max(moved) / median_bare:.4f} (goal: at most 0.05)")
            browser.close()
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
