"""Serve the built site on localhost, with the right MIME types on every OS.

Python's http.server guesses types from the OS's tables, which on some systems give `.js` as
text/plain or know no `.wasm`; Pyodide then fails to load (WebAssembly.instantiateStreaming
refuses a wasm file not served as application/wasm:
https://developer.mozilla.org/docs/WebAssembly/Reference/JavaScript_interface/instantiateStreaming_static).
So the types the site uses are fixed here.
"""
from __future__ import annotations

import functools
import http.server
import posixpath
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".py": "text/x-python; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    "": "application/octet-stream",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves `directory` under the URL prefix `base` ("/" or e.g. "/guide/"), never cached."""

    extensions_map = MIME_TYPES
    base = "/"
    quiet = False

    def translate_path(self, path: str) -> str:
        route = unquote(urlsplit(path).path)
        if not route.startswith(self.base):
            return str(Path(self.directory) / ".outside-base" / "404")   # no such file: a 404
        return super().translate_path("/" + route[len(self.base):])

    def guess_type(self, path) -> str:
        return MIME_TYPES.get(posixpath.splitext(str(path))[1].lower(), MIME_TYPES[""])

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 8000, base: str = "/",
                quiet: bool = False, handler: type[SiteHandler] = SiteHandler) -> http.server.ThreadingHTTPServer:
    """A server for `directory` under `base`; port 0 picks a free port (see server.server_port).
    `handler` may be a subclass of SiteHandler (the tests' one breaks files on purpose)."""
    handler = type("Handler", (handler,), {"base": base, "quiet": quiet})
    return http.server.ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(directory)))


def serve_in_background(server: http.server.ThreadingHTTPServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return thread
