"""Files the site needs besides its pages: the theme's assets, vendored libraries, exercise files."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from builder.codemirror import vendor_codemirror
from builder.config import Config
from builder.problems import Problems
from builder.theme import Theme

# The Pyodide runtime a page needs, and nothing else from the npm package
# (https://pyodide.org/en/stable/usage/downloading-and-deploying.html).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
MINISEARCH = {"dist/es/index.js": "assets/vendor/minisearch.js", "LICENSE.txt": "assets/vendor/minisearch.LICENSE.txt"}
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.db", "*.db-*", "outbox.txt", ".*")


SOURCE_MAP = re.compile(rb"\n//# sourceMappingURL=\S+\s*$")


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _copy_without_source_map(source: Path, target: Path) -> None:
    """Copy a script, dropping its source-map comment (the map is not shipped)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(SOURCE_MAP.sub(b"\n", source.read_bytes()))


def write_figures(folder: Path, content: Path, parsed) -> None:
    """Copy each figure a chapter shows (content/figures/...) to the same place in the site;
    the parser has already checked that each one exists."""
    for source in sorted({f["source"] for p in parsed for f in p.env["figures"]}):
        _copy(content / source, folder / source)


def write_assets(folder: Path, theme: Theme, config: Config, problems: Problems) -> None:
    """Copy every asset into the site being built; a missing vendored file is a problem."""
    for path, data in theme.files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    vendored = [(config.node_modules / "pyodide" / name, folder / "pyodide" / name, _copy) for name in PYODIDE_FILES]
    vendored += [(config.node_modules / "minisearch" / src, folder / dst, _copy_without_source_map)
                 for src, dst in MINISEARCH.items()]
    for source, target, copy in vendored:
        if source.is_file():
            copy(source, target)
        else:
            problems.add(config.shown(source), None, "missing: run `npm ci --ignore-scripts` (see README.md)")
    for path, data in vendor_codemirror(config.node_modules, config.shown, problems).items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    if config.code.is_dir():
        shutil.copytree(config.code, folder / "code", ignore=SKIP)
    if config.simulations_dir and config.simulations_dir.is_dir():
        shutil.copytree(config.simulations_dir, folder / "simulations",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*", "tests"))
    (folder / ".nojekyll").write_text("", encoding="utf-8")
