"""The vendored Pyodide runtime loads from the built site, under the pages' strict
Content-Security-Policy, over the dev server's MIME types, with no request leaving the site."""


def test_pyodide_starts_and_has_sqlite(watched, fixture_site):
    page = watched.page
    page.goto(fixture_site.at("01-queue.html"))
    version = page.evaluate("""async () => {
        const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", location.href).href);
        const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
        return pyodide.runPython("import sqlite3; sqlite3.sqlite_version");
    }""")
    assert version.count(".") == 2
    assert {url.rsplit("/", 1)[-1] for url in watched.requested("/pyodide/")} >= {
        "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"}
