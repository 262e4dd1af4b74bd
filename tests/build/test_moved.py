"""Renamed and split pages keep their addresses (builder/moved.py, content/moved.toml): an old page
forwards to the new one with its #fragment, a fragment that went to another part lands there, and
everything the reader navigates by (contents, previous/next, search) names only the new pages."""
import json
import re

import pytest

from builder import BuildError, build_site
from tests.build.moved_book import make_moved_book
from tests.build.site_check import Page, broken_links
from tests.conftest import fixture_config


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = make_moved_book(tmp_path_factory.mktemp("moved") / "book")
    out = root.parent / "site"
    build_site(fixture_config(out, root=root))
    return out


def _data(path, attribute):
    return json.loads(re.search(rf"{attribute}='([^']*)'", path.read_text())[1])


def test_a_renamed_page_leaves_a_forwarding_page_at_its_old_address(site):
    page = Page(site / "02-end.html")
    html = (site / "02-end.html").read_text()
    assert '<noscript><meta http-equiv="refresh" content="0; url=03-end.html"></noscript>' in html
    assert ("a", "href", "03-end.html") in page.links   # for a reader whose browser follows neither
    assert [src for tag, _, src in page.links if tag == "script"][0].startswith("assets/js/moved.js?v=")
    assert not page.inline_scripts   # the policy allows only the site's own files
    assert "script-src 'self'" in html
    assert re.search(r'<script src="assets/js/moved.js\?v=\w+" data-moved-to="03-end.html"', html)
    assert html.index('<meta charset="utf-8">') < 1024
    assert _data(site / "02-end.html", "data-fragments") == {}


def test_a_renamed_page_keeps_its_old_box_numbers_as_anchors(site):
    # 02-end.md's first box was pause-2-1; in 03-end.md it is pause-3-1.
    assert {"pause-3-1", "pause-2-1"} <= set(Page(site / "03-end.html").ids)


def test_a_split_page_sends_the_ids_that_left_to_the_part_holding_them(site):
    aliases = _data(site / "01-long.html", "data-aliases")
    assert aliases["a-second-idea"] == "02-second.html#a-second-idea"
    assert aliases["pause-1-2"] == "02-second.html#pause-2-1"   # its old order, in the old chapter
    assert aliases["pause-1-3"] == "02-second.html#pause-kept"
    assert aliases["sim-1"] == "02-second.html#sim-twice"
    assert aliases["sim-twice"] == "02-second.html#sim-twice"
    assert "further-reading" not in aliases   # the first part has one of its own
    assert "pause-1-1" not in aliases


def test_an_old_page_split_in_parts_forwards_each_fragment_to_its_part(site):
    fragments = _data(site / "09-gone.html", "data-fragments")
    assert fragments["pause-9-3"] == "03-end.html#pause-3-1"
    assert fragments["afterwards"] == "03-end.html#afterwards"
    assert "a-second-idea" not in fragments   # in the first part, where the page goes anyway
    links = {href for tag, _, href in Page(site / "09-gone.html").links if tag == "a"}
    assert {"02-second.html", "03-end.html"} <= links


def test_a_page_renamed_before_its_new_name_was_split_reaches_every_part(site):
    fragments = _data(site / "08-older.html", "data-fragments")
    assert fragments["a-second-idea"] == "02-second.html#a-second-idea"
    assert fragments["pause-8-2"] == "02-second.html#pause-2-1"
    assert "pause-8-1" not in fragments   # 01-long.html takes 8 as a former number: pause-8-1 is its box
    assert "pause-8-1" in Page(site / "01-long.html").ids


def test_contents_search_and_previous_next_name_only_the_new_pages(site):
    assert broken_links(site) == []
    index = (site / "search-index.json").read_text()
    assert "02-end.html" not in index and "09-gone.html" not in index and "03-end.html" in index
    second = Page(site / "02-second.html")
    assert ("link", "href", "03-end.html") in second.links and ("link", "href", "01-long.html") in second.links
    contents = {href for tag, _, href in Page(site / "index.html").links if tag == "a"}
    assert "03-end.html" in contents and "02-end.html" not in contents


@pytest.mark.parametrize("moved, words", [
    ('"02-end.md" = "07-nowhere.md"\n', "'07-nowhere.md': no chapter in SUMMARY.md has that file"),
    ('"01-long.md" = "02-second.md"\n', "01-long.md is still a chapter"),
    ('"02-end.md" = 3\n', "give the new file"),
    ('"02-end.md" = "09-gone.md"\n"09-gone.md" = "02-end.md"\n', "no chapter in SUMMARY.md has that file"),
])
def test_a_wrong_map_stops_the_build_at_its_line(tmp_path, moved, words):
    root = make_moved_book(tmp_path / "book", moved)
    with pytest.raises(BuildError) as caught:
        build_site(fixture_config(tmp_path / "site", root=root))
    assert "content/moved.toml:1: " in str(caught.value) and words in str(caught.value), str(caught.value)
