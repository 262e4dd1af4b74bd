"""How long a chapter takes to read, estimated at build time from its parsed tokens.

Prose is counted at 200 words a minute, a pace for careful reading of technical text; code,
transcripts and diagrams at 30 lines a minute (a reader looks them over, then runs them); each
simulation embed adds 2 minutes to try it. The estimate is rounded up to whole minutes.
"""
from __future__ import annotations

import math

from builder.markdown.text import inline_text

WORDS_PER_MINUTE = 200
LINES_PER_MINUTE = 30
MINUTES_PER_SIMULATION = 2


def reading_minutes(tokens: list) -> int:
    """The estimated minutes to read a chapter's `tokens` (at least 1)."""
    words, lines, sims = 0, 0, 0
    for token in tokens:
        if token.type == "inline":
            words += len(inline_text(token.children).split())
        elif token.type in ("fence", "code_block", "transcript", "diagram"):
            lines += max(1, len(token.content.strip("\n").split("\n")))
        elif token.type == "include":
            lines += len(token.meta.get("lines") or ())
        elif token.type == "sim":
            sims += 1
    minutes = words / WORDS_PER_MINUTE + lines / LINES_PER_MINUTE + sims * MINUTES_PER_SIMULATION
    return max(1, math.ceil(minutes))
