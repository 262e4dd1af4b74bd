"""HTML: the Nu HTML Checker (vnu) finds no error in any page of the built site.

Every page, and every fixture page, goes through ONE vnu run (the `validation` fixture)."""
import pytest

from tests.quality.checks import report
from tests.quality.site_pages import PAGES


@pytest.mark.parametrize("name", PAGES)
def test_page_is_valid_html(validation, name):
    assert not validation[name], report(f"{name}: vnu", validation[name])


def test_the_control_fixture_is_valid(validation):
    assert validation["fixtures/good.html"] == []


def test_an_unclosed_tag_fails(validation):
    errors = validation["fixtures/unclosed-tag.html"]
    assert any("Unclosed element “div”" in error for error in errors), errors


def test_an_image_without_alt_is_invalid_html_too(validation):
    errors = validation["fixtures/missing-alt.html"]
    assert any("alt" in error for error in errors), errors
