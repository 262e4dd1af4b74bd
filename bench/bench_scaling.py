"""How tinyq scales with workers: jobs per second and claim latency, SQLite against PostgreSQL.

    pg_virtualenv -t .venv/bin/python bench/bench_scaling.py     # the server for the run

For each engine and each number of worker processes (1, 2, 4, 8, 16, 32), it queues
JOBS_PER_WORKER jobs per worker (at least MIN_JOBS), starts the processes, lets them all go at
once, and each worker claims, "works" (sleeps WORK seconds, standing for a call to a mail
provider or a bank) and acks until the queue is empty. It records the wall time from "go" to
the last ack, and how long every claim() call took. SQLite runs in WAL mode with a 60 s busy
timeout, so a worker that meets the write lock waits for it rather than failing.

It writes bench/results/scaling.csv (the table) and content/figures/scaling.svg (the chart, drawn
here with no plotting library), which chapter 10 shows beside the table; `--redraw` draws the chart
again from the committed table without measuring. One run, one machine: compare the engines and
the shapes of the curves, not the absolute numbers.
"""
import csv
import html
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAPSTONE = ROOT / "code" / "capstone"
TABLE = ROOT / "bench" / "results" / "scaling.csv"
CHART = ROOT / "content" / "figures" / "scaling.svg"   # chapter 10's figure
WORKERS = (1, 2, 4, 8, 16, 32)
WORK = 0.01            # seconds each job "works"
JOBS_PER_WORKER = 40
MIN_JOBS = 200


def worker_main(engine, where):
    """One worker: connect, say ready, wait for go, then claim/work/ack until the queue is empty."""
    sys.path.insert(0, str(CAPSTONE))
    if engine == "sqlite":
        import tinyq
        queue = tinyq.Queue(where)
        queue.db.execute("PRAGMA busy_timeout = 60000")
    else:
        import tinyq_pg
        queue = tinyq_pg.Queue(where)
    print("ready", flush=True)
    sys.stdin.readline()
    claims, done = [], 0
    while True:
        started = time.perf_counter()
        job = queue.claim()
        claims.append(time.perf_counter() - started)
        if job is None:
            break
        time.sleep(WORK)
        queue.ack(job)
        done += 1
    print(json.dumps({"done": done, "claims": claims[:-1], "finished": time.time()}), flush=True)


def fill(engine, where, jobs):
    sys.path.insert(0, str(CAPSTONE))
    if engine == "sqlite":
        import tinyq
        for suffix in ("", "-wal", "-shm"):
            Path(where + suffix).unlink(missing_ok=True)
        queue = tinyq.Queue(where)       # tinyq puts a file in WAL mode itself
    else:
        import tinyq_pg
        queue = tinyq_pg.Queue(where)
        queue.db.execute("TRUNCATE jobs")
    with queue.transaction(queue.db):
        for n in range(jobs):
            queue.enqueue("work", {"n": n})
    queue.close()


def measure(engine, where, workers):
    """Run `workers` processes over a full queue; return a row of the table."""
    jobs = max(MIN_JOBS, JOBS_PER_WORKER * workers)
    fill(engine, where, jobs)
    command = [sys.executable, __file__, "--worker", engine, where]
    procs = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(workers)]
    for proc in procs:
        assert proc.stdout.readline().strip() == "ready"
    go = time.time()
    for proc in procs:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results = [json.loads(proc.communicate(timeout=600)[0]) for proc in procs]
    seconds = max(r["finished"] for r in results) - go
    claims = sorted(c for r in results for c in r["claims"])
    assert sum(r["done"] for r in results) == jobs, "a job was lost or done twice"
    return {"engine": engine, "workers": workers, "jobs": jobs,
            "jobs_per_second": round(jobs / seconds, 1),
            "claim_median_ms": round(1000 * statistics.median(claims), 2),
            "claim_p95_ms": round(1000 * claims[int(0.95 * (len(claims) - 1))], 2)}


NAMES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}
PANELS = (("jobs_per_second", "Jobs finished per second"), ("claim_median_ms", "Median claim time (ms)"))
# The guide's own colours (theme/css/00-tokens.css: --bg, --text, --text-muted, --border, and the
# simulations' two chart lines --sim-lease and --sim-line-2), light and dark. The page shows the SVG
# as an <img>, which the page's CSS cannot reach, so the SVG carries both sets and picks by the
# reader's colour scheme (Chromium and Firefox match it to the page's own `color-scheme`, so the
# site's light/dark switch reaches it too); each set is readable on its own background.
STYLE = """
.bg { fill: #fdfcfa; } .ink { fill: #1f2328; } .muted { fill: #56606b; }
.axis { stroke: #56606b; } .grid { stroke: #d9d5cc; }
.sqlite { stroke: #2b63ad; fill: #2b63ad; } .postgres { stroke: #a24e00; fill: #a24e00; }
@media (prefers-color-scheme: dark) {
  .bg { fill: #16181c; } .ink { fill: #e2e5e9; } .muted { fill: #a3acb7; }
  .axis { stroke: #a3acb7; } .grid { stroke: #363b43; }
  .sqlite { stroke: #6ea8ff; fill: #6ea8ff; } .postgres { stroke: #ffb86b; fill: #ffb86b; }
}
.line { fill: none; stroke-width: 2.5; } .postgres.line { stroke-dasharray: 7 4; }
"""


def _marker(engine, x, y):
    """SQLite's points are circles, PostgreSQL's squares: the lines differ in more than colour."""
    if engine == "sqlite":
        return f'<circle class="sqlite" cx="{x:.1f}" cy="{y:.1f}" r="4"/>'
    return f'<rect class="postgres" x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8"/>'


def _description(rows):
    """The chart's numbers in words, for the SVG's <desc>."""
    parts = []
    for engine in NAMES:
        mine = [r for r in rows if r["engine"] == engine]
        parts.append(f"{NAMES[engine]}: " + "; ".join(
            f"{r['workers']} worker{'s' if r['workers'] > 1 else ''}, {r['jobs_per_second']:g} jobs per "
            f"second, median claim {r['claim_median_ms']:g} ms" for r in mine) + ".")
    return ("Two line charts against the number of worker processes (1, 2, 4, 8, 16, 32), one run "
            "of bench/bench_scaling.py. " + " ".join(parts))


def chart(rows):
    """Two panels side by side, jobs per second and median claim time against workers, as an SVG
    (drawn here, no plotting library) with a <title> and the numbers in its <desc>."""
    width, height, pad = 760, 350, 60
    panel = (width - 3 * pad) / 2
    top, bottom = 70, height - 56
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" font-family="system-ui, sans-serif" font-size="13">',
             "<title>How tinyq scales with worker processes: SQLite and PostgreSQL</title>",
             f"<desc>{html.escape(_description(rows))}</desc>",
             f"<style>{STYLE}</style>",
             f'<rect class="bg" width="{width}" height="{height}"/>']
    for n, engine in enumerate(NAMES):                     # the legend, across the top
        x = pad + 170 * n
        parts.append(f'<line class="{engine} line" x1="{x}" y1="20" x2="{x + 36}" y2="20"/>')
        parts.append(_marker(engine, x + 18, 20))
        parts.append(f'<text class="ink" x="{x + 44}" y="25">{NAMES[engine]}</text>')
    for index, (key, title) in enumerate(PANELS):
        left = pad + index * (panel + pad)
        most = max(r[key] for r in rows) * 1.1 or 1

        def x(workers):
            return left + panel * WORKERS.index(workers) / (len(WORKERS) - 1)

        def y(value):
            return bottom - (bottom - top) * value / most

        parts.append(f'<text class="ink" x="{left}" y="{top - 14}" font-weight="bold">{title}</text>')
        for fraction in (0, 0.25, 0.5, 0.75, 1):
            value = most * fraction
            parts.append(f'<line class="grid" x1="{left}" y1="{y(value):.1f}" x2="{left + panel}" y2="{y(value):.1f}"/>')
            parts.append(f'<text class="muted" x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{value:.0f}</text>')
        parts.append(f'<line class="axis" x1="{left}" y1="{bottom}" x2="{left + panel}" y2="{bottom}"/>')
        parts.append(f'<line class="axis" x1="{left}" y1="{top}" x2="{left}" y2="{bottom}"/>')
        for workers in WORKERS:
            parts.append(f'<text class="muted" x="{x(workers):.1f}" y="{bottom + 18}" text-anchor="middle">{workers}</text>')
        parts.append(f'<text class="ink" x="{left + panel / 2:.1f}" y="{bottom + 40}" text-anchor="middle">'
                     f'worker processes</text>')
        for engine in NAMES:
            points = [(x(r["workers"]), y(r[key])) for r in rows if r["engine"] == engine]
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(f'<polyline class="{engine} line" points="{path}"/>')
            parts += [_marker(engine, px, py) for px, py in points]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def read_table(path=TABLE):
    """The committed table's rows, numbers as numbers."""
    return [{**r, "workers": int(r["workers"]), "jobs": int(r["jobs"]),
             "jobs_per_second": float(r["jobs_per_second"]), "claim_median_ms": float(r["claim_median_ms"]),
             "claim_p95_ms": float(r["claim_p95_ms"])} for r in csv.DictReader(path.open())]


def main():
    CHART.parent.mkdir(parents=True, exist_ok=True)
    if sys.argv[1:2] == ["--redraw"]:             # the chart again, from the committed table
        CHART.write_text(chart(read_table()), encoding="utf-8")
        return
    if "PGHOST" not in os.environ and "PGPORT" not in os.environ:
        sys.exit("bench_scaling.py needs a PostgreSQL server: run it under "
                 "pg_virtualenv -t (see the docstring), or set the PG* variables")
    sqlite_path = str(ROOT / "bench" / "results" / "scaling.db")
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for engine, where in (("sqlite", sqlite_path), ("postgres", "")):
        for workers in WORKERS:
            row = measure(engine, where, workers)
            print(row, flush=True)
            rows.append(row)
    for suffix in ("", "-wal", "-shm"):
        Path(sqlite_path + suffix).unlink(missing_ok=True)
    with TABLE.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    CHART.write_text(chart(rows), encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)} and {CHART.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker_main(sys.argv[2], sys.argv[3])
    else:
        main()
