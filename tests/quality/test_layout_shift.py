"""Layout shift: nothing on a page moves once shown, while it loads, on a desktop screen (the
audit's 1280x900) and on a phone's (412x823, Lighthouse's phone). Lighthouse counts shifts as
a quarter of its performance score; this keeps that part of the score in the test suite."""
import pytest

from tests.quality.checks import report, usable
from tests.quality.site_pages import PAGES


@pytest.mark.parametrize("name", PAGES)
def test_nothing_moves_on_a_desktop_screen(audits, name):
    audit = audits(name)
    usable(audit)
    assert not audit.shifts, report(f"{name} (1280x900): layout shifts", audit.shifts)


@pytest.mark.parametrize("name", PAGES)
def test_nothing_moves_on_a_phone(phone_shifts, name):
    shifts = phone_shifts(name)
    assert not shifts, report(f"{name} (412x823): layout shifts", shifts)


def test_the_control_fixture_passes(audits, phone_shifts):
    assert audits(("fixture", "good.html")).shifts == []
    assert phone_shifts(("fixture", "good.html")) == []


def test_a_late_banner_fails(audits, phone_shifts):
    for shifts in (audits(("fixture", "layout-shift.html")).shifts, phone_shifts(("fixture", "layout-shift.html"))):
        assert shifts and all(" from y=" in line for line in shifts), shifts
