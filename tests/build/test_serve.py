"""`build.py --serve`: the right MIME types whatever the OS's tables say, a sub-path, no caching."""
import mimetypes
import urllib.error
import urllib.request

import pytest

from builder.serve import make_server, serve_in_background

TYPES = {
    "pyodide.asm.wasm": "application/wasm",
    "pyodide.mjs": "text/javascript; charset=utf-8",
    "search.js": "text/javascript; charset=utf-8",
    "site.css": "text/css; charset=utf-8",
    "search-index.json": "application/json",
    "python_stdlib.zip": "application/zip",
    "index.html": "text/html; charset=utf-8",
    "tinyq.py": "text/x-python; charset=utf-8",
}


@pytest.fixture
def served(tmp_path, monkeypatch):
    # An OS whose tables are wrong (as some Windows registries are): the server must not care.
    monkeypatch.setattr(mimetypes, "guess_type", lambda *a, **k: ("text/plain", None))
    for name in TYPES:
        (tmp_path / name).write_bytes(b"x")
    server = make_server(tmp_path, port=0, base="/guide/", quiet=True)
    serve_in_background(server)
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("name,expected", TYPES.items())
def test_mime_type(served, name, expected):
    with urllib.request.urlopen(f"{served}/guide/{name}") as response:
        assert response.headers["Content-Type"] == expected
        assert response.headers["Cache-Control"] == "no-cache"


def test_only_the_sub_path_is_served(served):
    with pytest.raises(urllib.error.HTTPError) as outside:
        urllib.request.urlopen(f"{served}/index.html")
    assert outside.value.code == 404
    with urllib.request.urlopen(f"{served}/guide/") as response:   # the folder's index.html
        assert response.status == 200


def test_a_busy_port_moves_to_the_next_free_one(tmp_path):
    import build
    busy = make_server(tmp_path, port=0, quiet=True)
    try:
        server = build.open_server(tmp_path, busy.server_port, tries=5)
        assert server is not None and server.server_port != busy.server_port
        server.server_close()
    finally:
        busy.server_close()


@pytest.mark.parametrize("port", ["99999", "-1", "eighty"])
def test_a_port_that_is_not_one_is_a_usage_error_not_a_traceback(port):
    import subprocess
    import sys

    from tests.conftest import ROOT
    run = subprocess.run([sys.executable, str(ROOT / "build.py"), "--serve", "--port", port],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 2 and "argument --port" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
