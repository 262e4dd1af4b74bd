"""Raw HTML in a chapter: allowed (CommonMark), but nothing the site's CSP would block.

The pages carry `Content-Security-Policy: script-src 'self'; style-src 'self'`, so a `<script>`
or `<style>` element, a `style="..."` attribute, an `on...=` event handler or a `javascript:` URL
in a chapter would be silently dropped by the browser; the build reports it instead.
"""
from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import block_line, report

FORBIDDEN = re.compile(
    r"<\s*(?P<element>script|style|iframe|object|embed)\b"
    r"|\s(?P<attribute>style|on[a-z]+)\s*="
    r"|(?P<url>javascript:)", re.IGNORECASE)


def raw_html_plugin(md: MarkdownIt) -> None:
    """Report raw HTML that inline scripts or styles would need."""
    md.core.ruler.push("raw_html", _check)


def _check(state: StateCore) -> None:
    for token in state.tokens:
        pieces = [(token, token.content)] if token.type == "html_block" else []
        if token.type == "inline":
            pieces = [(token, c.content) for c in token.children or [] if c.type == "html_inline"]
        for owner, content in pieces:
            match = FORBIDDEN.search(content)
            if match:
                what = match["element"] or match["attribute"] or match["url"]
                report(state.env, block_line(owner),
                       f"raw HTML {what!r} is blocked by the site's Content-Security-Policy: "
                       "use Markdown, or ask for a theme change")
