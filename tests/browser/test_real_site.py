"""The real guide (content/, with the real simulations): every page loads with no console
error, failed request or request elsewhere, and has its one <h1> and the chapter frame."""
import pytest
from playwright.sync_api import expect

from builder.summary import load_summary
from builder.problems import Problems
from tests.conftest import ROOT

CHAPTERS = [c.url for c in load_summary(ROOT / "content", Problems())]


@pytest.mark.parametrize("name", ["index.html", "guide.html", *CHAPTERS])
def test_page_loads_clean(real_page, real_site, name):
    real_page.goto(real_site.at(name))
    real_page.wait_for_load_state("networkidle")
    expect(real_page.get_by_role("heading", level=1)).to_have_count(1)
    expect(real_page.get_by_role("navigation", name="Chapters")).to_be_attached()
