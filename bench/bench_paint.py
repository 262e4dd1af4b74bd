"""First paint against the peer, from one run: python3 bench/bench_paint.py [--rounds N] [--no-lighthouse]

Chapter 3's text three ways, served side by side from one local server that answers like a static
host (gzip, a 10-minute cache: bench/lighthouse.py's handler):

ours      site/03-the-queue.html, as build.py makes it (and guide.html for Lighthouse)
mkdocs    the same Markdown (content/03-the-queue.md, its title as the page's heading) built with
          MkDocs Material (bench/requirements-mkdocs.txt, pinned; installed by this script into
          bench/.venv-mkdocs/, never a dependency of the site), with its defaults but for
          `font: false`: its default loads Roboto from Google, and no page here fetches from
          another host. The guide's own Markdown extensions come out as plain code blocks there.
bare      our page's <main> alone in a bare HTML page: no stylesheet, no script
before    with --before DIR: a site built earlier (build.py --out DIR), served beside the others,
          to compare a change within one run

For each, in fresh browser contexts (cold cache), --rounds times in turn: first contentful paint
and largest contentful paint (ms, Chromium's own PerformanceObserver entries, a 1280x900 window)
and the bytes transferred before any interaction (the navigation and every resource it loaded,
1.5 s after the load event). Then, from --traces more loads of each recorded with Chromium's
trace (bench/paint_trace.py), where the time before the first paint went on the page's main
thread (parse HTML, parse CSS, style, layout, scripts, paint, other, idle: waiting for the
network), and when each request the paint waited for arrived; and guide.html's long tasks with
the CPU slowed 4x (what Lighthouse's Total Blocking Time counts), each with its biggest parts.
Then Lighthouse 12's phone performance score (bench/package.json; simulated slow 4G and a 4x
slower CPU) for each, and for our guide.html.

Goal: ours paints no later than MkDocs Material's, within 1.5x of bare HTML, and
guide.html scores at least 98 on phone performance. The machine is shared: read ratios from one run.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from playwright.sync_api import sync_playwright  # noqa: E402

import lighthouse  # noqa: E402  (bench/lighthouse.py: its static-host handler and its runner)
import paint_trace  # noqa: E402
from builder import Config, build_site  # noqa: E402
from builder.serve import serve_in_background  # noqa: E402

MKDOCS_VENV = HERE / ".venv-mkdocs"
MKDOCS_REQUIREMENTS = HERE / "requirements-mkdocs.txt"
CHAPTER = "03-the-queue"
VIEWPORT = {"width": 1280, "height": 900}
# WebUIOmniboxPopup: without it, Chromium 156 loads its address bar's popup (~400 chrome:// files, in
# a renderer of its own) with each new browser context, on the same two cores, while the page loads.
CHROMIUM_ARGS = ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-features=WebUIOmniboxPopup"]
MEASURE = """() => new Promise((resolve) => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  let lcp = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) lcp = e.startTime; })
    .observe({ type: "largest-contentful-paint", buffered: true });
  const bytes = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
    .reduce((sum, e) => sum + e.transferSize, 0);
  setTimeout(() => resolve({ fcp: paint ? paint.startTime : null, lcp, bytes,
                             files: performance.getEntriesByType("resource").length + 1 }), 100);
})"""


def mkdocs() -> Path:
    """bench/.venv-mkdocs/bin/mkdocs, installed from the pinned requirements when missing or stale."""
    binary = MKDOCS_VENV / "bin" / "mkdocs"
    stamp = MKDOCS_VENV / ".requirements"
    wanted = MKDOCS_REQUIREMENTS.read_text(encoding="utf-8")
    if not binary.exists() or not stamp.is_file() or stamp.read_text(encoding="utf-8") != wanted:
        print("bench: installing MkDocs Material into bench/.venv-mkdocs/ (pip install -r "
              "bench/requirements-mkdocs.txt)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(MKDOCS_VENV)], check=True)
        subprocess.run([str(MKDOCS_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", "-r", str(MKDOCS_REQUIREMENTS)], check=True)
        stamp.write_text(wanted, encoding="utf-8")
    return binary


def chapter_title() -> str:
    summary = (ROOT / "content" / "SUMMARY.md").read_text(encoding="utf-8")
    return re.search(rf"^- \[(.+?)\]\({CHAPTER}\.md\)", summary, re.M).group(1)


def build_mkdocs(into: Path) -> None:
    """Chapter 3's Markdown as an MkDocs Material site in `into` (page: 03-the-queue.html)."""
    project = into.parent / "mkdocs-project"
    (project / "docs").mkdir(parents=True)
    text = (ROOT / "content" / f"{CHAPTER}.md").read_text(encoding="utf-8")
    (project / "docs" / f"{CHAPTER}.md").write_text(f"# {chapter_title()}\n\n{text}", encoding="utf-8")
    (project / "mkdocs.yml").write_text(
        "site_name: Jobs, Queues, Workers and Retries\n"
        "use_directory_urls: false\n"
        f"nav:\n  - '{CHAPTER}.md'\n"
        "theme:\n  name: material\n  font: false\n", encoding="utf-8")
    subprocess.run([str(mkdocs()), "build", "--quiet", "--site-dir", str(into)], cwd=project, check=True,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def build_bare(ours: Path, into: Path) -> None:
    """Our page's <main> alone, in a page with no stylesheet and no script."""
    page = (ours / f"{CHAPTER}.html").read_text(encoding="utf-8")
    main = re.search(r"<main\b.*?</main>", page, re.S).group(0)
    main = re.sub(r"<link\b[^>]*>\n?", "", main)   # the simulations' stylesheet, linked inside the first stage
    into.mkdir()
    (into / f"{CHAPTER}.html").write_text(
        f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{chapter_title()}</title>\n'
        f"</head>\n<body>\n{main}\n</body>\n</html>\n", encoding="utf-8")


def measure(browser, url: str) -> dict:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(url, wait_until="load")
    page.wait_for_timeout(1500)
    result = page.evaluate(MEASURE)
    context.close()
    return result


def trace_report(browser, pages: dict[str, str], guide: str, count: int) -> list[str]:
    """Where each page's first paint goes (median of `count` traced loads), then guide.html's long tasks."""
    found = {name: [paint_trace.breakdown(paint_trace.record(browser, url, VIEWPORT), url) for _ in range(count)]
             for name, url in pages.items()}
    lines = [f"\nWhere the time before the first paint goes (Chromium's trace, the page's main thread, median "
             f"of {count} traced loads, ms;\nidle: the thread waiting, for the network as a rule):",
             f"{'page':8} {'FCP':>6} " + " ".join(f"{c:>10}" for c in paint_trace.COLUMNS)]
    for name, loads in found.items():
        loads = [load for load in loads if load["fcp"] is not None] or [{"fcp": 0, "kinds": {}, "requests": []}]
        lines.append(f"{name:8} {statistics.median(load['fcp'] for load in loads):6.0f} "
                     + " ".join(f"{statistics.median(load['kinds'].get(c, 0) for load in loads):10.1f}"
                                for c in paint_trace.COLUMNS))
    for name, loads in found.items():
        middle = sorted((load for load in loads if load["fcp"] is not None), key=lambda load: load["fcp"])
        if middle:
            load = middle[len(middle) // 2]
            lines.append(f"  {name} (its median load), requests sent before the paint, ms when each arrived: "
                         + ", ".join(f"{file or '(page)'} {at:.0f}{' (blocking)' if blocking == 'blocking' else ''}"
                                     for file, at, blocking in load["requests"]))
    tasks = paint_trace.long_tasks(paint_trace.record(browser, guide, VIEWPORT, cpu_slowdown=4), guide)
    lines.append(f"\nguide.html, the CPU slowed 4x (as Lighthouse's phone): {len(tasks)} tasks over 50 ms, "
                 f"{sum(t['ms'] - 50 for t in tasks):.0f} ms over 50 ms in all; the longest five and what took their time:")
    for task in sorted(tasks, key=lambda t: -t["ms"])[:5]:
        lines.append(f"  at {task['at']:6.0f} ms, {task['ms']:4.0f} ms: "
                     + "; ".join(f"{what} {ms:.0f}" for what, ms in task["parts"]))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="cold loads of each page (default 7)")
    parser.add_argument("--no-lighthouse", action="store_true", help="skip the Lighthouse scores")
    parser.add_argument("--traces", type=int, default=3, help="traced loads of each page (default 3; 0: none)")
    parser.add_argument("--before", type=Path, metavar="DIR",
                        help="a site built earlier (build.py --out DIR), measured beside ours as 'before'")
    args = parser.parse_args()
    chrome = os.environ.get("CHROME_PATH") or shutil.which("chromium") or "/usr/bin/chromium"

    with tempfile.TemporaryDirectory() as temporary:
        served = Path(temporary) / "served"
        build_site(Config(out=served / "ours"))
        build_mkdocs(served / "mkdocs")
        build_bare(served / "ours", served / "bare")
        names = ["ours", "mkdocs", "bare"]
        if args.before:
            shutil.copytree(args.before, served / "before")
            names.insert(1, "before")
        handler = type("Handler", (lighthouse.StaticHostHandler,), {"base": "/", "quiet": True})
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(served)))
        serve_in_background(server)
        base = f"http://127.0.0.1:{server.server_port}/"
        pages = {name: f"{base}{name}/{CHAPTER}.html" for name in names}

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chrome, args=CHROMIUM_ARGS)
            print(f"Chromium {browser.version}; chapter 3, {args.rounds} cold loads each, in turn, "
                  f"{VIEWPORT['width']}x{VIEWPORT['height']}, gzip\n")
            measure(browser, pages["bare"])   # warm the browser up, uncounted
            runs = {name: [] for name in pages}
            for _ in range(args.rounds):
                for name, url in pages.items():
                    runs[name].append(measure(browser, url))
            traced = trace_report(browser, pages, f"{base}ours/guide.html", args.traces) if args.traces else []
            browser.close()
        for name, found in runs.items():
            if any(r["fcp"] is None for r in found):
                print(f"{name}: no first-contentful-paint entry in {sum(r['fcp'] is None for r in found)} loads")
                runs[name] = [r for r in found if r["fcp"] is not None] or [{"fcp": 0, "lcp": 0, "bytes": 0, "files": 0}]
        median = {name: {key: statistics.median(r[key] for r in found) for key in ("fcp", "lcp", "bytes", "files")}
                  for name, found in runs.items()}
        print(f"{'page':8} {'FCP ms':>8} {'LCP ms':>8} {'bytes':>9} {'files':>6}   FCP of each load (ms)")
        for name, found in runs.items():
            m = median[name]
            print(f"{name:8} {m['fcp']:8.0f} {m['lcp']:8.0f} {m['bytes']:9,.0f} {m['files']:6.0f}   "
                  + " ".join(f"{r['fcp']:.0f}" for r in found))
        ours, peer, bare = median["ours"], median["mkdocs"], median["bare"]
        if args.before:
            print(f"ours / before: FCP {ours['fcp'] / median['before']['fcp']:.2f}, "
                  f"LCP {ours['lcp'] / median['before']['lcp']:.2f}")
        print(f"\nours / mkdocs: FCP {ours['fcp'] / peer['fcp']:.2f}, LCP {ours['lcp'] / peer['lcp']:.2f}   "
              f"(goal: FCP <= 1)")
        print(f"ours / bare:   FCP {ours['fcp'] / bare['fcp']:.2f}, LCP {ours['lcp'] / bare['lcp']:.2f}   "
              f"(goal: FCP <= 1.5)")
        print("\n".join(traced))

        if not args.no_lighthouse:
            lighthouse.ensure_lighthouse()
            print(f"\nLighthouse 12, phone (simulated slow 4G, 4x CPU): {'page':22} {'perf':>4} "
                  f"{'FCP ms':>7} {'LCP ms':>7} {'TBT ms':>7} {'bytes':>9}")
            guides = [(f"{name} guide", f"{base}{name}/guide.html") for name in ("ours", "before") if name in pages]
            for name, url in [*pages.items(), *guides]:
                result = lighthouse.summary(lighthouse.run_lighthouse(url, False, chrome))
                m = result["metrics"]
                print(f"{'':51}{name:22} {result['scores']['performance']:4} {m['first-contentful-paint']:7.0f} "
                      f"{m['largest-contentful-paint']:7.0f} {m['total-blocking-time']:7.0f} {result['bytes']:9,}",
                      flush=True)
            print(f"{'':51}(goal: guide.html >= 98)")
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
