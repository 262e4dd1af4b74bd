"""Checks that span chapters: link targets, `#anchors`, transcript ids and `after=` names."""
from __future__ import annotations

from builder.chapters import ParsedChapter
from builder.markdown.env import TEMPLATE
from builder.problems import Problems


def check_book(chapters: list[ParsedChapter], problems: Problems) -> None:
    """Report every link to a missing chapter or anchor, and every transcript id problem."""
    by_source = {parsed.chapter.source: parsed for parsed in chapters}
    for parsed in chapters:
        for link in parsed.env["links"]:
            _check_link(parsed, link, by_source, problems)
    seen: dict[str, str] = {}
    every = {t["id"] for parsed in chapters for t in parsed.env["transcripts"]}
    for parsed in chapters:
        for transcript in parsed.env["transcripts"]:
            where = f"{parsed.path}:{transcript['line']}"
            if transcript["id"] in seen and seen[transcript["id"]] != where:
                problems.add(parsed.path, transcript["line"],
                             f"transcript id {transcript['id']!r} is already used at {seen[transcript['id']]}")
            seen.setdefault(transcript["id"], where)
            for name in transcript["after"]:
                if name not in every:
                    problems.add(parsed.path, transcript["line"], f"after={name}: no transcript has that id")


def _check_link(parsed: ParsedChapter, link: dict, by_source: dict, problems: Problems) -> None:
    source, anchor, line = link["source"], link["anchor"], link["line"]
    target = parsed if source is None else by_source.get(source)
    if target is None:
        problems.add(parsed.path, line, f"link to {source}: no such chapter in SUMMARY.md")
    elif source is None and not anchor:
        problems.add(parsed.path, line, "empty link '#': name the section, e.g. (#the-lease)")
    elif anchor and target.env["ids"].get(anchor, TEMPLATE) == TEMPLATE:
        where = "this chapter" if source is None else source
        problems.add(parsed.path, line, f"link to #{anchor}: {where} has no such heading or box")
