"""Write the site into a fresh folder and swap it in only when the whole build succeeded."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path


@contextlib.contextmanager
def staging(out: Path):
    """Yield an empty folder beside `out`; on success it becomes `out`, on any error it is
    deleted and `out` is left exactly as it was."""
    out.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f"{out.name}.new-", dir=out.parent))
    os.chmod(folder, 0o755)
    try:
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
