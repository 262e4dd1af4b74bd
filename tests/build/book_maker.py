"""Write a small throwaway book (content/SUMMARY.md, chapters, code files) for a test."""
from __future__ import annotations

from pathlib import Path


def make_book(root: Path, chapters: dict[str, str], summary: list[str] | None = None,
              code: dict[str, str] | None = None) -> Path:
    """Chapters {file: text}; `summary` lists the files in order (default: all of them)."""
    content = root / "content"
    content.mkdir(parents=True, exist_ok=True)
    for name, text in chapters.items():
        (content / name).write_text(text, encoding="utf-8")
    listed = summary if summary is not None else list(chapters)
    items = "".join(f"- [{name[:-3].title()}]({name})\n" for name in listed)
    (content / "SUMMARY.md").write_text(f"# Summary\n\n{items}", encoding="utf-8")
    for name, text in (code or {"ex.py": "def run():\n    return 1\n"}).items():
        path = root / "code" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
