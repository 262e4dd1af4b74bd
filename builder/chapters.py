"""Parse each chapter once; render it for its own page or for the all-in-one page."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from markdown_it import MarkdownIt

from builder.markdown.env import new_env
from builder.reading_time import reading_minutes
from builder.problems import Problems
from builder.summary import Chapter
from builder.text_file import NotUTF8, read_text


@dataclasses.dataclass
class ParsedChapter:
    """A chapter's tokens and what its plugins recorded (headings, links, sims, ids)."""

    chapter: Chapter
    path: str
    tokens: list
    env: dict

    @property
    def headings(self) -> list[dict]:
        return self.env["headings"]

    @property
    def sims(self) -> list[str]:
        return sorted(set(self.env["sims"]))

    @property
    def pause_ids(self) -> list[str]:
        """The ids of the chapter's pause-and-check boxes, in order."""
        return [t.meta["id"] for t in self.tokens if t.type == "colon_pause_open" and "id" in t.meta]

    @property
    def has_answers(self) -> bool:
        """True if the chapter has answers a student copy leaves out of print: a pause box's or a
        drills box's (`::: answer`), or a predict-then-run box's."""
        return any(t.type in ("colon_answer_open", "predict") for t in self.tokens)

    @property
    def check_ids(self) -> list[str]:
        """The ids of what the reader answers in the chapter, in order: its pause-and-check boxes,
        then its predict-then-run boxes (the progress marks count both)."""
        predicts = [t.meta["id"] for t in self.tokens if t.type == "predict" and "id" in t.meta]
        return self.pause_ids + predicts

    @property
    def minutes(self) -> int:
        """The estimated reading time in minutes (builder/reading_time.py)."""
        return reading_minutes(self.tokens)

    @property
    def section_id(self) -> str:
        """The chapter's id on the all-in-one page, and the prefix of its ids there."""
        return f"ch{self.chapter.number}"


def parse_chapter(md: MarkdownIt, chapter: Chapter, file: Path, shown: str, problems: Problems,
                  reserved_ids=()) -> ParsedChapter:
    """Parse one chapter file; its problems go to `problems` as `shown:line: ...`."""
    env = new_env(shown, chapter.number, problems, reserved_ids, chapter.former)
    text = ""
    if file.is_file():
        try:
            text = read_text(file)
        except NotUTF8 as error:
            problems.add(shown, error.line, str(error))
    return ParsedChapter(chapter, shown, md.parse(text, env), env)


def render_chapter(md: MarkdownIt, parsed: ParsedChapter, single: dict | None = None,
                   guide_ids: set | None = None) -> str:
    """The chapter's body HTML: for its own page, or (with `single`, {source: section id}) for
    the all-in-one page, where ids are prefixed, headings go one level down, links between
    chapters stay within the page, and a simulation is a card that links to it on the chapter's
    own page (`live_page`). `guide_ids`, there, holds every id on that page so far: a moved
    chapter's old ids (`ch11-pause-11-2`) are added only where no other chapter uses them."""
    env = dict(parsed.env)
    if single is not None:
        env.update(id_prefix=f"{parsed.section_id}-", heading_shift=1, chapter_ids=single,
                   live_page=parsed.chapter.url, guide_ids=guide_ids if guide_ids is not None else set())
    return md.renderer.render(parsed.tokens, md.options, env)
