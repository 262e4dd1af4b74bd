"""Pages that were renamed or split keep their addresses, read from content/moved.toml.

    # old file = new file                     renamed: the old page forwards to the new one
    "06-retry.md" = "08-retry.md"
    # old file = [its parts, in reading order]  split: the old page's ids forward to their part
    "05-leases.md" = ["05-leases.md", "06-fencing.md"]

A name on the right that is itself listed on the left is followed (a page renamed twice needs one
more line, not an edit of the first). What the build does with the map:

- an old page that is no longer a chapter becomes a small page at its old address (theme/templates/
  moved.html): a refresh for readers without scripts, a link, and assets/js/moved.js, which keeps
  the address's ?query and #fragment and sends a fragment that now lives in a later part there;
- an old page that is still a chapter (the first part of a split) lists the ids that went to a
  later part in its data-aliases, as `page.html#id` (theme/js/aliases.js follows them);
- a numbered box id (`pause-5-7`, `sim-4`) of the old page is found in the part that holds that box
  now: the parts, read in order, hold the old page's boxes in their old order. A renamed page's
  first part takes the old number as a former one (builder/summary.py), so `pause-6-2` lands on
  08-retry.html as it did on 06-retry.html.

The map only grows: an address once published keeps working (docs/authoring.md, "Renaming or
splitting a chapter").
"""
from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

from builder.markdown.env import TEMPLATE
from builder.problems import Problems
from builder.summary import NUMBERED, Chapter

MOVED = "moved.toml"
NUMBERED_BOX = re.compile(r"^(?P<kind>pause|drills|break)-(?P<chapter>\d+)-(?P<count>\d+)$")
NUMBERED_SIM = re.compile(r"^sim-(?P<count>\d+)$")


@dataclasses.dataclass(frozen=True)
class Move:
    """One old page (`source`, a .md name) and the chapters that hold its content now, in order."""

    source: str
    parts: tuple[str, ...]
    line: int | None = None

    @property
    def url(self) -> str:
        return self.source[: -len(".md")] + ".html"

    @property
    def number(self) -> int | None:
        named = NUMBERED.match(self.source)
        return int(named["number"]) if named else None


def load_moves(content: Path, chapters: list[Chapter], problems: Problems, shown=str) -> list[Move]:
    """Read content/moved.toml (absent: nothing moved) and return each old page with its parts
    resolved to chapters of today's SUMMARY.md. Problems (not TOML, a part that is no chapter, a
    renamed page that still exists, a loop) go to `problems`."""
    path = content / MOVED
    if not path.is_file():
        return []
    where = shown(path)
    text = path.read_text(encoding="utf-8")
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        problems.add(where, None, f"not TOML: {error}")
        return []
    lines = {name: n for n, line in enumerate(text.splitlines(), start=1)
             for name in re.findall(r'^\s*"([^"]+)"\s*=', line)}
    current = {chapter.source for chapter in chapters}
    moves = []
    for old, new in table.items():
        line = lines.get(old)
        parts = [new] if isinstance(new, str) else new
        if not (isinstance(parts, list) and parts and all(isinstance(p, str) and p.endswith(".md") for p in parts)):
            problems.add(where, line, f"{old!r}: give the new file, or a list of the files its parts are now in")
            continue
        resolved = _resolve(old, parts, table, current, where, line, problems)
        if resolved is None:
            continue
        if old in current and resolved[0] != old:
            problems.add(where, line, f"{old} is still a chapter: a page that stays lists itself first among its parts")
            continue
        moves.append(Move(old, tuple(resolved), line))
    return moves


def _resolve(old, parts, table, current, where, line, problems, seen=()) -> list[str] | None:
    resolved = []
    for part in parts:
        if part in current and not (part in table and part not in seen and part != old):
            resolved.append(part)
        elif part in table and part not in seen and part != old:
            # Renamed, or still a chapter that was split later: its parts hold the content now.
            later = table[part]
            deeper = _resolve(part, [later] if isinstance(later, str) else later, table, current,
                              where, line, problems, (*seen, old))
            if deeper is None:
                return None
            resolved += deeper
        else:
            problems.add(where, line, f"{old!r} -> {part!r}: no chapter in SUMMARY.md has that file, "
                                      f"and it is not listed as moved")
            return None
    return resolved


def former_numbers(moves: list[Move], chapters: list[Chapter]) -> list[Chapter]:
    """The chapters, each first part of a move from a page with another number taking that number
    as a former one (its numbered boxes keep their old ids there)."""
    extra: dict[str, set[int]] = {}
    for move in moves:
        first = move.parts[0]
        if move.number is not None:
            extra.setdefault(first, set()).add(move.number)
    return [dataclasses.replace(c, former=tuple(sorted({*c.former, *extra.get(c.source, ())} - {c.number})))
            for c in chapters]


def _boxes(parsed) -> dict[str, list[str]]:
    """{kind: [the page's id of its 1st, 2nd, ... box of that kind]} (`sim` included)."""
    number, aliases = parsed.chapter.number, parsed.env["aliases"]
    found: dict[str, dict[int, str]] = {}
    for ident in parsed.env["ids"]:
        box, sim = NUMBERED_BOX.match(ident), NUMBERED_SIM.match(ident)
        if box and int(box["chapter"]) == number:
            found.setdefault(box["kind"], {})[int(box["count"])] = aliases.get(ident, ident)
        elif sim:
            found.setdefault("sim", {})[int(sim["count"])] = aliases.get(ident, ident)
    return {kind: [ids[n] for n in sorted(ids)] for kind, ids in found.items()}


def _numbered(ident: str) -> bool:
    """True for an order-based id: on the old page it meant another box (see `_boxes`)."""
    return bool(NUMBERED_BOX.match(ident) or NUMBERED_SIM.match(ident))


def elsewhere(move: Move, by_source: dict) -> dict[str, str]:
    """{id on the old page: `part.html#id`} for every id that went to a part after the first: its
    headings and declared ids, and the numbered ids of its boxes under the old numbering."""
    first = by_source[move.parts[0]]
    found: dict[str, str] = {}
    offsets: dict[str, int] = {kind: len(ids) for kind, ids in _boxes(first).items()}
    for source in move.parts[1:]:
        part = by_source[source]
        for ident, line in part.env["ids"].items():
            if line != TEMPLATE and not _numbered(ident) and ident not in first.env["ids"]:
                found.setdefault(ident, f"{part.chapter.url}#{ident}")
        for kind, ids in _boxes(part).items():
            for target in ids:
                offsets[kind] = offsets.get(kind, 0) + 1
                old = f"sim-{offsets[kind]}" if kind == "sim" else f"{kind}-{move.number}-{offsets[kind]}"
                if move.number is not None or kind == "sim":
                    found[old] = f"{part.chapter.url}#{target}"
    return found


def moved_pages(moves: list[Move], parsed: list, theme) -> dict[str, str]:
    """{old file name: its HTML} for each old page that is no longer a chapter; and, on each
    chapter that is the first part of a split, env["elsewhere"] for its data-aliases."""
    by_source = {p.chapter.source: p for p in parsed}
    pages = {}
    for move in moves:
        away = elsewhere(move, by_source)
        first = by_source[move.parts[0]]
        if move.source == first.chapter.source:
            first.env.setdefault("elsewhere", {}).update(away)
            continue
        parts = [{"url": by_source[s].chapter.url, "label": by_source[s].chapter.label,
                  "title": by_source[s].chapter.title} for s in move.parts]
        pages[move.url] = theme.render("moved.html", page={"url": move.url, "title": parts[0]["title"]},
                                       parts=parts, fragments=away)
    return pages
