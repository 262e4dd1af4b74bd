"""Chapter 10's scaling chart, drawn from bench/results/scaling.csv with no plotting library.

Four lines in each of two panels (jobs finished per second, median claim time) against 1 to 32
worker processes: each engine at each durability. Colour and marker say the engine (SQLite: blue
circles, PostgreSQL: orange squares); the line says the durability (solid: durable, every commit
waits for the disk; dashed, hollow markers: relaxed), so no line is told apart by colour alone.
"""
import csv
import html

WORKERS = (1, 2, 4, 8, 16, 32)
SERIES = (("sqlite", "durable"), ("sqlite", "relaxed"), ("postgres", "durable"), ("postgres", "relaxed"))
LABELS = {("sqlite", "durable"): "SQLite, synchronous=FULL",
          ("sqlite", "relaxed"): "SQLite, synchronous=NORMAL",
          ("postgres", "durable"): "PostgreSQL, synchronous_commit=on",
          ("postgres", "relaxed"): "PostgreSQL, synchronous_commit=off"}
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
.line { fill: none; stroke-width: 2.5; } .relaxed.line { stroke-dasharray: 6 4; }
.relaxed.mark { fill: none; stroke-width: 2; }
"""


def _marker(engine, durability, x, y):
    """SQLite's points are circles, PostgreSQL's squares; relaxed ones are hollow."""
    cls = f"{engine} {durability} mark"
    if engine == "sqlite":
        return f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="4"/>'
    return f'<rect class="{cls}" x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8"/>'


def _description(rows):
    """The chart's numbers in words, for the SVG's <desc>."""
    parts = []
    for series in SERIES:
        mine = [r for r in rows if (r["engine"], r["durability"]) == series]
        parts.append(f"{LABELS[series]}: " + "; ".join(
            f"{r['workers']} worker{'s' if r['workers'] > 1 else ''}, {r['jobs_per_second']:g} jobs per "
            f"second, median claim {r['claim_median_ms']:g} ms" for r in mine) + ".")
    return ("Two line charts against the number of worker processes (1, 2, 4, 8, 16, 32), one run "
            "of bench/bench_scaling.py. " + " ".join(parts))


def chart(rows):
    """Two panels side by side, jobs per second and median claim time against workers, as an SVG
    with a <title> and the numbers in its <desc>."""
    width, height, pad = 760, 380, 60
    panel = (width - 3 * pad) / 2
    top, bottom = 100, height - 56
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" font-family="system-ui, sans-serif" font-size="13">',
             "<title>How tinyq scales with worker processes: SQLite and PostgreSQL, durable and relaxed</title>",
             f"<desc>{html.escape(_description(rows))}</desc>",
             f"<style>{STYLE}</style>",
             f'<rect class="bg" width="{width}" height="{height}"/>']
    for n, (engine, durability) in enumerate(SERIES):      # the legend: two rows of two
        x, y = pad + 330 * (n // 2), 20 + 24 * (n % 2)
        parts.append(f'<line class="{engine} {durability} line" x1="{x}" y1="{y}" x2="{x + 36}" y2="{y}"/>')
        parts.append(_marker(engine, durability, x + 18, y))
        parts.append(f'<text class="ink" x="{x + 44}" y="{y + 5}">{LABELS[engine, durability]}</text>')
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
        for engine, durability in SERIES:
            points = [(x(r["workers"]), y(r[key])) for r in rows
                      if (r["engine"], r["durability"]) == (engine, durability)]
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(f'<polyline class="{engine} {durability} line" points="{path}"/>')
            parts += [_marker(engine, durability, px, py) for px, py in points]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def read_table(path):
    """The table's rows, numbers as numbers."""
    return [{**r, "workers": int(r["workers"]), "jobs": int(r["jobs"]),
             "jobs_per_second": float(r["jobs_per_second"]), "claim_median_ms": float(r["claim_median_ms"]),
             "claim_p95_ms": float(r["claim_p95_ms"])} for r in csv.DictReader(path.open())]
