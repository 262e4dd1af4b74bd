"""An address from before a page was renamed or split still lands on what it pointed at, with its
query kept (builder/moved.py; the book: tests/build/moved_book.py)."""
import re

import pytest
from playwright.sync_api import expect

from tests.build.moved_book import make_moved_book
from tests.conftest import fixture_config
from tests.support.served import PageWatch, build, origin, serve


@pytest.fixture(scope="module")
def moved_site(tmp_path_factory):
    root = make_moved_book(tmp_path_factory.mktemp("moved-site") / "book")
    server, site = serve(build(fixture_config(root.parent / "site", root=root)))
    yield site
    server.shutdown()


@pytest.fixture
def moved_page(context, moved_site):
    page = context.new_page()
    watch = PageWatch(page, origin(moved_site.url))
    page.set_viewport_size({"width": 1000, "height": 600})
    yield page
    watch.check()


def test_a_renamed_page_forwards_with_its_query_and_old_box_number(moved_page, moved_site):
    moved_page.goto(moved_site.at("02-end.html?keep=1#pause-2-1"))
    expect(moved_page).to_have_url(re.compile(r"/03-end\.html\?keep=1#pause-3-1$"))
    expect(moved_page.get_by_role("link", name="Pause and check 3.1")).to_be_in_viewport()


def test_a_section_that_left_a_split_page_is_found_in_its_new_part(moved_page, moved_site):
    moved_page.goto(moved_site.at("01-long.html?keep=1#a-second-idea"))
    expect(moved_page).to_have_url(re.compile(r"/02-second\.html\?keep=1#a-second-idea$"))
    expect(moved_page.get_by_role("heading", name="A second idea")).to_be_in_viewport()


def test_an_old_page_in_parts_sends_each_fragment_to_its_part(moved_page, moved_site):
    moved_page.goto(moved_site.at("09-gone.html#afterwards"))
    expect(moved_page).to_have_url(re.compile(r"/03-end\.html#afterwards$"))
    expect(moved_page.get_by_role("heading", name="Afterwards")).to_be_in_viewport()


def test_without_javascript_the_old_page_still_forwards(browser, moved_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(moved_site.at("02-end.html#pause-2-1"))
    expect(page).to_have_url(re.compile(r"/03-end\.html$"))   # a refresh cannot keep the fragment
    expect(page.get_by_role("link", name="Pause and check 3.1")).to_be_attached()
    context.close()
