"""A before/after pair in one embed (builder/markdown/sim.py, `compare:`): the fix's settings go to
the widget as data-compare, its old ids (declared and order-based) lead to the pair, both runs'
endings print, and a malformed line stops the build at the fence's line."""
import json
import re
from html import unescape

import pytest

from builder import BuildError, build_site
from tests.build.book_maker import make_book
from tests.conftest import fixture_config

PAIR = """Some text.

```sim counter id=naive
mode: naive
workers: 2
compare: id=atomic mode=atomic seed=3
---
The naive claim.

The atomic claim.
```

```sim counter id=after
---
The next one.
```
"""


def _build(tmp_path, text):
    root = make_book(tmp_path / "book", {"00-a.md": text})
    out = tmp_path / "site"
    build_site(fixture_config(out, root=root))
    return (out / "00-a.html").read_text()


def test_a_pair_is_one_widget_with_the_fix_in_data_compare(tmp_path):
    html = _build(tmp_path, PAIR)
    assert html.count('class="sim"') == 2
    fix = json.loads(unescape(re.search(r"""id="sim-naive"[^>]*data-compare='([^']*)'""", html)[1]))
    assert fix == {"mode": "atomic", "workers": 2, "seed": 3}       # the incident's, with its own on top
    aliases = json.loads(re.search(r"data-aliases='([^']*)'", html)[1])
    # the fix's id and its place's sim-N lead to the pair; the next embed keeps its old number
    assert aliases == {"sim-1": "sim-naive", "sim-atomic": "sim-naive", "sim-2": "sim-naive", "sim-3": "sim-after"}
    assert '<span class="id-alias" id="sim-atomic"></span>' in html
    assert html.count('class="sim-print sim-print-chapter"') == 3    # both runs' endings, and the next's


@pytest.mark.parametrize("line, words", [
    ("compare: mode=atomic oops", "compare: 'oops' is not name=value"),
    ("compare: id=Bad_Id mode=atomic", "compare: id 'Bad_Id'"),
    ("compare: id=fix", "compare: name at least one parameter"),
    ("compare: colour=red", "compare: 'colour' is not a parameter of counter"),
    ("compare: workers=99", "workers"),
])
def test_a_malformed_compare_line_stops_the_build_at_the_fence(tmp_path, line, words):
    text = f"```sim counter id=x\n{line}\n---\nText.\n```\n"
    with pytest.raises(BuildError) as caught:
        _build(tmp_path, text)
    assert "content/00-a.md:1: " in str(caught.value) and words in str(caught.value), str(caught.value)


def test_the_pair_box_puts_the_fix_picture_beside_the_live_one_renamed():
    from builder.markdown.sim_pair import pair_box
    live = ('<div class="sim-widget"><p data-part="outcome">x</p><figure class="pay-picture" data-part="picture">'
            '<figcaption id="a-cap">incident</figcaption><div role="img" aria-labelledby="a-cap"><div>1</div></div>'
            '</figure><p>after</p></div>')
    fix = live.replace("incident", "fix").replace("<div>1</div>", "<div>2</div>")
    html = pair_box(live, fix)
    assert html.count('class="pay-picture"') == 2 and html.endswith("<p>after</p></div>")
    kept = html[html.index('data-run="kept"'):]
    assert "fix" in kept and "<div>2</div>" in kept and 'data-twin-part="picture"' in kept
    assert " id=" not in kept and "aria-labelledby" not in kept and 'data-part="picture"' not in kept
    live_side = html[html.index('data-run="live"'):html.index('data-run="kept"')]
    assert 'data-part="picture"' in live_side and 'id="a-cap"' in live_side and "<div>1</div>" in live_side
    assert pair_box("<div>no picture</div>", fix) == "<div>no picture</div>"
