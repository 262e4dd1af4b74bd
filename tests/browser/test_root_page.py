"""`python -m http.server` in the project's folder: the committed index.html sends the reader on to
the built guide in site/, with JavaScript on or off, and says how to build it while there is none
(with JavaScript off, the refresh cannot know: the reader then sees http.server's "File not found"
for site/, which the root page's words, shown a moment before, explain)."""
from __future__ import annotations

import functools
import http.server
import shutil
import threading

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT

pytestmark = pytest.mark.browser


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def project(tmp_path):
    """A folder holding the project's index.html, served as `python -m http.server` serves it."""
    shutil.copy(ROOT / "index.html", tmp_path / "index.html")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield tmp_path, f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


def build_stub(folder):
    (folder / "site").mkdir()
    (folder / "site" / "index.html").write_text("<!doctype html><title>The guide</title><p>Welcome to the guide.</p>")


@pytest.mark.parametrize("scripts", [True, False], ids=["javascript", "no-javascript"])
def test_the_root_brings_the_reader_to_the_built_guide(browser, project, scripts):
    folder, url = project
    build_stub(folder)
    context = browser.new_context(java_script_enabled=scripts)
    page = context.new_page()
    page.goto(url)
    expect(page).to_have_url(url + "site/")
    expect(page.get_by_text("Welcome to the guide.")).to_be_visible()
    context.close()


def test_before_the_build_the_root_says_to_run_build_py(browser, project):
    folder, url = project
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    expect(page.get_by_text("The guide has not been built yet.")).to_be_visible()
    expect(page.locator("body")).to_contain_text("In this folder, run python build.py, then reload this page.")
    expect(page).to_have_url(url)
    build_stub(folder)   # built meanwhile: a reload goes on to it
    page.reload()
    expect(page).to_have_url(url + "site/")
    context.close()
