"""Lighthouse on every page of the guide: python3 bench/lighthouse.py [--desktop] [--no-gzip] [PAGE...]

Builds the site into a temporary folder, serves it on localhost the way a static host such as
GitHub Pages does (gzip for text, a 10-minute cache), runs Lighthouse 12 (bench/package.json,
installed into bench/node_modules with `npm ci` when missing) on each page with Chromium
(CHROME_PATH, default /usr/bin/chromium), and prints for each page the four category scores
(performance, accessibility, best practices, SEO; 0-100) and the bytes transferred before any
interaction (Lighthouse's `total-byte-weight`: every response's transfer size while the page
loads, in bytes).

Goal: 100 in accessibility, best practices and SEO, and at least 95 in performance, on every
page. Lighthouse's default is a phone on a throttled connection (simulated: 150 ms RTT,
1.6 Mbit/s, CPU slowed 4x); --desktop uses its desktop preset. Scores from one run on a shared
machine vary by a few points: compare them, do not assert them.
Lighthouse: https://github.com/GoogleChrome/lighthouse/blob/main/docs/readme.md (CLI options),
scoring: https://developer.chrome.com/docs/lighthouse/performance/performance-scoring.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
LIGHTHOUSE = BENCH / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
GOALS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
COMPRESSED = (".html", ".css", ".js", ".mjs", ".json", ".svg", ".py", ".txt", ".wasm")
CACHE_SECONDS = 600   # what GitHub Pages sends: Cache-Control: max-age=600
# --disable-features=WebUIOmniboxPopup: Chromium 156 otherwise loads its address bar's popup (~400
# chrome:// files) in a renderer of its own while the page loads (bench/bench_paint.py).
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking " \
               "--disable-component-update --disable-sync --disable-features=WebUIOmniboxPopup"

sys.path.insert(0, str(ROOT))
from builder import Config, build_site  # noqa: E402
from builder.serve import SiteHandler, serve_in_background  # noqa: E402


class StaticHostHandler(SiteHandler):
    """The project's handler, made to answer like a static host: gzip, and a short cache. Each
    file is compressed once (a host keeps its compressed copies): compressing the 9.6 MB wasm
    again for every request would cost this server ~0.4 s that no host spends."""

    gzip_enabled = True
    compressed: dict = {}   # (path, mtime) -> the gzipped bytes, shared by every request

    def end_headers(self) -> None:
        # SiteHandler adds "no-cache" (right for development); a host caches for a while.
        self.send_header("Cache-Control", f"max-age={CACHE_SECONDS}")
        super(SiteHandler, self).end_headers()

    def send_head(self):
        path = Path(self.translate_path(self.path))
        wants = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.gzip_enabled and wants and path.is_file() and path.suffix in COMPRESSED):
            return super().send_head()
        key = (str(path), path.stat().st_mtime_ns)
        body = self.compressed.get(key)
        if body is None:
            body = self.compressed[key] = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body) if self.command == "GET" else None
        return None


def ensure_lighthouse() -> None:
    if not LIGHTHOUSE.exists():
        print("lighthouse: npm ci in bench/", file=sys.stderr)
        subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=BENCH, check=True)


def run_lighthouse(url: str, desktop: bool, chrome: str) -> dict:
    """Lighthouse's JSON report (the "lhr") for one URL."""
    command = [str(LIGHTHOUSE), url, "--output=json", "--output-path=stdout", "--quiet",
               f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"]
    if desktop:
        command.append("--preset=desktop")
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "CHROME_PATH": chrome},
                          timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def summary(report: dict) -> dict:
    """Scores (0-100), bytes transferred, and each audit that kept a category below 100."""
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    audits = report["audits"]
    failing = {}
    for category in CATEGORIES:
        refs = report["categories"][category]["auditRefs"]
        failing[category] = [f"{r['id']} ({audits[r['id']]['score']})" for r in refs
                             if r["weight"] and audits[r["id"]]["score"] is not None and audits[r["id"]]["score"] < 1]
    metrics = {key: audits[key]["numericValue"] for key in
               ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift")}
    return {"scores": scores, "bytes": int(audits["total-byte-weight"]["numericValue"]),
            "requests": len(audits["network-requests"]["details"]["items"]), "failing": failing, "metrics": metrics}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="pages to check (default: every page)")
    parser.add_argument("--desktop", action="store_true", help="Lighthouse's desktop preset (default: a phone)")
    parser.add_argument("--no-gzip", action="store_true", help="serve files uncompressed")
    parser.add_argument("--json", type=Path, help="also write every page's summary to this file")
    args = parser.parse_args()
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    ensure_lighthouse()

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "site"
        build_site(Config(out=folder))
        pages = args.pages or ["index.html", *sorted(p.name for p in folder.glob("[0-9]*.html")), "guide.html"]
        handler = type("Handler", (StaticHostHandler,), {"base": "/", "quiet": True,
                                                         "gzip_enabled": not args.no_gzip})
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
        serve_in_background(server)
        base = f"http://127.0.0.1:{server.server_port}/"
        print(f"lighthouse 12 on {len(pages)} pages, {'desktop' if args.desktop else 'phone (simulated slow 4G)'}, "
              f"{'uncompressed' if args.no_gzip else 'gzip'}")
        print(f"{'page':32} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'bytes':>10} {'reqs':>5}  "
              f"{'FCP ms':>7} {'LCP ms':>7} {'TBT ms':>7}  below goal")
        results = {}
        for name in pages:
            result = results[name] = summary(run_lighthouse(base + name, args.desktop, chrome))
            s, m = result["scores"], result["metrics"]
            below = [f"{c}: {', '.join(result['failing'][c]) or '?'}" for c in CATEGORIES if s[c] < GOALS[c]]
            print(f"{name:32} {s['performance']:5} {s['accessibility']:5} {s['best-practices']:5} {s['seo']:5} "
                  f"{result['bytes']:10,} {result['requests']:5}  {m['first-contentful-paint']:7.0f} "
                  f"{m['largest-contentful-paint']:7.0f} {m['total-blocking-time']:7.0f}  {'; '.join(below)}",
                  flush=True)
        server.shutdown()
    worst = {c: min(r["scores"][c] for r in results.values()) for c in CATEGORIES}
    print("lowest: " + ", ".join(f"{c} {worst[c]}" for c in CATEGORIES)
          + ("   (every goal met)" if all(worst[c] >= GOALS[c] for c in CATEGORIES) else "   (below the goal)"))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
