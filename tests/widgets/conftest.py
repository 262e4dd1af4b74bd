"""Fixtures for the simulation widgets' browser tests: the real guide (tests/conftest.py's
`real_site`, built once per session), a server that can break Pyodide on purpose, and one page
per test module (Pyodide starts cold in every new browser context: a few seconds each).

Every page is watched (tests/support/served.py's PageWatch): a console error, a page error, a
failed request, an HTTP error or a request that leaves the site fails the test module, unless the
test says which failures it caused on purpose.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from builder.serve import SiteHandler
from tests.support.served import PageWatch, origin, serve

READY = 60_000   # ms: a cold Pyodide start takes a few seconds here, far more on a loaded machine
LONG = 90_000    # ms: what a whole run may take to be drawn on a loaded 2-core machine


BROWSER_FIXTURES = {"browser", "page", "module_page", "fresh_page", "faulty_site"}


def pytest_collection_modifyitems(items):
    for item in items:
        here = "tests/widgets/" in item.nodeid.replace("\\", "/")
        if here and BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


class Sim:
    """One widget on a page, found by its simulation's name (the first such) or its id."""

    def __init__(self, page, name: str | None = None, *, id: str | None = None):
        self.page = page
        selector = f"#{id}" if id else f'.sim[data-sim="{name}"]'
        self.root = page.locator(selector).first

    @property
    def id(self) -> str:
        return self.root.get_attribute("id")

    def state(self) -> str:
        return self.root.get_attribute("data-state")

    def wait(self, state: str, timeout: int = READY) -> None:
        self.page.wait_for_selector(f'#{self.id}[data-state="{state}"]', timeout=timeout)

    def start(self, folds: bool = True) -> "Sim":
        """Press Start (a click event, before the widget scrolls into view and starts by itself),
        scroll to the widget and wait until it is ready. `folds`: then open its folds (settings,
        figures, tables, log: closed to start with), as a reader who uses them does."""
        if self.state() == "idle":
            # By its data-action, not its role: the widget may start itself (scrolled near) between
            # the check and the click, which hides the button from the accessibility tree, and a
            # role locator would then wait for it in vain; the widget ignores a late Start.
            self.root.locator('[data-action="start"]').dispatch_event("click")
        self.root.scroll_into_view_if_needed()
        self.wait("ready")
        if folds:
            self.open_folds()
        return self

    def open_folds(self) -> None:
        """Open every fold of the widget (<details data-fold>), as clicking each summary would."""
        self.root.evaluate("root => root.querySelectorAll('details[data-fold]').forEach((fold) => { fold.open = true; })")

    def button(self, name: str):
        return self.root.get_by_role("button", name=name, exact=True)

    def field(self, label: str):
        return self.root.get_by_label(label, exact=True)

    def row(self, job_id) -> "object":
        return self.root.locator(f'tbody[data-part="jobs"] tr[data-key="{job_id}"]')

    def cells(self, job_id) -> list[str]:
        return self.row(job_id).locator("th, td").all_inner_texts()

    def part(self, name: str):
        return self.root.locator(f'[data-part="{name}"]')

    def log(self) -> str:
        return self.part("log").inner_text()

    def outcome(self) -> str:
        return self.part("outcome").inner_text()

    def time(self) -> float:
        return float(self.part("time").inner_text().split()[0])

    def set_speed(self, value: str) -> None:
        self.root.locator('[data-control="speed"]').select_option(value)

    def run_to_the_end(self, verdict: str | None = None, outcome: str | None = None, *,
                       whole: bool = True) -> None:
        """Press "Run to the end", wait until the run is over (Play becomes "Play again"), then
        for the verdict and the outcome given: the whole outcome text, or (whole=False) a part."""
        from playwright.sync_api import expect
        self.button("Run to the end").click()
        expect(self.button("Play again")).to_be_visible(timeout=LONG)
        if verdict is not None:
            expect(self.part("verdict")).to_have_text(verdict, timeout=LONG)
        if outcome is not None:
            shows = expect(self.part("outcome"))
            (shows.to_have_text if whole else shows.to_contain_text)(outcome, timeout=LONG)

    def pause(self) -> None:
        """Press Pause if the run still plays (a live queue whose every job is done stops by
        itself: a check, then a click, could race it), in the page at once; then Play shows."""
        from playwright.sync_api import expect
        self.root.evaluate("root => root.dataset.playing && root.querySelector('[data-action=\"play\"]').click()")
        expect(self.button("Play")).to_be_visible()

    def run_until(self, locator_text_pairs, timeout: int = 60_000) -> None:
        """Press Play, wait until every (locator, text) pair shows its text, then pause."""
        from playwright.sync_api import expect
        self.button("Play").click()
        for locator, text in locator_text_pairs:
            expect(locator).to_contain_text(text, timeout=timeout)
        pause = self.button("Pause")
        if pause.is_visible():
            pause.click()


def new_watched_page(browser, site, **context_options):
    context = browser.new_context(**context_options)
    page = context.new_page()
    watch = PageWatch(page, origin(site.url))
    page.on("dialog", lambda dialog: (watch.problems.append(f"dialog opened: {dialog.message}"), dialog.dismiss()))
    return context, page, watch


def _checked_page(browser, site):
    """A watched page in a new context (page.watch), closed and checked when the fixture ends."""
    context, page, watch = new_watched_page(browser, site)
    page.watch = watch
    yield page
    context.close()
    watch.check()


@pytest.fixture(scope="module")
def module_page(browser, real_site):
    """One watched page for a whole test module (one cold Pyodide start); checked at the end."""
    yield from _checked_page(browser, real_site)


@pytest.fixture
def fresh_page(browser, real_site):
    """A watched page in a new context (a cold start of its own), checked after the test."""
    yield from _checked_page(browser, real_site)


class FaultySite:
    """The real site served by a handler that breaks Pyodide's files on request:
    `fault` is None, "wasm-type" (.wasm served as text/plain), "missing" (404 for the wasm)
    or "hang" (the wasm request never gets an answer until `fault` changes)."""

    def __init__(self, folder: Path):
        site = self
        self.fault = None
        self.folder = folder

        class Handler(SiteHandler):
            def do_GET(self):
                broken = site.fault
                if broken and self.path.split("?")[0].endswith("/pyodide/pyodide.asm.wasm"):
                    if broken == "missing":
                        self.send_error(404)
                        return
                    if broken == "hang":
                        while site.fault == "hang":
                            time.sleep(0.05)
                        self.send_error(503)
                        return
                return super().do_GET()

            def guess_type(self, path):
                if site.fault == "wasm-type" and str(path).endswith(".wasm"):
                    return "text/plain"
                return super().guess_type(path)

        self.handler = Handler


@pytest.fixture(scope="module")
def faulty_site(real_site):
    faulty = FaultySite(real_site.folder)
    server, served = serve(real_site.folder, handler=faulty.handler)
    faulty.url, faulty.at = served.url, served.at
    yield faulty
    faulty.fault = None
    server.shutdown()
