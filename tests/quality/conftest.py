"""Fixtures of the quality gates: the real site (tests/conftest.py's real_site, built once per
session) served at the root and under a sub-path; the broken fixture pages served the same way;
and each expensive result computed once per session and shared by every test that judges it (one
browser audit per page, one vnu run for every page, one crawl per base URL, one reading per page
with JavaScript off).

Chromium comes from tests/conftest.py (Debian's Chromium when installed).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.quality import links, vnu
from tests.quality.axe import axe_violations
from tests.quality.layout_shift import RECORD, layout_shifts
from tests.quality.no_js import read_without_js, reading_words
from tests.quality.page_audit import SAVE_DATA, audit_page
from tests.quality.site_pages import PAGES
from tests.support.served import BASE, serve

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SUB_PATH = BASE   # where the real site is served (tests/conftest.py's real_site)


def pytest_configure(config):
    config.addinivalue_line("markers", "quality: a site quality gate (tests/quality/)")


def pytest_collection_modifyitems(items):
    for item in items:
        path = item.nodeid.replace("\\", "/")
        if "tests/quality/" in path:
            item.add_marker(pytest.mark.quality)
            if "browser" in item.fixturenames or "audits" in item.fixturenames:
                item.add_marker(pytest.mark.browser)


@dataclasses.dataclass
class Served:
    """One folder served twice: at the root of a host and under a sub-path."""

    folder: Path
    root: str   # e.g. http://127.0.0.1:4321/
    sub: str    # e.g. http://127.0.0.1:4322/guide/

    def url(self, base: str) -> str:
        return self.root if base == "/" else self.sub


@pytest.fixture(scope="session")
def site(real_site):
    """The real guide (tests/conftest.py's `real_site`, built once per session), served under the
    sub-path as there and at the root of a second host."""
    server, at_root = serve(real_site.folder, "/")
    yield Served(real_site.folder, at_root.url, real_site.url)
    server.shutdown()


@pytest.fixture(scope="session")
def broken():
    """tests/quality/fixtures/ served like the site (each page breaks one check; good.html none)."""
    servers, sites = zip(*(serve(FIXTURES, base) for base in ("/", SUB_PATH)))
    yield Served(FIXTURES, sites[0].url, sites[1].url)
    for server in servers:
        server.shutdown()


class Cache:
    """Computes `make(key)` once per key, and remembers a failure to report it every time."""

    def __init__(self, make):
        self.make, self.done = make, {}

    def __call__(self, key):
        if key not in self.done:
            try:
                self.done[key] = (True, self.make(key))
            except Exception as error:   # noqa: BLE001
                self.done[key] = (False, f"{type(error).__name__}: {error}")
        ok, value = self.done[key]
        if not ok:
            pytest.fail(f"{key}: could not be checked: {value}", pytrace=False)
        return value


@pytest.fixture(scope="session")
def audits(browser, site, broken):
    """audits(page) for a real page under the sub-path; audits(("fixture", page)) for a broken one;
    audits(("root", page)) for a real page at the root, requests only (no axe, no controls)."""
    def make(key):
        where, name = key if isinstance(key, tuple) else ("site", key)
        if where == "fixture":
            return audit_page(browser, broken.sub + name, name)
        if where == "root":
            return audit_page(browser, site.root + name, name, axe=False, controls=False)
        return audit_page(browser, site.sub + name, name)
    return Cache(make)


@pytest.fixture(scope="session")
def validation(site):
    """vnu's errors for every page of the built site and every fixture page, from ONE run:
    {path relative to its folder: [errors]}; real pages are keyed by name, fixtures "fixtures/<name>"."""
    real = sorted(site.folder.glob("*.html"))
    fixtures = sorted(FIXTURES.glob("*.html"))
    try:
        found = vnu.validate(real + fixtures)
    except vnu.ValidatorMissing as error:
        pytest.fail(str(error), pytrace=False)
    named = {path.name: found.get(path.resolve(), []) for path in real}
    named.update({f"fixtures/{path.name}": found.get(path.resolve(), []) for path in fixtures})
    return named


@pytest.fixture(scope="session")
def crawls(site, broken):
    """crawls(base) -> the link crawl of the real site served at `base` ("/" or the sub-path);
    crawls(("fixture", page)) -> the crawl of one fixture page alone."""
    def make(key):
        if isinstance(key, tuple):
            return links.crawl(broken.sub, [key[1]], search_index=None)
        return links.crawl(site.url(key), PAGES)
    return Cache(make)


@pytest.fixture(scope="session")
def no_js(browser, site, broken):
    """no_js(page) -> (what a real page shows with JavaScript off, the reading words with it on);
    no_js(("fixture", page)) for a fixture page."""
    off = browser.new_context(java_script_enabled=False)
    on = browser.new_context()
    on.add_init_script(SAVE_DATA)   # simulations stay idle: only the page's text is compared
    off_page, on_page = off.new_page(), on.new_page()

    def make(key):
        where, name = key if isinstance(key, tuple) else ("site", key)
        url = (broken.sub if where == "fixture" else site.sub) + name
        reading = read_without_js(off_page, url, name)
        on_page.goto(url)
        return reading, reading_words(on_page)
    yield Cache(make)
    off.close()
    on.close()


PHONE = {"width": 412, "height": 823}   # Lighthouse's phone (a Moto G Power), in CSS pixels


def _on_a_phone(browser, site, broken, measure, *scripts):
    """A session's cache of measure(page) on pages loaded on a phone-sized screen: keys are a real
    page's name, or ("fixture", name) for a fixture page. Not is_mobile: Chromium 156's mobile
    emulation reports no layout shift at all."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1.75, has_touch=True)
    for script in scripts:
        context.add_init_script(script)
    page = context.new_page()

    def make(key):
        where, name = key if isinstance(key, tuple) else ("site", key)
        page.goto((broken.sub if where == "fixture" else site.sub) + name)
        page.wait_for_load_state("networkidle")
        return measure(page)
    yield Cache(make)
    context.close()


@pytest.fixture(scope="session")
def phone_shifts(browser, site, broken):
    """phone_shifts(page) -> the layout shifts of a real page loading on a phone-sized screen;
    phone_shifts(("fixture", page)) for a fixture page."""
    yield from _on_a_phone(browser, site, broken, layout_shifts, SAVE_DATA, RECORD)


@pytest.fixture(scope="session")
def phone_axe(browser, site, broken):
    """phone_axe(page) -> axe's violations on a real page loaded on a phone-sized screen, where
    the layout (and what is a target: the page contents fold behind a <summary>) differs from
    the desktop audit's; phone_axe(("fixture", page)) for a fixture page."""
    yield from _on_a_phone(browser, site, broken, axe_violations, SAVE_DATA)
