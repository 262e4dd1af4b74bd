"""Callouts: boxed "Study drills" and "Break it" sections.

    ::: drills
    Change the sleep to 30 seconds. What happens to the second request?
    :::

    ::: break
    Kill the worker while it sends the email.
    :::

Any Markdown goes inside. Each box gets a title and an id numbered per chapter (`drills-4-1`,
`break-4-2`), so it can be linked to (docs/authoring.md, "Study drills and Break it").
"""
from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import alias_anchor, block_line, page_id, stable_id

TITLES = {"drills": "Study drills", "break": "Break it"}


def callouts_plugin(md: MarkdownIt) -> None:
    """Render `drills` and `break` blocks (parsed by colon_blocks) as titled boxes."""
    md.core.ruler.after("block", "callouts", _number_callouts)
    for kind in TITLES:
        md.add_render_rule(f"colon_{kind}_open", _render_open)
        md.add_render_rule(f"colon_{kind}_close", lambda *a: "</div>\n")


def _number_callouts(state: StateCore) -> None:
    chapter, counts = state.env.get("chapter", 0), dict.fromkeys(TITLES, 0)
    for token in state.tokens:
        kind = token.info if token.type == f"colon_{token.info}_open" else None
        if kind in TITLES:
            counts[kind] += 1
            token.meta["id"] = stable_id(state.env, kind, token.meta.get("declared_id"),
                                         f"{kind}-{chapter}-{counts[kind]}", block_line(token))


def _render_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    ident = page_id(env, token.meta.get("id", token.info))
    return (f'<div class="callout {token.info}" id="{ident}" role="note" aria-labelledby="{ident}-title">\n'
            f'{alias_anchor(env, token.meta.get("id", ""))}'
            f'<p class="callout-title" id="{ident}-title">{TITLES[token.info]}</p>\n')
