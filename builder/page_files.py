"""Files a browser would open as a page of the site: none may come from the folders copied whole.

code/ and simulations/ are copied to the site as they are, for a reader to download and for the
page's Python. A browser opens an .html or .svg file from there as a document at the site's
origin, outside the pages' Content-Security-Policy, where a script can read what the site keeps
in localStorage (the reader's saved code). Those folders hold Python and text; a page or a drawing
belongs in content/ (a figure is checked by builder/svg_check.py), so such a file is refused.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from builder.problems import Problems

# What a browser renders as a document of its own (and may run scripts in): by file name, as a
# static host picks the Content-Type from it.
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".svg", ".svgz", ".xml", ".xsl", ".xslt", ".mht", ".mhtml")


def page_files(folder: Path) -> list[Path]:
    """Every file under `folder` whose name a browser would open as a document, in name order."""
    found = []
    for top, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]   # not copied (assets.SKIP)
        found += [Path(top) / name for name in files
                  if name.lower().endswith(PAGE_SUFFIXES) and not name.startswith(".")]
    return sorted(found)


def check_page_files(folders: Iterable[Path | None], shown: Callable[[Path], str], problems: Problems) -> None:
    """Report each such file in `folders` (None or absent folders are skipped)."""
    for folder in folders:
        if folder is None or not folder.is_dir():
            continue
        for path in page_files(folder):
            problems.add(shown(path), None, "a browser would open this file as a page of the site, where it "
                                            "could run scripts: keep pages and drawings out of the folders "
                                            "copied whole (a figure goes in content/figures/)")
