"""A malformed address (a `%` that starts no escape) throws nowhere, and old links in it still work.

`decodeURIComponent("%")` throws a URIError; the aliases script ran it on every page's #fragment, so
`#%` stopped it before it rewrote an old link, and the watched page reports the error."""
import re

import pytest
from playwright.sync_api import expect

OLD, NEW = "pause-1-1", "pause-jobs-at-the-start"


@pytest.mark.parametrize("fragment", ["%", "%E0%A4%A", "%%41", "pause-1-1%"])
def test_a_malformed_fragment_throws_nothing_and_the_old_query_is_still_rewritten(page, fixture_site, fragment):
    page.goto(fixture_site.at(f"01-queue.html?{OLD}.seed=3#{fragment}"))
    expect(page).to_have_url(re.compile(rf"\?{NEW}\.seed=3#"))   # the alias script ran to its end
    expect(page.locator(f"#{NEW}")).to_be_attached()
    # the watched page fails the test on any page error (tests/browser/conftest.py)


@pytest.mark.parametrize("query", ["sim-1.seed=%", f"{OLD}.seed=%", f"{OLD}.seed=%E0%A4%A&x=%"])
def test_a_malformed_query_throws_nothing_and_the_old_fragment_still_lands(page, fixture_site, query):
    page.set_viewport_size({"width": 1000, "height": 600})
    page.goto(fixture_site.at(f"01-queue.html?{query}#{OLD}"))
    expect(page).to_have_url(re.compile(rf"#{NEW}$"))
    expect(page.locator(f"#{NEW}")).to_be_in_viewport()


def test_an_encoded_old_fragment_is_still_honoured(page, fixture_site):
    page.set_viewport_size({"width": 1000, "height": 600})
    page.goto(fixture_site.at("01-queue.html#pause%2D1%2D1"))
    expect(page).to_have_url(re.compile(rf"#{NEW}$"))
    expect(page.locator(f"#{NEW}")).to_be_in_viewport()
