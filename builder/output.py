"""Write the site into a fresh folder and swap it in only when the whole build succeeded."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path


MARKER = ".guide-build"   # written into every site; only a folder holding it may be replaced
MARKER_TEXT = "Written by build.py. This whole folder is replaced by the next build.\n"


def unsafe_output(out: Path, root: Path, sources=()) -> str | None:
    """Why `out` must not be replaced by a build (None when it may): never inside `sources` (the
    folders the build reads); and as the build deletes the old folder, only a new or empty
    folder, or one an earlier build wrote (it holds
    MARKER; before the marker existed, a build left `.nojekyll` beside `search-index.json`)."""
    out, root = out.resolve(), root.resolve()
    if out == root or out in root.parents:
        return "it holds the project itself; choose a folder of its own, such as site/"
    for source in (Path(s).resolve() for s in sources):
        if out == source or source in out.parents:
            return f"it is inside {source.name}/, which the build reads; choose a folder of its own, such as site/"
    if out.is_file():
        return "it is a file"
    if not out.is_dir() or not any(out.iterdir()):
        return None
    if (out / MARKER).is_file() or ((out / ".nojekyll").is_file() and (out / "search-index.json").is_file()):
        return None
    return (f"it holds files no build wrote ({', '.join(sorted(p.name for p in out.iterdir())[:3])}...) "
            "and the build would delete them; choose a new or empty folder")


@contextlib.contextmanager
def staging(out: Path):
    """Yield an empty folder beside `out`; on success it becomes `out`, on any error it is
    deleted and `out` is left exactly as it was."""
    out.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f"{out.name}.new-", dir=out.parent))
    os.chmod(folder, 0o755)
    try:
        (folder / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        yield folder
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    old = out.with_name(f"{out.name}.old-{folder.name.rsplit('-', 1)[-1]}")
    if out.exists():
        out.rename(old)
    folder.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def write_pages(folder: Path, pages: dict[str, str]) -> None:
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")


def write_json(path: Path, value) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
