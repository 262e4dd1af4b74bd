"""A built site served on localhost, and a page watched while a test drives it.

The session fixtures that build and serve the fixture book and the real guide live in
tests/conftest.py and use this module; every folder of browser tests (browser/, widgets/,
quality/) takes them from there.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from builder import BuildError, build_site
from builder.serve import SiteHandler, make_server, serve_in_background

BASE = "/guide/"   # sites are served under a sub-path, which proves every URL is relative
CHROMIUM_ARGS = ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]   # containers give /dev/shm only 64 MB


def system_chromium() -> str | None:
    """The system's Chromium ($CHROMIUM_PATH, or chromium on PATH), if there is one."""
    candidate = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    return candidate if candidate and Path(candidate).is_file() else None


@dataclasses.dataclass
class Site:
    """A built site being served: its folder and its URL (ending in /)."""

    folder: Path
    url: str

    def at(self, page: str = "") -> str:
        return self.url + page


def serve(folder: Path, base: str = BASE, handler: type[SiteHandler] = SiteHandler):
    """Serve `folder` under `base` on a free port, in a background thread: (server, Site).
    Call server.shutdown() when done."""
    server = make_server(folder, port=0, base=base, quiet=True, handler=handler)
    serve_in_background(server)
    return server, Site(folder, f"http://127.0.0.1:{server.server_port}{base}")


def build(config) -> Path:
    """Build the site `config` describes; a build problem fails the test with the build's report."""
    try:
        build_site(config)
    except BuildError as error:
        pytest.fail(f"the guide does not build:\n{error}", pytrace=False)
    return config.out


def origin(url: str) -> str:
    """http://127.0.0.1:4321/guide/page.html -> http://127.0.0.1:4321/"""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"


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
        # blob:<origin>/...: a worker's script made by the page itself (python.js), never the network
        own = request.url.startswith((self.origin, "data:", f"blob:{self.origin}"))
        if not own:
            self.problems.append(f"request leaves the site: {request.url}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def requested(self, fragment: str) -> list[str]:
        return [url for url in self.requests if fragment in url]

    def check(self) -> None:
        assert not self.problems, "the page reported problems:\n" + "\n".join(self.problems)
