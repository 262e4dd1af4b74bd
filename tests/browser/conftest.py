"""Browser fixtures: a page that fails the test on any console error, page error, failed request
or request leaving the site.

The sites (`fixture_site`, `real_site`) and Chromium (`browser_type_launch_args`) come from
tests/conftest.py, the page watch from tests/support/served.py.
"""
from __future__ import annotations

import pytest

from tests.support.served import PageWatch, origin


def _watch(context, site):
    page = context.new_page()
    watch = PageWatch(page, origin(site.url))
    yield watch
    watch.check()


@pytest.fixture
def watched(context, fixture_site):
    """A new page in a fresh context, watched; the test fails if the page reported a problem."""
    yield from _watch(context, fixture_site)


@pytest.fixture
def page(watched):
    return watched.page


@pytest.fixture
def real_page(context, real_site):
    """A watched page, as `page`, for the real guide."""
    for watch in _watch(context, real_site):
        yield watch.page


@pytest.fixture
def no_js_page(browser, fixture_site):
    """A watched page in a context with JavaScript disabled."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    watch = PageWatch(page, origin(fixture_site.url))
    yield page
    context.close()
    watch.check()


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.browser)
