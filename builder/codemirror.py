"""CodeMirror 6, vendored into the site from node_modules, for the exercise editor (judge widget).

The npm packages (pinned exactly in package.json and package-lock.json) ship ES modules that
import each other by bare name (`from '@codemirror/state'`). A browser needs a URL, and an import
map would be an inline script, which the pages' Content-Security-Policy refuses. So each
package's module file is copied to assets/vendor/codemirror/<flat name>.js with every bare import
of another vendored package rewritten to its sibling file, `./codemirror-state.js?v=<version>`.
Nothing is bundled or minified: the files are the packages' own (with their licences beside them).
The editor module, theme/js/sims/code-editor.js, imports them; the judge widget loads it only when
the reader reaches an exercise (https://codemirror.net/examples/bundle/ describes the packages).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from builder.problems import Problems

VENDOR = "assets/vendor/codemirror"
PACKAGES = (
    "@codemirror/state", "@codemirror/view", "@codemirror/language", "@codemirror/commands",
    "@codemirror/autocomplete", "@codemirror/lang-python", "@codemirror/streamparser",
    "@lezer/common", "@lezer/highlight", "@lezer/lr", "@lezer/python",
    "@marijn/find-cluster-break", "style-mod", "w3c-keyname", "crelt",
)
BARE_IMPORT = re.compile(r"""(^\s*(?:import|export)\b[^'";]*?\bfrom\s*|^\s*import\s*)(['"])([@\w][\w@/.-]*)\2""", re.M)
SOURCE_MAP = re.compile(r"\n//# sourceMappingURL=\S+\s*$")
# One change to the packages' text. style-mod puts CodeMirror's own styles into a <style> element
# when it mounts on a document, and the pages' Content-Security-Policy (style-src 'self', no
# 'unsafe-inline') refuses those. It already uses a constructed stylesheet (adoptedStyleSheets,
# which the policy does not govern) for a shadow root: the patch takes that path for a document
# too, where the browser has it; an older browser falls back to the <style> element (an unstyled
# editor that still works). If a new version's text differs, the build says so.
PATCHES = {"style-mod": ("if (!root.head && root.adoptedStyleSheets && win.CSSStyleSheet) {",
                         "if (root.adoptedStyleSheets && win.CSSStyleSheet) {")}


def flat_name(package: str) -> str:
    """`@codemirror/view` -> `codemirror-view`, `style-mod` -> `style-mod`."""
    return package.lstrip("@").replace("/", "-")


def _entry(folder: Path) -> tuple[Path, str]:
    """The package's ES module file and its version, from its package.json."""
    meta = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    exports = meta.get("exports")
    entry = meta.get("module")
    if not entry and isinstance(exports, dict):
        main = exports.get(".", exports)
        entry = main.get("import") or main.get("default") if isinstance(main, dict) else main
    if isinstance(entry, dict):
        entry = entry.get("default")
    return folder / (entry or meta.get("main", "index.js")), meta["version"]


def vendor_codemirror(node_modules: Path, shown, problems: Problems) -> dict[str, bytes]:
    """{site path: bytes} for every vendored package (and its licence); a missing package is a problem."""
    found: dict[str, tuple[Path, str]] = {}
    for package in PACKAGES:
        folder = node_modules / package
        try:
            found[package] = _entry(folder)
        except (OSError, KeyError, ValueError):
            problems.add(shown(folder / "package.json"), None, "missing: run `npm ci --ignore-scripts` (see README.md)")
    files: dict[str, bytes] = {}

    def rewrite(match: re.Match) -> str:
        name = match[3]
        if name not in found:
            return match[0]
        return f"{match[1]}{match[2]}./{flat_name(name)}.js?v={found[name][1]}{match[2]}"

    for package, (path, _version) in found.items():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            problems.add(shown(path), None, "missing: run `npm ci --ignore-scripts` (see README.md)")
            continue
        if package in PATCHES:
            old, new = PATCHES[package]
            if old not in text:
                problems.add(shown(path), None, f"cannot patch {package} for the pages' CSP: expected {old!r}")
            text = text.replace(old, new)
        files[f"{VENDOR}/{flat_name(package)}.js"] = SOURCE_MAP.sub("\n", BARE_IMPORT.sub(rewrite, text)).encode("utf-8")
        licence = next(iter(sorted((node_modules / package).glob("LICENSE*"))), None)
        if licence:
            files[f"{VENDOR}/{flat_name(package)}.LICENSE.txt"] = licence.read_bytes()
    return files


def editor_version(node_modules: Path) -> str:
    """The vendored @codemirror/view version, for the editor module's import URLs."""
    try:
        return _entry(node_modules / "@codemirror/view")[1]
    except (OSError, KeyError, ValueError):
        return "0"
