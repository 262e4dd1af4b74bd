"""Pack what the simulation widgets need into the site: their Python and their scripts.

    assets/py/simulations.json    {"files": {"simulations/__init__.py": "...", ..., "tinyq.py": "..."}}
                                  every .py under simulations/ (its packages too, by relative
                                  path) and code/capstone/tinyq.py beside the
                                  package (docs/simulations.md, "Loading it in the page")
    assets/js/sims/*.js           the widget modules from theme/js/sims/

The page's Python worker fetches the JSON once and writes its files into Pyodide's file system
(one request, text that compresses well; no zip to unpack). Each URL carries `?v=<hash>` of
what it serves, and each `import ... from "./x.js"` inside theme/js/sims/ is rewritten to
`"./x.js?v=<hash>"` with the hash of the whole group, so a reader never mixes an old module with a
new one. Pyodide's own files keep their stable URLs under pyodide/ (copied by builder/assets.py):
a stable URL is what lets Chromium cache the compiled wasm.

Templates read the result as the global `sim_runtime` (see theme/templates/sim/_scripts.html):
    entry, notice     URLs of runtime.js (module) and file-notice.js (classic script)
    python            URL of the Python bundle, or "" when the build has no simulations package
    pyodide           URL of the folder holding Pyodide's files ("pyodide/")
    download_bytes    what the worker fetches in all (wasm, standard library, lock file, bundle)
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from builder.config import Config
from builder.problems import Problems
from builder.theme import Theme

SCRIPTS = "js/sims"                      # inside the theme, and under assets/ in the site
BUNDLE = "assets/py/simulations.json"
PYODIDE_DIR = "pyodide/"
# The files the worker fetches (Pyodide imports its two .mjs files as modules, not counted).
FETCHED_PYODIDE_FILES = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
RELATIVE_IMPORT = re.compile(r"""(\b(?:from|import)\s*)(["'])(\./[\w./-]+\.js)\2""")


def _version(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:10]


def python_files(simulations_dir: Path, tinyq: Path) -> dict[str, str]:
    """{path inside /app: text} for the simulations package with its subpackages (every .py under
    it, as "simulations/engine/params.py"), and tinyq.py with its SQL (tinyq_sql.py) beside it.
    Not exercise 9's PostgreSQL files: the page has no server."""
    files = {f"simulations/{path.relative_to(simulations_dir).as_posix()}": path.read_text(encoding="utf-8")
             for path in sorted(simulations_dir.rglob("*.py"))}
    for path in (tinyq, tinyq.with_name("tinyq_sql.py")):
        if path.is_file():
            files[path.name] = path.read_text(encoding="utf-8")
    return files


def version_imports(source: str, version: str) -> str:
    """Give every relative `import`/`from "./x.js"` the query `?v=<version>`."""
    return RELATIVE_IMPORT.sub(lambda m: f"{m[1]}{m[2]}{m[3]}?v={version}{m[2]}", source)


class SimPackage:
    """The widgets' files for one build; `write(folder)` puts them into the site."""

    def __init__(self, config: Config, theme: Theme, problems: Problems):
        self.files: dict[str, bytes] = {}
        scripts = sorted((theme.folder / SCRIPTS).glob("*.js"))
        group = _version(b"".join(path.name.encode() + path.read_bytes() for path in scripts))
        for path in scripts:
            text = version_imports(path.read_text(encoding="utf-8"), group)
            self.files[f"assets/{SCRIPTS}/{path.name}"] = text.encode("utf-8")
        python_url = ""
        if config.simulations_dir and config.simulations_dir.is_dir():
            tinyq = config.code / "capstone" / "tinyq.py"
            if tinyq.is_file():
                bundle = json.dumps({"files": python_files(config.simulations_dir, tinyq)},
                                    ensure_ascii=False, sort_keys=True).encode("utf-8")
                self.files[BUNDLE] = bundle
                python_url = f"{BUNDLE}?v={_version(bundle)}"
            else:
                problems.add(config.shown(tinyq), None, "missing: the simulations run on it in the page")
        fetched = sum((config.node_modules / "pyodide" / name).stat().st_size
                      for name in FETCHED_PYODIDE_FILES if (config.node_modules / "pyodide" / name).is_file())
        self.runtime = {
            "entry": self._url("runtime.js", group),
            "notice": self._url("file-notice.js", group),
            "python": python_url,
            "pyodide": PYODIDE_DIR,
            "download_bytes": fetched + len(self.files.get(BUNDLE, b"")),
        }
        theme.jinja.globals["sim_runtime"] = self.runtime

    def _url(self, name: str, version: str) -> str:
        key = f"assets/{SCRIPTS}/{name}"
        return f"{key}?v={version}" if key in self.files else ""

    def write(self, folder: Path) -> None:
        for path, data in self.files.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
