"""How tinyq scales with workers: jobs per second and claim latency, SQLite against PostgreSQL.

    pg_virtualenv -t .venv/bin/python bench/bench_scaling.py     # the server for the run

For each engine and each number of worker processes (1, 2, 4, 8, 16, 32), it queues
JOBS_PER_WORKER jobs per worker (at least MIN_JOBS), starts the processes, lets them all go at
once, and each worker claims, "works" (sleeps WORK seconds, standing for a call to a mail
provider or a bank) and acks until the queue is empty. It records the wall time from "go" to
the last ack, and how long every claim() call took. SQLite runs in WAL mode with a 60 s busy
timeout, so a worker that meets the write lock waits for it rather than failing.

It writes bench/results/scaling.csv (the table), scaling.txt (a bar chart drawn in text, which
chapter 10 shows as a diagram: the guide has no image files) and scaling.svg (the same as an
SVG drawn here, no plotting library). One run, one machine: compare the engines and the shapes
of the curves, not the absolute numbers.
"""
import csv
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
CHART = ROOT / "bench" / "results" / "scaling.svg"
BARS = ROOT / "bench" / "results" / "scaling.txt"   # the same, as text: chapter 10's diagram
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


def chart(rows):
    """Two panels side by side: jobs per second, and median claim latency, against workers."""
    width, height, pad = 760, 330, 56
    panel = (width - 3 * pad) / 2
    colours = {"sqlite": "#1f6fb2", "postgres": "#c2410c"}
    names = {"sqlite": "SQLite", "postgres": "PostgreSQL"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'font-family="sans-serif" font-size="12" role="img">',
             '<rect width="100%" height="100%" fill="#fff"/>']
    for index, (key, title) in enumerate((("jobs_per_second", "jobs per second"),
                                          ("claim_median_ms", "median claim (ms)"))):
        left = pad + index * (panel + pad)
        top, bottom = 40, height - 50
        top_value = max(r[key] for r in rows) * 1.1 or 1

        def x(workers):
            return left + panel * WORKERS.index(workers) / (len(WORKERS) - 1)

        def y(value):
            return bottom - (bottom - top) * value / top_value

        parts.append(f'<text x="{left}" y="24" font-weight="bold">{title}</text>')
        parts.append(f'<line x1="{left}" y1="{bottom}" x2="{left + panel}" y2="{bottom}" stroke="#333"/>')
        parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#333"/>')
        for fraction in (0, 0.5, 1):
            value = top_value * fraction
            parts.append(f'<text x="{left - 6}" y="{y(value) + 4}" text-anchor="end">{value:.0f}</text>')
        for workers in WORKERS:
            parts.append(f'<text x="{x(workers)}" y="{bottom + 16}" text-anchor="middle">{workers}</text>')
        parts.append(f'<text x="{left + panel / 2}" y="{bottom + 34}" text-anchor="middle">'
                     f'worker processes</text>')
        for engine, colour in colours.items():
            points = [(x(r["workers"]), y(r[key])) for r in rows if r["engine"] == engine]
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
            parts += [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{colour}"/>'
                      for px, py in points]
    for n, (engine, colour) in enumerate(colours.items()):
        parts.append(f'<rect x="{width - 250 + 120 * n}" y="12" width="14" height="4" fill="{colour}"/>')
        parts.append(f'<text x="{width - 230 + 120 * n}" y="18">{names[engine]}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def bars(rows, width=44):
    """Jobs per second as a bar chart in text, one bar per engine and number of workers."""
    top = max(r["jobs_per_second"] for r in rows)
    names = {"sqlite": "SQLite", "postgres": "PostgreSQL"}
    lines = ["jobs per second, by worker processes"]
    for workers in WORKERS:
        for engine in ("sqlite", "postgres"):
            row = next(r for r in rows if r["engine"] == engine and r["workers"] == workers)
            bar = "█" * max(1, round(width * row["jobs_per_second"] / top))
            label = f"{workers:>2} worker{'s' if workers > 1 else ''}" if engine == "sqlite" else ""
            lines.append(f"{label:<10} {names[engine]:<10} │{bar} {row['jobs_per_second']:g}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main():
    if sys.argv[1:2] == ["--redraw"]:             # the charts again, from the committed table
        rows = [{**r, "workers": int(r["workers"]), "jobs_per_second": float(r["jobs_per_second"]),
                 "claim_median_ms": float(r["claim_median_ms"])} for r in csv.DictReader(TABLE.open())]
        CHART.write_text(chart(rows), encoding="utf-8")
        BARS.write_text(bars(rows), encoding="utf-8")
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
    CHART.parent.mkdir(parents=True, exist_ok=True)
    CHART.write_text(chart(rows), encoding="utf-8")
    BARS.write_text(bars(rows), encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)}, {BARS.relative_to(ROOT)} and {CHART.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker_main(sys.argv[2], sys.argv[3])
    else:
        main()
