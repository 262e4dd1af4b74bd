"""The guide's build: content/ + code/ + theme/ -> site/. The recipe is `build_site`."""
from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

from builder.assets import write_assets, write_figures
from builder.chapters import parse_chapter
from builder.config import Config
from builder.crosscheck import check_book
from builder.markdown import make_markdown
from builder.moved import former_numbers, load_moves, moved_pages
from builder.output import staging, unsafe_output, write_json, write_pages
from builder.page_files import check_page_files
from builder.pages import render_pages
from builder.problems import BuildError, Problem, Problems
from builder.recordings import write_recordings
from builder.search_index import search_documents
from builder.sim_package import SimPackage
from builder.source_links import check_source_links
from builder.summary import load_summary
from builder.theme import Theme

__all__ = ["BuildError", "Config", "Report", "build_site"]


@dataclasses.dataclass(frozen=True)
class Report:
    """What a successful build wrote."""

    out: str
    pages: int
    chapters: int
    sims: int
    seconds: float


def saved_transcripts(parsed) -> dict:
    """{id: {"path", "line", "attrs", "lines"}}: the guide's transcripts, as check_output.py reads them."""
    return {t["id"]: {"path": p.path, "line": t["line"], "attrs": t["attrs"], "lines": t["lines"]}
            for p in parsed for t in p.env["transcripts"]}


EMBED_LINE = "EMBEDDED = None"


def embed_transcripts(script: Path, saved: dict) -> None:
    """Write `saved` into the site's copy of check_output.py, on its `EMBEDDED = None` line, so the
    file a reader downloads into a folder of their own works without transcripts.json beside it.

    Raises ValueError when that line is not there exactly once."""
    text = script.read_text(encoding="utf-8")
    lines = text.split("\n")
    found = [i for i, line in enumerate(lines) if line == EMBED_LINE]
    if len(found) != 1:
        raise ValueError(f"{script}: expected one line {EMBED_LINE!r}, found {len(found)}")
    data = json.dumps(saved, ensure_ascii=True, sort_keys=True)
    lines[found[0]] = f"EMBEDDED = json.loads({data!r})"
    script.write_text("\n".join(lines), encoding="utf-8")


def build_site(config: Config) -> Report:
    """Build the whole site into config.out, or raise BuildError listing every problem found.

    The previous site stays untouched unless the build succeeds.
    """
    started = time.perf_counter()
    problems = Problems()
    unsafe = unsafe_output(config.out, config.root, (config.content, config.code, config.theme))
    if unsafe:   # before anything else: the build replaces the whole output folder
        raise BuildError([Problem(config.shown(config.out), None, f"not an output folder: {unsafe}")])
    check_source_links([(config.content, config.root), (config.code, config.root),
                        (config.simulations_dir, config.root), (config.theme, config.theme.parent)],
                       config.shown, problems)
    check_page_files([config.code, config.simulations_dir], config.shown, problems)
    theme = Theme(config.theme, problems, config.shown)
    sim_package = SimPackage(config, theme, problems)   # the widgets' Python and scripts

    # 1. Load the chapter order and titles from content/SUMMARY.md.
    chapters = load_summary(config.content, problems, config.shown)
    # ... and the pages that were renamed or split, from content/moved.toml: their old addresses stay.
    moves = load_moves(config.content, chapters, problems, config.shown)
    chapters = former_numbers(moves, chapters)

    # 2. Parse every chapter; each Markdown extension checks what it reads as it goes.
    md = make_markdown(config.root, config.simulations, theme.render_sim)
    parsed = [parse_chapter(md, chapter, config.content / chapter.source,
                            config.shown(config.content / chapter.source), problems, theme.ids)
              for chapter in chapters]

    # 3. Check what spans chapters: links and #anchors, transcript ids.
    check_book(parsed, problems)
    problems.raise_if_any()

    # 4. Render the pages: one per chapter, the index, the all-in-one guide.html, and one per old address.
    # An old address: a small page forwarding to the new one (or data-aliases on the first part).
    moved = moved_pages(moves, parsed, theme)
    pages = render_pages(md, theme, parsed)
    pages.update(moved)
    problems.raise_if_any()

    # 5. Write pages, search index, assets and figures into a fresh folder, swapped in at the end.
    with staging(config.out) as folder:
        write_pages(folder, pages)
        write_json(folder / "search-index.json", search_documents(parsed))
        write_assets(folder, theme, config, problems)
        write_figures(folder, config.content, parsed)
        if (folder / "code").is_dir():   # for code/check_output.py, which a reader runs in the site's code/
            write_json(folder / "code" / "transcripts.json", saved_transcripts(parsed))
            if (folder / "code" / "check_output.py").is_file():
                embed_transcripts(folder / "code" / "check_output.py", saved_transcripts(parsed))
        sim_package.write(folder)
        if config.simulations_dir:   # each embed's run, recorded for the page to play at once
            write_recordings(folder, parsed, config.root, config.root / ".cache" / "recordings")
        problems.raise_if_any()

    return Report(config.shown(config.out), len(pages), len(parsed),
                  sum(len(p.env["sims"]) for p in parsed), time.perf_counter() - started)
