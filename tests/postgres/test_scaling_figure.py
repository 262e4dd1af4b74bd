"""Chapter 10's scaling chart and table are the benchmark's committed output, not retyped numbers."""
import csv
import importlib.util
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"
FIGURE = ROOT / "content" / "figures" / "scaling.svg"
CHAPTER = (ROOT / "content" / "13-the-real-world.md").read_text(encoding="utf-8")
SVG = "{http://www.w3.org/2000/svg}"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_scaling", ROOT / "bench" / "bench_scaling.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_chapters_figure_is_drawn_by_the_bench_from_its_table():
    bench = _bench()
    assert bench.CHART == FIGURE
    assert FIGURE.read_text(encoding="utf-8") == bench.chart(bench.read_table(RESULTS / "scaling.csv"))
    assert (RESULTS / "scaling-machine.txt").read_text(encoding="utf-8").count("cores") == 1
    assert "](figures/scaling.svg " in CHAPTER


def test_the_figure_has_a_title_the_numbers_in_its_desc_and_dark_colours():
    svg = ElementTree.parse(FIGURE).getroot()
    assert svg.find(f"{SVG}title").text.startswith("How tinyq scales")
    desc = svg.find(f"{SVG}desc").text
    for row in csv.DictReader((RESULTS / "scaling.csv").open()):
        assert f"{float(row['jobs_per_second']):g} jobs per second" in desc
    style = svg.find(f"{SVG}style").text
    assert "@media (prefers-color-scheme: dark)" in style
    assert "http" not in style and "href" not in FIGURE.read_text(encoding="utf-8")   # nothing fetched


def test_the_chapters_table_is_bench_scaling_csv_at_matched_durability():
    rows = {}
    for row in csv.DictReader((RESULTS / "scaling.csv").open()):
        rows.setdefault(int(row["workers"]), {})[row["engine"], row["durability"]] = row
    assert sorted(rows) == [1, 2, 4, 8, 16, 32]
    for workers, by_series in rows.items():
        assert by_series["sqlite", "durable"]["setting"] == "synchronous=FULL"
        assert by_series["postgres", "durable"]["setting"] == "fsync=on synchronous_commit=on"
        numbers = [by_series[series]["jobs_per_second"] for series in
                   (("sqlite", "durable"), ("sqlite", "relaxed"), ("postgres", "durable"),
                    ("postgres", "relaxed"))]
        line = f"| {workers} | " + " | ".join(numbers) + " |"
        assert line in CHAPTER, line
