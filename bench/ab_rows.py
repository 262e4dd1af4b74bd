"""The live queue's smoothness rows (64 workers and up, at each speed) on two or more checkouts, interleaved in one run (a shared machine's load drifts):
chapter 3's live queue played on each build in turn, bench_widgets.smoothness()'s figures, or with
--trace the main thread's breakdown (main_thread.py) and its CPU time, or with --inval what made
style and layout be recomputed.

    .venv/bin/python bench/ab_rows.py --variant base=/tmp/base --variant new=. \
        --variant base-reduced=/tmp/base:reduce --row 64:5000:1 --row 64:5000:5

A variant is NAME=ROOT (a checkout, e.g. `git archive main | tar -x -C /tmp/base`, with a
node_modules link) and ":reduce" plays it with reduced motion; a row is WORKERS:JOBS:SPEED."""
import argparse, os, sys, tempfile
from pathlib import Path
WT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(WT), str(WT / "bench")]
from playwright.sync_api import sync_playwright
from builder import Config, build_site
from builder.serve import make_server, serve_in_background
from bench_browser import CHROMIUM_ARGS, chromium_path
import bench_widgets, main_thread

class Reduced:
    def __init__(self, browser): self.b = browser
    def new_context(self, **kw): return self.b.new_context(reduced_motion="reduce", **kw)
    def __getattr__(self, name): return getattr(self.b, name)

p = argparse.ArgumentParser()
p.add_argument("--variant", action="append", required=True)
p.add_argument("--row", action="append", required=True)
p.add_argument("--seconds", type=float, default=10)
p.add_argument("--repeat", type=int, default=1)
p.add_argument("--trace", action="store_true")
p.add_argument("--inval", action="store_true")
p.add_argument("--lead-in", type=float, default=None, help="with --trace: seconds of play before the trace starts (default 1; 3 with --inval)")
p.add_argument("--long", action="store_true", help="with --trace: what each long task is made of")
p.add_argument("--cpu-slowdown", type=float, default=1, help="slow the page's CPU this many times while it plays")
a = p.parse_args()
variants = []
with tempfile.TemporaryDirectory() as temp, sync_playwright() as pw:
    for spec in a.variant:
        name, rest = spec.split("=", 1)
        root, _, flag = rest.partition(":")
        site = Path(temp) / name
        build_site(Config(root=Path(root), out=site))
        server = make_server(site, port=0, quiet=True)
        serve_in_background(server)
        variants.append((name, f"http://127.0.0.1:{server.server_port}/", flag == "reduce"))
    browser = pw.chromium.launch(args=CHROMIUM_ARGS, executable_path=chromium_path())
    print("load", os.getloadavg(), flush=True)
    for row in a.row:
        w, j, speed = row.split(":")
        query = f"?sim-1.workers={w}&sim-1.jobs={j}#sim-1"
        for rep in range(a.repeat):
            for name, url, reduce in variants:
                b = Reduced(browser) if reduce else browser
                if a.trace or a.inval:
                    cats = main_thread.INVALIDATIONS if a.inval else main_thread.CATEGORIES
                    r = bench_widgets.smoothness(b, url, "03-the-queue.html", query, speed, trace=cats, seconds=5 if not a.inval else 2, lead_in=a.lead_in if a.lead_in is not None else 1 if not a.inval else 3, slowdown=a.cpu_slowdown)
                    print(f"{name:10} {w}w {j}j {speed}x: {len(r['long'])} long, {r['fps']:.1f} fps (traced)")
                    if a.inval:
                        for count, what in main_thread.invalidations(r["trace"], 16):
                            print(f"      {count:6} {what}")
                    else:
                        ev = r["trace"]["traceEvents"]
                        th = main_thread.main_thread(ev)
                        import collections
                        cpu = collections.Counter(); wall = collections.Counter(); n = collections.Counter()
                        for e in ev:
                            if (e.get("pid"), e.get("tid")) == th and e.get("ph") == "X" and e.get("name") in ("ThreadControllerImpl::RunTask", "RunTask"):
                                cpu[e["name"]] += e.get("tdur", 0); wall[e["name"]] += e.get("dur", 0); n[e["name"]] += 1
                            if (e.get("pid"), e.get("tid")) == th and e.get("name") in ("FireAnimationFrame", "Paint", "Layout", "UpdateLayoutTree", "PrePaint"):
                                n[e["name"]] += 1
                        # Each task's CPU time on the main thread (tdur): unlike its wall time, not
                        # stretched by other processes on a loaded machine. With --cpu-slowdown N, a
                        # task of more than 50/N ms CPU is a long task on an idle machine.
                        cpu_ms = sorted((e.get("tdur", 0) / 1000 for e in ev if (e.get("pid"), e.get("tid")) == th and e.get("ph") == "X"
                                         and e.get("name") == "ThreadControllerImpl::RunTask"), reverse=True)
                        limit = 50 / a.cpu_slowdown
                        print(f"      tasks over {limit:g} ms of CPU: {sum(ms > limit for ms in cpu_ms)}; the longest: {' '.join(f'{ms:.0f}' for ms in cpu_ms[:6])} ms", flush=True)
                        print("      top-level tasks cpu s", {k: round(v/1e6, 3) for k, v in cpu.items()}, "wall s", {k: round(v/1e6, 3) for k, v in wall.items()}, dict(n), "virtual", r["virtual"])
                        for line in main_thread.lines(main_thread.breakdown(r["trace"], 5), "      "):
                            print(line)
                        for ms, starts, top in main_thread.long_tasks(r["trace"]) if a.long else []:
                            print(f"      long task {ms:.0f} ms: " + "; ".join(f"{n} {t:.1f}" for n, t in top))
                            print("        started by: " + " | ".join(starts))
                else:
                    r = bench_widgets.smoothness(b, url, "03-the-queue.html", query, speed, seconds=a.seconds, slowdown=a.cpu_slowdown)
                    s = r["spent"]
                    print(f"{name:10} {w}w {j}j {speed:>4}x: long {len(r['long']):3} ({max(r['long'], default=0):4.0f} ms) fps {r['fps']:5.1f} virt {r['virtual']:6.1f} | script {s['ScriptDuration']:.2f} style {s['RecalcStyleDuration']:.2f} layout {s['LayoutDuration']:.2f} all {s['TaskDuration']:.2f}", flush=True)
    print("load", os.getloadavg())
