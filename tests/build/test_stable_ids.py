"""Ids that survive edits: a pause box, callout or simulation may declare its id; its
old order-based id stays an alias (an anchor, and the page's data-aliases map); clashes stop the
build with file:line."""
import json
import re

import pytest

from builder import BuildError, build_site
from builder.problems import Problems
from builder.summary import load_summary
from tests.build.book_maker import make_book
from tests.build.site_check import Page
from tests.conftest import ROOT, fixture_config

CHAPTER = """Some text.

:::: pause
First, numbered.

::: answer
Yes.
:::
::::

:::: pause id=why-a-lease
Second, declared.

::: answer
No.
:::
::::

::: drills id=try-it
Try it.
:::

```sim counter id=two-workers
workers: 2
---
Two workers.
```
"""


def _build(tmp_path, text):
    root = make_book(tmp_path / "book", {"00-a.md": text})
    out = tmp_path / "site"
    build_site(fixture_config(out, root=root))
    return out


def test_declared_ids_replace_numbers_and_keep_the_numbers_as_aliases(tmp_path):
    out = _build(tmp_path, CHAPTER)
    page = Page(out / "00-a.html")
    assert {"pause-0-1", "pause-why-a-lease", "drills-try-it", "sim-two-workers"} <= set(page.ids)
    html = (out / "00-a.html").read_text()
    aliases = json.loads(re.search(r"data-aliases='([^']*)'", html)[1])
    assert aliases == {"pause-0-2": "pause-why-a-lease", "drills-0-1": "drills-try-it", "sim-1": "sim-two-workers"}
    # The old id is an anchor at the start of the box (works without JavaScript).
    assert re.search(r'id="pause-why-a-lease"[^>]*>\n<span class="id-alias" id="pause-0-2"></span>', html)
    assert '<span class="id-alias" id="sim-1"></span><div class="sim-stage" data-stage-for="sim-two-workers">' in html
    assert "Pause and check 0.2" in html   # the label still counts boxes in order
    guide = Page(out / "guide.html")
    assert {"ch0-pause-why-a-lease", "ch0-pause-0-2"} <= set(guide.ids)
    assert ("a", "href", "00-a.html#sim-two-workers") in guide.links   # the card links the stable id


@pytest.mark.parametrize("text, line, words", [
    (":::: pause id=same\nA\n\n::: answer\nB\n:::\n::::\n\n:::: pause id=same\nC\n\n::: answer\nD\n:::\n::::\n",
     9, "'pause-same' is already used on line 1"),
    (":::: pause\nA\n\n::: answer\nB\n:::\n::::\n\n:::: pause id=0-1\nC\n\n::: answer\nD\n:::\n::::\n",
     9, "'pause-0-1' is already used on line 1"),
    (":::: pause id=Bad_Name\nA\n\n::: answer\nB\n:::\n::::\n", 1, "unexpected text after ':::: pause'"),
    ("```sim counter id=x y\n---\nText.\n```\n", 1, "name one simulation, and optionally its id"),
])
def test_a_clash_or_a_bad_id_stops_the_build_at_its_line(tmp_path, text, line, words):
    with pytest.raises(BuildError) as caught:
        _build(tmp_path, text)
    assert f"content/00-a.md:{line}: " in str(caught.value) and words in str(caught.value), str(caught.value)



MOVED = """:::: pause id=declared
First.

::: answer
Yes.
:::
::::

:::: pause
Second, numbered.

::: answer
No.
:::
::::

::: drills id=try-it
Try it.
:::
"""
HELD = ":::: pause\nThe box now numbered 1.1.\n\n::: answer\nYes.\n:::\n::::\n"


def test_a_chapter_that_moved_keeps_the_numbered_ids_of_its_old_place(tmp_path):
    """The casebook was chapter 11 before the glossary came first: its `pause-11-N` links land."""
    root = make_book(tmp_path / "book", {"00-a.md": "Start.\n", "01-held.md": HELD, "02-moved.md": MOVED})
    (root / "content" / "SUMMARY.md").write_text(
        "# Summary\n\n- [A](00-a.md)\n- [Held](01-held.md)\n- [Moved](02-moved.md) (was chapter 1)\n")
    out = tmp_path / "site"
    build_site(fixture_config(out, root=root))
    html = (out / "02-moved.html").read_text()
    aliases = json.loads(re.search(r"data-aliases='([^']*)'", html)[1])
    assert aliases == {"pause-2-1": "pause-declared", "pause-1-1": "pause-declared",
                       "pause-1-2": "pause-2-2", "drills-2-1": "drills-try-it", "drills-1-1": "drills-try-it"}
    assert re.search(r'id="pause-declared"[^>]*>\n<span class="id-alias" id="pause-2-1"></span>'
                     r'<span class="id-alias" id="pause-1-1"></span>', html)
    assert re.search(r'id="pause-2-2"[^>]*>\n<span class="id-alias" id="pause-1-2"></span>', html)
    assert "Pause and check 2.2" in html   # the label is the box's place today
    # On the all-in-one page the chapter was section ch1: its old ids there land too, except one
    # the chapter now in that place uses itself (ch1-pause-1-1 is Held's own box).
    ids = Page(out / "guide.html").ids
    assert {"ch2-pause-1-1", "ch2-pause-1-2", "ch1-pause-1-2", "ch1-drills-1-1"} <= set(ids)
    assert ids.count("ch1-pause-1-1") == 1 and ids.index("ch1-pause-1-1") < ids.index("ch2")


def test_the_summary_names_a_chapters_old_place(tmp_path):
    (tmp_path / "00-a.md").write_text("x")
    (tmp_path / "01-b.md").write_text("x")
    (tmp_path / "SUMMARY.md").write_text("- [A](00-a.md) (was chapter 1)\n- [B](01-b.md) (was chapter 3, 0)\n")
    problems = Problems()
    chapters = load_summary(tmp_path, problems)
    assert not list(problems)
    assert [c.former for c in chapters] == [(1,), (3, 0)]


def test_the_casebook_keeps_its_chapter_11_links():
    problems = Problems()
    casebook = next(c for c in load_summary(ROOT / "content", problems) if c.source.endswith("-casebook.md"))
    assert 11 in casebook.former   # and content/moved.toml gives it the numbers its file had since
