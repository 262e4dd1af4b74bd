"""Symbolic links in the folders the build publishes from: each must stay inside the repository.

The build copies code/ and simulations/ whole, the figures a chapter shows, the theme's files, and
the chapters and the exercise files they include; a copy follows a symbolic link. A link to a file
outside the repository (`code/notes.py -> ~/.ssh/id_rsa`, `content/figures/x.svg -> /etc/passwd`)
would publish that file on the site. So every link under those folders, to a file or a folder, must
resolve to a place inside the repository; a link to nothing is refused too (the copy would stop on it
with a traceback). The problem is reported at the link's own path, before anything is written.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from builder.problems import Problems


def links_out(folder: Path, inside: Path) -> list[tuple[Path, str]]:
    """[(link, why it is refused)] for every symbolic link under `folder` (the folder itself too)
    that does not resolve to an existing place inside `inside`. Links are not followed while looking,
    so a link to a folder is judged once, as a link."""
    inside = inside.resolve()
    found: list[tuple[Path, str]] = []

    def judge(path: Path) -> None:
        target = Path(os.path.realpath(path))
        if not target.is_relative_to(inside):
            found.append((path, f"a symbolic link to {os.readlink(path)}, outside the repository"))
        elif not target.exists():
            found.append((path, f"a symbolic link to {os.readlink(path)}, which does not exist"))

    if folder.is_symlink():
        judge(folder)
        return found
    for top, folders, files in os.walk(folder):   # does not descend into linked folders
        for name in sorted(folders + files):
            path = Path(top) / name
            if path.is_symlink():
                judge(path)
    return found


def check_source_links(folders: Iterable[tuple[Path | None, Path]], shown: Callable[[Path], str],
                       problems: Problems) -> None:
    """Report every link out of its repository in `folders`, pairs (folder, the repository holding
    it); a folder that is None or absent is skipped."""
    for folder, inside in folders:
        if folder is None or not (folder.exists() or folder.is_symlink()):
            continue
        for link, why in links_out(folder, inside):
            problems.add(_shown_link(link, inside, shown), None,
                         f"{why}: the build publishes only the repository's own files; copy the file in instead")


def _shown_link(link: Path, inside: Path, shown: Callable[[Path], str]) -> str:
    """The link's own path as problems print it (shown() would resolve it to its target)."""
    try:
        return link.absolute().relative_to(inside.resolve()).as_posix()
    except ValueError:
        return shown(link.parent) + "/" + link.name
