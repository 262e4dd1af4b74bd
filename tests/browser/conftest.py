"""Browser fixtures: the site built once per session, served on localhost, and Chromium.

- `fixture_site` / `real_site`: the fixture book (tests/build/fixtures/book, with the fake
  simulations) and the real guide (content/, with the real simulations), each built once into a
  temporary folder and served under a sub-path (/guide/), which proves every URL is relative.
- `browser_type_launch_args`: Debian's Chromium when it is installed (Playwright cannot download
  its own browser on every machine), Playwright's own browser otherwise.
- `watched` / `page`: a page that records every request and fails the test on a console error, a
  page error, a failed request, an HTTP error, or a request to another origin.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from builder import BuildError, Config, build_site
from builder.serve import make_server, serve_in_background
from tests.conftest import ROOT, fixture_config

BASE = "/guide/"
CHROMIUM_ARGS = ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]   # containers give /dev/shm only 64 MB


def system_chromium() -> str | None:
    """The system's Chromium ($CHROMIUM_PATH, or chromium on PATH), if there is one."""
    candidate = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    return candidate if candidate and Path(candidate).is_file() else None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = dict(browser_type_launch_args)
    executable = system_chromium()
    if executable:
        args["executable_path"] = executable
    args["args"] = [*args.get("args", []), *CHROMIUM_ARGS]
    return args


@dataclasses.dataclass
class Site:
    """A built site being served: its folder and its URL (ending in /)."""

    folder: Path
    url: str

    def at(self, page: str = "") -> str:
        return self.url + page


def _serve(folder: Path):
    server = make_server(folder, port=0, base=BASE, quiet=True)
    serve_in_background(server)
    return server, Site(folder, f"http://127.0.0.1:{server.server_port}{BASE}")


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fixture-site") / "site"
    build_site(fixture_config(folder))
    server, site = _serve(folder)
    yield site
    server.shutdown()


@pytest.fixture(scope="session")
def real_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("real-site") / "site"
    try:
        build_site(Config(root=ROOT, out=folder))
    except BuildError as error:
        pytest.fail(f"the guide does not build:\n{error}", pytrace=False)
    server, site = _serve(folder)
    yield site
    server.shutdown()


class PageWatch:
    """Listens to a page: keeps every request URL, and every problem a test must fail on."""

    def __init__(self, page, origin: str):
        self.page, self.origin = page, origin
        self.requests: list[str] = []
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("request", self._request)
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _failed(self, request) -> None:
        # ERR_ABORTED is the browser dropping a request because the page navigated away (e.g. the
        # favicon after a quick click); any other failure is a problem.
        if request.failure != "net::ERR_ABORTED":
            self.problems.append(f"request failed: {request.url} ({request.failure})")

    def _console(self, message) -> None:
        if message.type in ("error", "assert"):
            self.problems.append(f"console {message.type}: {message.text} at {message.location}")

    def _request(self, request) -> None:
        self.requests.append(request.url)
        if not request.url.startswith(self.origin) and not request.url.startswith("data:"):
            self.problems.append(f"request leaves the site: {request.url}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def requested(self, fragment: str) -> list[str]:
        return [url for url in self.requests if fragment in url]

    def check(self) -> None:
        assert not self.problems, "the page reported problems:\n" + "\n".join(self.problems)


def _origin(url: str) -> str:
    return url.split(BASE, 1)[0] + "/"


@pytest.fixture
def watched(context, fixture_site):
    """A new page in a fresh context, watched; the test fails if the page reported a problem."""
    page = context.new_page()
    watch = PageWatch(page, _origin(fixture_site.url))
    yield watch
    watch.check()


@pytest.fixture
def page(watched):
    return watched.page


@pytest.fixture
def no_js_page(browser, fixture_site):
    """A watched page in a context with JavaScript disabled."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    watch = PageWatch(page, _origin(fixture_site.url))
    yield page
    context.close()
    watch.check()


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.browser)
