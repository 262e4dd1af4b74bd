"""Heading ids and anchors.

    ## The lease          ->  <h2 id="the-lease"><a class="heading-link" href="#the-lease">The lease</a></h2>

Every heading gets an id made from its text: lower case, words joined by `-`, a repeat taking
`-2`, `-3` (docs/authoring.md, "Order and titles"). The heading's text is itself the link to it,
as mdBook does, so the anchor needs no extra symbol for screen readers to announce. A `#` heading
is a problem: the page template renders the chapter's one `<h1>` from SUMMARY.md.
"""
from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import block_line, claim_id, page_id, report

WORD = re.compile(r"\w+")


def slugify(text: str) -> str:
    """`Retry: trying again, politely` -> `retry-trying-again-politely`."""
    text = text.lower().replace("'", "").replace("\u2019", "")
    return "-".join(WORD.findall(text)) or "section"


def heading_text(inline) -> tuple[str, str]:
    """The plain text of a heading's inline token, and the same as HTML keeping `code`."""
    plain, marked = [], []
    for child in inline.children or []:
        if child.type in ("text", "softbreak", "hardbreak"):
            value = child.content if child.type == "text" else " "
            plain.append(value)
            marked.append(html.escape(value))
        elif child.type == "code_inline":
            plain.append(child.content)
            marked.append(f"<code>{html.escape(child.content)}</code>")
    return "".join(plain).strip(), "".join(marked).strip()


def headings_plugin(md: MarkdownIt) -> None:
    """Give each heading an id and a self-link; record them in env["headings"] for the TOC."""
    md.core.ruler.push("headings", _assign_ids)
    md.add_render_rule("heading_open", _render_open)
    md.add_render_rule("heading_close", _render_close)


def _assign_ids(state: StateCore) -> None:
    env, tokens = state.env, state.tokens
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        line, level = block_line(token), int(token.tag[1])
        if level == 1:
            report(env, line, "a chapter has no '#' heading: the page shows its title from "
                              "SUMMARY.md; start sections at '##'")
        inline = tokens[i + 1]
        text, marked = heading_text(inline)
        ident = claim_id(env, slugify(text), line)
        token.meta["id"] = ident
        token.meta["wrap"] = not any(c.type == "link_open" for c in inline.children or [])
        env["headings"].append({"level": level, "id": ident, "text": text, "html": marked, "line": line})


def _tag(env: dict, token) -> str:
    return f"h{min(6, int(token.tag[1]) + env.get('heading_shift', 0))}"


def _render_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    ident = page_id(env, token.meta.get("id", "section"))
    link = f'<a class="heading-link" href="#{ident}">' if token.meta.get("wrap") else ""
    return f'<{_tag(env, token)} id="{ident}">{link}'


def _render_close(self, tokens, idx, options, env) -> str:
    opening = tokens[idx - 2]
    return ("</a>" if opening.meta.get("wrap") else "") + f"</{_tag(env, opening)}>\n"
