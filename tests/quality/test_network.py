"""Network: loading each page and using every control (simulations started, every button,
field and option, search) requests nothing outside the site's own origin, and no request fails.
Checked with the site under a sub-path (/guide/, the full audit) and at a host's root (loading,
starting the simulations and searching)."""
import pytest

from tests.quality.checks import report, usable
from tests.quality.site_pages import PAGES


def _assert_stays_home(audit, where):
    usable(audit)
    assert not audit.outside, report(f"{audit.page} ({where}): requests to another origin", audit.outside)
    assert not audit.failed, report(f"{audit.page} ({where}): failed requests", audit.failed)


@pytest.mark.parametrize("name", PAGES)
def test_requests_stay_on_the_site_under_a_sub_path(audits, name):
    _assert_stays_home(audits(name), "under /guide/, every control used")


@pytest.mark.parametrize("name", PAGES)
def test_requests_stay_on_the_site_at_the_root(audits, name):
    _assert_stays_home(audits(("root", name)), "at /")


@pytest.mark.parametrize("name", PAGES)
def test_every_control_can_be_used(audits, name):
    audit = audits(name)
    usable(audit)
    assert not audit.widgets, report(f"{name}: simulations", audit.widgets)
    assert not audit.controls, report(f"{name}: controls that could not be used", audit.controls)
    assert "search 'lease'" in audit.controls_used


def test_the_control_fixture_passes(audits):
    audit = audits(("fixture", "good.html"))
    _assert_stays_home(audit, "fixture")
    assert "button 'Press me'" in audit.controls_used


def test_a_request_to_another_host_fails(audits):
    outside = audits(("fixture", "other-host.html")).outside
    assert outside == ["GET https://other-host.test/pixel.png"]


def test_a_control_that_leaves_the_site_fails(audits):
    audit = audits(("fixture", "other-host-on-click.html"))
    assert "button 'Leave the site'" in audit.controls_used
    assert any("https://other-host.test/track" in url for url in audit.outside), audit.outside


def test_a_missing_file_fails(audits):
    failed = audits(("fixture", "missing-file.html")).failed
    assert any("missing-picture.svg: HTTP 404" in line for line in failed), failed
