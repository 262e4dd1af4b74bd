"""content/SUMMARY.md: chapter order and titles, and every way it can be wrong."""
from builder.problems import Problems
from builder.summary import Chapter, load_summary
from tests.conftest import ROOT


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


def test_a_numbered_file_out_of_its_place_is_named_with_its_line(tmp_path):
    # The casebook (12-casebook.md) was listed before the glossary (11-glossary.md): its page,
    # 12-casebook.html, said "Chapter 11".
    summary = "# Summary\n\n- [A](00-a.md)\n- [Cases](02-cases.md)\n- [Words](01-words.md)\n"
    chapters, problems = _load(tmp_path, summary, ["00-a.md", "01-words.md", "02-cases.md"])
    assert problems == [
        "SUMMARY.md:4: 02-cases.md is chapter 1 here (its place in the list), but its file name says 2: "
        "list it in that place, or rename it, so its page and its heading agree",
        "SUMMARY.md:5: 01-words.md is chapter 2 here (its place in the list), but its file name says 1: "
        "list it in that place, or rename it, so its page and its heading agree",
    ]


def test_every_page_of_the_guide_says_the_number_its_file_name_says():
    problems = Problems()
    chapters = load_summary(ROOT / "content", problems)
    assert not list(problems)
    for chapter in chapters:
        assert chapter.label == f"Chapter {int(chapter.source.split('-')[0])}", chapter
    names = [c.source.split("-", 1)[1] for c in chapters]
    assert names.index("glossary.md") < names.index("casebook.md")   # the order its numbers once broke


def test_was_chapter_names_only_an_old_place(tmp_path):
    _, problems = _load(tmp_path, "- [A](a.md) (was chapter 0)\n- [B](b.md) (was chapters 1)\n", ["a.md", "b.md"])
    assert problems == [
        "SUMMARY.md:1: a.md is chapter 0 now: 'was chapter' names only the numbers it had before it moved",
        "SUMMARY.md:2: expected a chapter item '- [Title](file.md)', got '- [B](b.md) (was chapters 1)'",
        "b.md:1: chapter not listed in SUMMARY.md: add '- [Title](b.md)'",
    ]
