"""The estimated reading time of each chapter, computed at build time."""
import re

from builder import build_site
from builder.markdown import make_markdown
from builder.reading_time import reading_minutes
from tests.build.book_maker import make_book
from tests.conftest import ROOT, fixture_config


def _tokens(text):
    md = make_markdown(ROOT, lambda: {}, lambda context: "")
    from builder.markdown.env import new_env
    from builder.problems import Problems
    return md.parse(text, new_env("x.md", 0, Problems()))


def test_words_and_code_lines_make_the_minutes():
    assert reading_minutes(_tokens("word " * 10)) == 1                      # never less than a minute
    assert reading_minutes(_tokens("word " * 1000)) == 5                    # 200 words a minute
    code = "```python\n" + "x = 1\n" * 60 + "```\n"
    assert reading_minutes(_tokens("word " * 200 + "\n\n" + code)) == 3     # + 30 lines a minute


def test_each_chapter_shows_its_reading_time_and_the_contents_list_it(tmp_path):
    root = make_book(tmp_path / "book", {"00-a.md": "word " * 450, "01-b.md": "Short."})
    build_site(fixture_config(tmp_path / "site", root=root))
    first = (tmp_path / "site" / "00-a.html").read_text()
    assert '<span class="reading-time">About 3 minutes to read</span>' in first
    assert "About 1 minute to read" in (tmp_path / "site" / "01-b.html").read_text()
    index = (tmp_path / "site" / "index.html").read_text()
    assert re.findall(r'class="contents-minutes">([^<]*)<', index) == ["3 min", "1 min"]
