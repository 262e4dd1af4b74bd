"""The weight the exercise editor (CodeMirror 6, vendored by builder/codemirror.py) adds to a page
that reaches a judge widget: bytes of each vendored module, raw and gzipped (level 6, as a typical
static server sends them), and in all. Nothing is timed; no page loads it until the reader nears a
judge widget (theme/js/sims/judge.js imports code-editor.js then).

    .venv/bin/python bench/bench_editor_weight.py
"""
import gzip
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder.codemirror import vendor_codemirror  # noqa: E402
from builder.problems import Problems  # noqa: E402


def main():
    problems = Problems()
    files = vendor_codemirror(ROOT / "node_modules", str, problems)
    if list(problems):
        sys.exit("\n".join(map(str, problems)))
    editor = (ROOT / "theme/js/sims/code-editor.js").read_bytes()
    rows = [(path.rsplit("/", 1)[1], data) for path, data in files.items() if path.endswith(".js")]
    rows.append(("code-editor.js", editor))
    raw = zipped = 0
    for name, data in sorted(rows, key=lambda row: -len(row[1])):
        packed = len(gzip.compress(data, 6))
        raw, zipped = raw + len(data), zipped + packed
        print(f"{name:34} {len(data) / 1000:8.1f} KB {packed / 1000:8.1f} KB gzipped")
    print(f"{'in all (' + str(len(rows)) + ' modules)':34} {raw / 1000:8.1f} KB {zipped / 1000:8.1f} KB gzipped")


if __name__ == "__main__":
    main()
