"""Plain text out of inline tokens (for search, descriptions and anything else that wants words)."""
from __future__ import annotations

WORD_TOKENS = ("text", "code_inline")
BREAK_TOKENS = ("softbreak", "hardbreak")


def inline_text(children) -> str:
    """The words of inline tokens: text and code kept, a line break a space, markup (emphasis,
    links, tags) nothing; runs of whitespace become one space."""
    parts = [c.content if c.type in WORD_TOKENS else " " if c.type in BREAK_TOKENS else ""
             for c in children or []]
    return " ".join("".join(parts).split())
