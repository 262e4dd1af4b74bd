"""A failed build names `file:line: what is wrong`, exits non-zero, and leaves site/ as it was."""
import hashlib
import subprocess
import sys

import pytest

import builder.output
from builder import BuildError, build_site
from tests.build.book_maker import make_book
from tests.conftest import ROOT, fixture_config

CHART = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>A chart</title></svg>\n'
GOOD = {"a.md": "Text.\n\n## Part\n\nMore.\n", "b.md": "See [a](a.md#part).\n"}

FAILURES = [
    ("unknown extension", {"a.md": "Text.\n\n::: warning\nCareful.\n:::\n"}, None,
     "content/a.md:3: unknown block '::: warning'"),
    ("unclosed block", {"a.md": "Text.\n\n::: drills\nNever closed.\n"}, None,
     "content/a.md:3: '::: drills' is never closed"),
    ("missing include", {"a.md": "```include code/gone.py\n```\n"}, None,
     "content/a.md:1: 'code/gone.py': no such file"),
    ("link to a missing chapter", {"a.md": "Text\n\nand [z](z.md).\n"}, None,
     "content/a.md:3: link to z.md: no such chapter in SUMMARY.md"),
    ("link to a missing anchor", {"a.md": "## Part\n", "b.md": "See\n[a](a.md#whole).\n"}, None,
     "content/b.md:2: link to #whole: a.md has no such heading or box"),
    ("anchor missing in the chapter itself", {"a.md": "[up](#top)\n"}, None,
     "content/a.md:1: link to #top: this chapter has no such heading or box"),
    ("chapter missing from the order file", {"a.md": "A.\n", "extra.md": "E.\n"}, ["a.md"],
     "content/extra.md:1: chapter not listed in content/SUMMARY.md"),
    ("listed chapter that does not exist", {"a.md": "A.\n"}, ["a.md", "ghost.md"],
     "content/SUMMARY.md:4: ghost.md is listed but content/ghost.md does not exist"),
    ("bad sim parameter", {"a.md": "Intro.\n\n```sim counter\nworkers: 0\n---\nText.\n```\n"}, None,
     "content/a.md:3: sim counter: workers: must be from 1 to 8, got 0"),
    ("figure without a text alternative", {"a.md": "Text.\n\n![](figures/chart.svg)\n"}, None,
     "content/a.md:3: figure 'figures/chart.svg' has no text alternative"),
    ("missing figure", {"a.md": "Text.\n\n![A chart](figures/gone.svg)\n"}, None,
     "content/a.md:3: figure 'figures/gone.svg': content/figures/gone.svg does not exist"),
    ("transcript id used in two chapters", {"a.md": "```transcript id=t\n$ ls\n```\n",
                                            "b.md": "```transcript id=t\n$ ls\n```\n"}, None,
     "content/b.md:1: transcript id 't' is already used at content/a.md:1"),
]


def _fingerprint(folder):
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name,chapters,summary,expected", FAILURES, ids=[f[0] for f in FAILURES])
def test_problem_is_reported_at_its_line(tmp_path, name, chapters, summary, expected):
    make_book(tmp_path / "book", chapters, summary)
    with pytest.raises(BuildError) as failure:
        build_site(fixture_config(tmp_path / "site", root=tmp_path / "book"))
    assert any(str(p).startswith(expected) for p in failure.value.problems), str(failure.value)
    assert not (tmp_path / "site").exists()


def test_every_problem_is_reported_not_just_the_first(tmp_path):
    make_book(tmp_path / "book", {"a.md": "::: nope\n:::\n\n[x](y.md)\n", "b.md": "# Title\n"})
    with pytest.raises(BuildError) as failure:
        build_site(fixture_config(tmp_path / "site", root=tmp_path / "book"))
    assert [(p.path, p.line) for p in failure.value.problems] == [
        ("content/a.md", 1), ("content/a.md", 4), ("content/b.md", 1)]


def test_failed_build_leaves_the_previous_site_untouched(tmp_path):
    book, site = tmp_path / "book", tmp_path / "site"
    make_book(book, GOOD)
    build_site(fixture_config(site, root=book))
    before = _fingerprint(site)
    (book / "content" / "a.md").write_text("Broken [link](nowhere.md).\n")
    with pytest.raises(BuildError):
        build_site(fixture_config(site, root=book))
    assert _fingerprint(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book", "site"]   # no half-built folder left


def test_a_figure_gone_missing_leaves_the_previous_site_untouched(tmp_path):
    book, site = tmp_path / "book", tmp_path / "site"
    make_book(book, {**GOOD, "b.md": "See [a](a.md#part).\n\n![A chart](figures/chart.svg)\n"})
    (book / "content" / "figures").mkdir()
    (book / "content" / "figures" / "chart.svg").write_text(CHART, encoding="utf-8")
    build_site(fixture_config(site, root=book))
    before = _fingerprint(site)
    assert "figures/chart.svg" in before
    (book / "content" / "figures" / "chart.svg").unlink()
    with pytest.raises(BuildError) as failure:
        build_site(fixture_config(site, root=book))
    assert [str(p) for p in failure.value.problems] == [
        "content/b.md:3: figure 'figures/chart.svg': content/figures/chart.svg does not exist"]
    assert _fingerprint(site) == before


def test_failure_while_writing_leaves_the_previous_site_untouched(tmp_path, monkeypatch):
    book, site = tmp_path / "book", tmp_path / "site"
    make_book(book, GOOD)
    build_site(fixture_config(site, root=book))
    before = _fingerprint(site)

    def disk_full(folder, pages):
        (folder / "a.html").write_text("half")
        raise OSError("No space left on device")

    monkeypatch.setattr("builder.write_pages", disk_full)
    with pytest.raises(OSError):
        build_site(fixture_config(site, root=book))
    assert _fingerprint(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book", "site"]


def test_a_successful_build_replaces_the_site_from_scratch(tmp_path):
    book, site = tmp_path / "book", tmp_path / "site"
    make_book(book, GOOD)
    build_site(fixture_config(site, root=book))
    (site / "stale.html").write_text("old")
    build_site(fixture_config(site, root=book))
    assert not (site / "stale.html").exists() and (site / "a.html").exists()


def test_staging_swaps_only_on_success(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "kept").write_text("1")
    with pytest.raises(RuntimeError), builder.output.staging(out) as folder:
        (folder / "new").write_text("2")
        raise RuntimeError("stop")
    assert [p.name for p in out.iterdir()] == ["kept"]
    with builder.output.staging(out) as folder:
        (folder / "new").write_text("2")
    assert sorted(p.name for p in out.iterdir()) == [".guide-build", "new"]   # new, and marked as a build


@pytest.mark.parametrize("where", ["content", "the project", "a folder of other files", "new, inside content"])
def test_an_output_folder_the_build_did_not_write_is_refused_and_kept(tmp_path, where):
    book = tmp_path / "book"
    make_book(book, GOOD)
    out = {"content": book / "content", "the project": book, "a folder of other files": tmp_path / "precious",
           "new, inside content": book / "content" / "site"}[where]
    if where != "new, inside content":
        out.mkdir(exist_ok=True)
        (out / "thesis.txt").write_text("years of work")
    before = _fingerprint(tmp_path)
    with pytest.raises(BuildError) as failure:
        build_site(fixture_config(out, root=book))
    (problem,) = failure.value.problems
    assert "not an output folder" in problem.message and "choose" in problem.message, problem
    assert _fingerprint(tmp_path) == before                      # nothing deleted, nothing added
    assert not [p for p in tmp_path.rglob("*") if ".new-" in p.name or ".old-" in p.name]   # no staging left


def test_a_new_empty_or_earlier_output_folder_is_accepted(tmp_path):
    book = tmp_path / "book"
    make_book(book, GOOD)
    (tmp_path / "empty").mkdir()
    for out in (tmp_path / "new" / "site", tmp_path / "empty"):
        build_site(fixture_config(out, root=book))
        assert (out / "a.html").is_file() and (out / ".guide-build").is_file()
        build_site(fixture_config(out, root=book))   # its own earlier build is replaced
    legacy = tmp_path / "legacy"                       # a site built before the marker existed
    legacy.mkdir()
    (legacy / ".nojekyll").write_text("")
    (legacy / "search-index.json").write_text("[]")
    build_site(fixture_config(legacy, root=book))
    assert (legacy / "a.html").is_file()


def test_command_line_refuses_to_build_over_the_chapters(tmp_path):
    make_book(tmp_path / "book", GOOD)
    content = tmp_path / "book" / "content"
    before = _fingerprint(content)
    run = subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(tmp_path / "book"),
                          "--out", str(content)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1 and "not an output folder" in run.stderr, run.stderr
    assert _fingerprint(content) == before


def test_command_line_prints_file_line_and_exits_1(tmp_path):
    make_book(tmp_path / "book", {"a.md": "Intro.\n\n```include code/gone.py\n```\n"})
    run = subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(tmp_path / "book"),
                          "--out", str(tmp_path / "site")], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1
    assert run.stderr.splitlines()[0] == "content/a.md:3: 'code/gone.py': no such file"
    assert "site/ left as it was" in run.stderr


def test_command_line_builds(tmp_path):
    make_book(tmp_path / "book", GOOD)
    run = subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(tmp_path / "book"),
                          "--out", str(tmp_path / "site")], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("built 5 pages (2 chapters, 0 simulation embeds)")


def test_a_chapter_or_an_include_that_is_not_utf8_is_a_problem_at_its_line(tmp_path):
    book = tmp_path / "book"
    make_book(book, {"a.md": "Intro.\n\n```include code/latin1.py\n```\n", "b.md": "B.\n"})
    (book / "content" / "b.md").write_bytes(b"Caf\xc3\xa9 is UTF-8.\n\nBut this \xe9 is Latin-1.\n")
    (book / "code").mkdir(exist_ok=True)
    (book / "code" / "latin1.py").write_bytes(b"x = 1\nname = '\xe9'\n")
    with pytest.raises(BuildError) as failure:
        build_site(fixture_config(tmp_path / "site", root=book))
    found = [str(p) for p in failure.value.problems]
    assert "content/a.md:3: 'code/latin1.py': line 2: not UTF-8 text (byte 0xe9 at column 9); save the file as UTF-8" \
        in found, found
    assert any(p.startswith("content/b.md:3: not UTF-8 text (byte 0xe9") for p in found), found
    assert not (tmp_path / "site").exists()


def test_a_page_with_more_simulations_than_python_holds_fails_at_the_one_too_many(tmp_path, monkeypatch):
    from simulations import bridge
    monkeypatch.setattr(bridge, "MAX_LIVE", 2)   # the page's Python refuses a third (a page of many embeds, like the casebook)
    embed = "```sim counter\nworkers: 1\n---\nText.\n```\n\n"
    make_book(tmp_path / "book", {"a.md": "Intro.\n\n" + embed * 3})
    with pytest.raises(BuildError) as failure:
        build_site(fixture_config(tmp_path / "site", root=tmp_path / "book"))
    assert [str(p) for p in failure.value.problems] == [
        "content/a.md:15: this is the page's simulation number 3, and a page may hold at most 2 "
        "(simulations/bridge.py, MAX_LIVE): split the chapter, or raise MAX_LIVE"]
