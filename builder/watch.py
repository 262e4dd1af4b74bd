"""Rebuild when a source file changes (polling: no dependency, works on every OS)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

IGNORED = ("__pycache__", ".pyc", ".db", ".db-journal", ".db-wal", ".db-shm", "outbox.txt")


def snapshot(folders: Iterable[Path]) -> dict[str, float]:
    """{path: modification time} of every file under `folders`."""
    seen = {}
    for folder in folders:
        for path in Path(folder).rglob("*"):
            if path.is_file() and not any(part in str(path) for part in IGNORED):
                seen[str(path)] = path.stat().st_mtime
    return seen


def watch(folders: list[Path], rebuild: Callable[[], None], interval: float = 0.5) -> None:
    """Call `rebuild()` after any file under `folders` is added, changed or removed; forever."""
    before = snapshot(folders)
    while True:
        time.sleep(interval)
        now = snapshot(folders)
        if now != before:
            before = now
            rebuild()
