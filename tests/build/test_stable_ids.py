"""Ids that survive edits (issue 23): a pause box, callout or simulation may declare its id; its
old order-based id stays an alias (an anchor, and the page's data-aliases map); clashes stop the
build with file:line."""
import json
import re

import pytest

from builder import BuildError, build_site
from tests.build.book_maker import make_book
from tests.build.site_check import Page
from tests.conftest import fixture_config

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

