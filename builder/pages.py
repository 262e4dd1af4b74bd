"""The pages of the site: one per chapter, the index, and the all-in-one guide.html."""
from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt
from markupsafe import Markup

from builder.chapters import ParsedChapter, render_chapter
from builder.markdown.text import inline_text
from builder.theme import Theme

INDEX, GUIDE, GUIDE_STUDENT = "index.html", "guide.html", "guide-student.html"
TOC_LEVELS = (2, 3)
SIMS_CSS = '<link rel="stylesheet" href="{}">\n'   # assets/sims.css: theme/css/80-89


def _link(url: str, title: str, label: str) -> dict:
    return {"url": url, "title": title, "label": label}


def _chapter_link(parsed: ParsedChapter) -> dict:
    chapter = parsed.chapter
    return _link(chapter.url, chapter.title, chapter.label)


def summary_sentence(parsed: ParsedChapter, limit: int = 160) -> str:
    """The chapter's first paragraph as plain text, cut at a word near `limit` characters."""
    tokens = parsed.tokens
    for i, token in enumerate(tokens[:-1]):
        if token.type == "paragraph_open" and token.level == 0:
            text = inline_text(tokens[i + 1].children)
            return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
    return ""


# The lengths 60-navigation.css knows (one rule each): a chapter's length is rounded UP to one of
# them, so the height guessed from it is never below the real one. Typed attr() would read the
# exact length, but the Nu HTML checker cannot parse it, and every page carries these styles.
CHAR_STEPS = (12000, 16000, 20000, 25000, 32000, 40000, 50000, 64000, 80000, 100000, 125000)


def text_length(body: str) -> int:
    """How many characters of text an HTML fragment holds (its tags left out)."""
    return len(html.unescape(re.sub(r"<[^>]*>", "", body)))


def char_step(chars: int) -> int | None:
    """The smallest of CHAR_STEPS at least `chars`: guide.html gives it as each chapter's
    data-chars, from which 60-navigation.css guesses its height until drawn (None: longer than
    every step, and the CSS keeps its own larger guess)."""
    return next((step for step in CHAR_STEPS if step >= chars), None)


def render_pages(md: MarkdownIt, theme: Theme, chapters: list[ParsedChapter]) -> dict[str, str]:
    """Return {file name: HTML} for every page of the site."""
    nav = [{"url": p.chapter.url, "page": p.chapter.url, "title": p.chapter.title, "number": p.chapter.number,
            "minutes": p.minutes, "pauses": len(p.check_ids)} for p in chapters]
    pages: dict[str, str] = {}
    contents = _link(INDEX, "Contents", "Start")
    for i, parsed in enumerate(chapters):
        previous = _chapter_link(chapters[i - 1]) if i else contents
        following = _chapter_link(chapters[i + 1]) if i + 1 < len(chapters) else None
        page = {
            "kind": "chapter", "url": parsed.chapter.url, "title": parsed.chapter.title,
            "number": parsed.chapter.number, "label": parsed.chapter.label, "minutes": parsed.minutes,
            # The simulations' styles inside the first one's stage: the text above it paints without
            # waiting for them (an in-body stylesheet holds back only what follows it).
            "answers": parsed.has_answers,
            "body": Markup(render_chapter(md, parsed, before_first_embed=SIMS_CSS.format(theme.asset("sims.css")))),
            "toc": [h for h in parsed.headings if h["level"] in TOC_LEVELS],
            "prev": previous, "next": following, "sims": parsed.sims, "aliases": {**parsed.env["aliases"], **parsed.env.get("elsewhere", {})},
            "description": summary_sentence(parsed) or theme.site["description"],
        }
        pages[parsed.chapter.url] = theme.render("chapter.html", page=page, nav=nav)
    first = _chapter_link(chapters[0]) if chapters else None
    pages[INDEX] = theme.render("index.html", nav=nav, page={
        "kind": "index", "url": INDEX, "title": theme.site["title"], "prev": None, "next": first,
        "sims": [], "toc": []})
    single = {p.chapter.source: p.section_id for p in chapters}
    guide_ids = {*single.values(), *(f"{p.section_id}-{i}" for p in chapters for i in p.env["ids"])}
    parts = [{
        "id": p.section_id, "number": p.chapter.number, "title": p.chapter.title, "label": p.chapter.label,
        "body": Markup(render_chapter(md, p, single, guide_ids)),
        "toc": [dict(h, id=f"{p.section_id}-{h['id']}") for h in p.headings if h["level"] == 2],
    } for p in chapters]
    for part in parts:
        part["chars"] = char_step(text_length(part["body"]))
    in_guide = [dict(item, url=f"#{p.section_id}") for item, p in zip(nav, chapters)]
    # Two copies of the whole guide: with the answers (printed open), and a student copy whose
    # answers and solutions stay folded on screen and are left out of print.
    for name, student, title in ((GUIDE, False, "The whole guide on one page"),
                                 (GUIDE_STUDENT, True, "The whole guide, student copy (answers left out of print)")):
        pages[name] = theme.render("guide.html", nav=in_guide, chapters=parts, student=student, page={
            "kind": "guide", "url": name, "title": title, "prev": None, "next": None,
            "sims": [], "toc": []})   # its simulations are cards linking to their chapters: no Python here
    return pages
