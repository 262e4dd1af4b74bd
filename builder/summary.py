"""The chapter order and titles, read from content/SUMMARY.md.

    # Summary

    - [How to use this guide](00-how-to-use.md)
    - [The waiter who cooks](01-the-waiter-who-cooks.md)

One list item per chapter, in reading order; chapters are numbered from 0 in that order, and a file
whose name starts with a number (`05-leases.md`) must stand in that place, so that its page
(`05-leases.html`) and its heading ("Chapter 5") agree (the casebook, 12-casebook.html, once
called itself "Chapter 11", being listed before the glossary, 11-glossary.md). Every other
`.md` file in content/ must be listed, and every listed file must exist (docs/authoring.md, "Order
and titles"). The format is mdBook's SUMMARY.md, reduced to a flat list:
https://rust-lang.github.io/mdBook/format/summary.html

A chapter that moved says where it stood before, after its link, so that links made then, which
carry the old number in their box ids (`pause-11-2`), still land (builder/markdown/env.py):

    - [Casebook: real incidents, replayed](12-casebook.md) (was chapter 11)
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from builder.problems import Problems
from builder.text_file import NotUTF8, read_text

SUMMARY = "SUMMARY.md"
ITEM = re.compile(r"^[-*]\s+\[(?P<title>[^\]]+)\]\((?P<source>[^)\s]+)\)"
                  r"(?:\s+\(was chapter (?P<former>\d+(?:,\s*\d+)*)\))?\s*$")
NUMBERED = re.compile(r"^(?P<number>\d+)-")   # a file name's chapter number: 05-leases.md -> 5


@dataclasses.dataclass(frozen=True)
class Chapter:
    """One chapter: its number (from 0), title, Markdown file name, line in SUMMARY.md, and the
    numbers it had before it moved (from "(was chapter 11)")."""

    number: int
    title: str
    source: str
    line: int
    former: tuple[int, ...] = ()

    @property
    def slug(self) -> str:
        """The file name without `.md`: `05-leases`."""
        return self.source[: -len(".md")]

    @property
    def url(self) -> str:
        """The page, relative to the site's root: `05-leases.html`."""
        return self.slug + ".html"

    @property
    def label(self) -> str:
        return f"Chapter {self.number}"


def load_summary(content: Path, problems: Problems, shown=str) -> list[Chapter]:
    """Read content/SUMMARY.md and return the chapters in order.

    Problems (a line that is not a chapter item, a file listed twice or missing, a chapter file
    not listed) are added to `problems` as `file:line: message`; `shown(path)` formats paths.
    """
    summary = content / SUMMARY
    where = shown(summary)
    if not summary.is_file():
        problems.add(where, None, "missing: it lists the chapters in reading order")
        return []
    chapters: list[Chapter] = []
    seen: dict[str, int] = {}
    try:
        lines = read_text(summary).splitlines()
    except NotUTF8 as error:
        problems.add(where, error.line, str(error))
        return []
    for number, text in enumerate(lines, start=1):
        line = text.strip()
        if not line or (line.startswith("# ") and not chapters):
            continue
        match = ITEM.match(line)
        if not match:
            problems.add(where, number, f"expected a chapter item '- [Title](file.md)', got {line!r}")
            continue
        title, source = match["title"].strip(), match["source"]
        if not source.endswith(".md") or "/" in source:
            problems.add(where, number, f"{source!r}: a chapter is a .md file in content/")
            continue
        if source in seen:
            problems.add(where, number, f"{source} is already listed on line {seen[source]}")
            continue
        if not (content / source).is_file():
            problems.add(where, number, f"{source} is listed but content/{source} does not exist")
        seen[source] = number
        named = NUMBERED.match(source)
        if named and int(named["number"]) != len(chapters):
            problems.add(where, number, f"{source} is chapter {len(chapters)} here (its place in the list), "
                                        f"but its file name says {int(named['number'])}: list it in that "
                                        f"place, or rename it, so its page and its heading agree")
        former = tuple(int(n) for n in re.findall(r"\d+", match["former"] or ""))
        if len(chapters) in former:
            problems.add(where, number, f"{source} is chapter {len(chapters)} now: 'was chapter' names only "
                                        f"the numbers it had before it moved")
        chapters.append(Chapter(len(chapters), title, source, number, former))
    for path in sorted(content.glob("*.md")):
        if path.name != SUMMARY and path.name not in seen:
            problems.add(shown(path), 1, f"chapter not listed in {where}: add '- [Title]({path.name})'")
    return chapters
