"""Blocks fenced by colons: the syntax under pause boxes and callouts.

    :::: pause
    The question, in Markdown.

    ::: answer
    The answer.
    :::
    ::::

A line of three or more colons followed by a name (and, for a box that can be linked to, an
optional `id=name`: `:::: pause id=why-a-lease`) opens a block; a line of exactly as many colons
closes it, so a four-colon block can hold a three-colon one. The name must be one of `names`:
anything else, a block never closed, and a closing line with nothing to close are problems.
Each block becomes `colon_<name>_open` / `colon_<name>_close` tokens; other plugins give them
meaning and HTML. Modelled on markdown-it-container
(https://github.com/markdown-it/markdown-it-container) and mdit_py_plugins.container.
"""
from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from builder.markdown.env import report

OPENER = re.compile(r"^(?P<colons>:{3,})[ \t]*(?P<name>[^\s:]*)[ \t]*(?P<rest>.*)$")
DECLARED_ID = re.compile(r"^id=(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)$")
LINKABLE = ("pause", "drills", "break")   # the blocks that take an id=


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line]: state.eMarks[line]]


def _is_code(state: StateBlock, line: int) -> bool:
    return state.sCount[line] - state.blkIndent >= 4


def colon_blocks_plugin(md: MarkdownIt, names: tuple[str, ...]) -> None:
    """Parse `::: name` ... `:::` blocks whose name is one of `names`."""

    def rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if _is_code(state, start):
            return False
        match = OPENER.match(_line(state, start))
        if not match:
            return False
        if silent:
            return True
        env = state.env
        colons, name = match["colons"], match["name"]
        if not name:
            report(env, start + 1, f"{colons!r} closes nothing: no block with {len(colons)} colons is open here")
            state.line = start + 1
            return True
        if name not in names:
            known = ", ".join(f"'::: {n}'" for n in names)
            report(env, start + 1, f"unknown block '{colons} {name}' (known: {known})")
        declared = DECLARED_ID.match(match["rest"].strip()) if name in LINKABLE else None
        if name in names and match["rest"] and not declared:
            hint = " (an id is lower-case letters, digits and '-': id=why-a-lease)" if name in LINKABLE else ""
            report(env, start + 1, f"unexpected text after '{colons} {name}': {match['rest']!r}{hint}")

        close = start + 1
        while close < end:
            if not _is_code(state, close) and _line(state, close).rstrip() == colons:
                break
            if state.sCount[close] < state.blkIndent and _line(state, close):
                break
            opener = None if _is_code(state, close) else OPENER.match(_line(state, close))
            if opener and opener["colons"] == colons and opener["name"]:
                break   # a block cannot hold one with as many colons: this one was left open
            close += 1
        closed = close < end and _line(state, close).rstrip() == colons
        if not closed:
            report(env, start + 1,
                   f"'{colons} {name}' is never closed: end it with a line '{colons}' (a block that "
                   f"holds another needs more colons than it, e.g. ':::: pause' around '::: answer')")

        old_parent, old_max = state.parentType, state.lineMax
        state.parentType = "colon_block"
        state.lineMax = close
        kind = name if name in names else "unknown"
        token = state.push(f"colon_{kind}_open", "div", 1)
        token.markup, token.info, token.map, token.block = colons, name, [start, close], True
        if declared:
            token.meta["declared_id"] = declared["id"]
        state.md.block.tokenize(state, start + 1, close)
        token = state.push(f"colon_{kind}_close", "div", -1)
        token.markup, token.block = colons, True
        state.parentType, state.lineMax = old_parent, old_max
        state.line = close + 1 if closed else close
        return True

    md.block.ruler.before("fence", "colon_blocks", rule,
                          {"alt": ["paragraph", "reference", "blockquote", "list"]})
    md.add_render_rule("colon_unknown_open", lambda *a: '<div class="unknown-block">\n')
    md.add_render_rule("colon_unknown_close", lambda *a: "</div>\n")
