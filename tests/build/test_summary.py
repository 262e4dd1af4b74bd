"""content/SUMMARY.md: chapter order and titles, and every way it can be wrong."""
from builder.problems import Problems
from builder.summary import Chapter, load_summary


def _load(tmp_path, summary, files=()):
    for name in files:
        (tmp_path / name).write_text("x")
    (tmp_path / "SUMMARY.md").write_text(summary)
    problems = Problems()
    chapters = load_summary(tmp_path, problems, shown=lambda p: p.name)
    return chapters, [str(p) for p in problems]


def test_order_titles_and_numbers_from_zero(tmp_path):
    chapters, problems = _load(tmp_path, "# Summary\n\n- [Start](00-a.md)\n* [Next: more](01-b.md)\n",
                               ["00-a.md", "01-b.md"])
    assert problems == []
    assert chapters == [Chapter(0, "Start", "00-a.md", 3), Chapter(1, "Next: more", "01-b.md", 4)]
    assert (chapters[1].url, chapters[1].slug, chapters[1].label) == ("01-b.html", "01-b", "Chapter 1")


def test_each_mistake_is_named_with_its_line(tmp_path):
    summary = "# Summary\n\n- [A](a.md)\n- [A again](a.md)\nsome prose\n- [Gone](gone.md)\n- [Deep](x/y.md)\n"
    chapters, problems = _load(tmp_path, summary, ["a.md", "stray.md"])
    assert [c.source for c in chapters] == ["a.md", "gone.md"]
    assert problems == [
        "SUMMARY.md:4: a.md is already listed on line 3",
        "SUMMARY.md:5: expected a chapter item '- [Title](file.md)', got 'some prose'",
        "SUMMARY.md:6: gone.md is listed but content/gone.md does not exist",
        "SUMMARY.md:7: 'x/y.md': a chapter is a .md file in content/",
        "stray.md:1: chapter not listed in SUMMARY.md: add '- [Title](stray.md)'",
    ]


def test_missing_summary(tmp_path):
    problems = Problems()
    assert load_summary(tmp_path, problems, shown=lambda p: p.name) == []
    assert [str(p) for p in problems] == ["SUMMARY.md: missing: it lists the chapters in reading order"]
