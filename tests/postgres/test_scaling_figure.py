"""Chapter 10's scaling chart and table are the benchmark's committed output, not retyped numbers."""
import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"
CHAPTER = (ROOT / "content" / "10-the-real-world.md").read_text(encoding="utf-8")


def test_the_chapters_chart_is_bench_scaling_txt():
    drawing = (RESULTS / "scaling.txt").read_text(encoding="utf-8").rstrip("\n")
    assert "\n---\n" + drawing + "\n```" in CHAPTER


def test_the_chapters_table_is_bench_scaling_csv():
    rows = {}
    for row in csv.DictReader((RESULTS / "scaling.csv").open()):
        rows.setdefault(int(row["workers"]), {})[row["engine"]] = row
    assert sorted(rows) == [1, 2, 4, 8, 16, 32]
    for workers, by_engine in rows.items():
        sqlite, postgres = by_engine["sqlite"], by_engine["postgres"]
        line = (f"| {workers} | {sqlite['jobs_per_second']} | {sqlite['claim_median_ms']} | "
                f"{postgres['jobs_per_second']} | {postgres['claim_median_ms']} |")
        assert line in CHAPTER, line
