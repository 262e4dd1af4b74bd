"""Console: no page logs an error or throws an uncaught exception, from loading it to using
every control (the page and its simulations' Python worker)."""
import pytest

from tests.quality.checks import report, usable
from tests.quality.site_pages import PAGES


@pytest.mark.parametrize("name", PAGES)
def test_no_console_error(audits, name):
    audit = audits(name)
    usable(audit)
    assert not audit.console, report(f"{name}: console", audit.console)


def test_the_control_fixture_passes(audits):
    assert audits(("fixture", "good.html")).console == []


def test_a_console_error_fails(audits):
    console = audits(("fixture", "console-error.html")).console
    assert any("fixture: a deliberate console error" in line for line in console), console


def test_an_uncaught_exception_fails(audits):
    console = audits(("fixture", "uncaught-error.html")).console
    assert any(line.startswith("uncaught:") and "a deliberate uncaught exception" in line for line in console), console
