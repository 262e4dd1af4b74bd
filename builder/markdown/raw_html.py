"""Raw HTML in a chapter: allowed (CommonMark), but nothing that runs, fetches, sends or redirects.

The pages carry `Content-Security-Policy: script-src 'self'; style-src 'self'`, so a `<script>`
or `<style>` element, a `style="..."` attribute, an `on...=` event handler or a `javascript:` URL
in a chapter would be silently dropped by the browser; the build reports it instead. It refuses
too what the policy does not stop: a `<form>` (it sends what a reader types anywhere), `<base>`
(it moves every relative URL of the page to another site), `<link>` and `<meta>` (a refresh that
redirects the reader), and the frames and plugins (`iframe`, `object`, `embed`, ...).

Each piece of raw HTML is read by Python's HTML parser, which decodes character references in
attribute values as a browser does, so `&#106;avascript:` and `java&#x09;script:` are seen as
`javascript:`; a browser also drops tabs and newlines inside a URL (WHATWG URL), and so does the
check. As a second net, the decoded text is searched for an event handler after any separator
(`<img/onerror=...>`) and for a script URL anywhere; elements whose content a browser reads as text
(`xmp`, `noscript`, `textarea`, ...) are refused, and so is a piece that ends inside a tag (the
browser would read the next block as that tag's attributes).
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import block_line, report

BLOCKED = "is blocked by the site's Content-Security-Policy: use Markdown, or ask for a theme change"
CSP_ELEMENTS = {"script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "portal",
                "fencedframe"}
OTHER_ELEMENTS = {
    "form": "sends what a reader types to any address",
    "base": "moves every relative URL of the page to another address",
    "link": "loads or announces another resource",
    "meta": "can refresh the page to another address",
    "svg": "can hold scripts and foreign references; put a figure in content/figures/",
    "math": "can hold links the check cannot follow; write the formula in text",
}
# Elements whose content a browser reads as plain text (or, for noscript, as text only while scripts
# run), where this parser reads tags: `<xmp><p title="</xmp><a href=javascript:...>">` is one harmless
# attribute to it and a live link to a browser. A chapter needs none of them.
RAW_TEXT = {"xmp", "plaintext", "listing", "noscript", "noembed", "noframes", "textarea", "title", "template"}
SCRIPT_URL = re.compile(r"^[\x00-\x20]*(?:javascript|vbscript|data):", re.IGNORECASE)
URL_NOISE = re.compile(r"[\t\n\r]")
ANY_SCRIPT_URL = re.compile(r"(?:java|vb)script:", re.IGNORECASE)   # the second net, anywhere
HANDLER = re.compile(r"[\s/\"'`<](on[a-z]+)\s*=", re.IGNORECASE)   # the second net, on decoded text


class _Reader(HTMLParser):
    """Collects what is refused in one piece of raw HTML, in the order found."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in CSP_ELEMENTS:
            self.found.append(f"raw HTML {tag!r} {BLOCKED}")
        elif tag in RAW_TEXT:
            self.found.append(f"raw HTML <{tag}> is not allowed in a chapter: a browser reads what it holds "
                              "differently from the build's check")
        elif tag in OTHER_ELEMENTS:
            self.found.append(f"raw HTML <{tag}> is not allowed in a chapter: it {OTHER_ELEMENTS[tag]}")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"raw HTML {name!r} {BLOCKED}")
            elif value and SCRIPT_URL.match(URL_NOISE.sub("", value)):
                shown = URL_NOISE.sub("", value)[:30]
                self.found.append(f"raw HTML {name}={shown!r}: a script or data URL {BLOCKED}")

    handle_startendtag = handle_starttag


def html_problems(content: str) -> list[str]:
    """What is refused in one piece of a chapter's raw HTML (empty when it is fine)."""
    reader = _Reader()
    reader.feed(content)
    found = reader.found
    if reader.rawdata.lstrip().startswith("<"):   # the parser is still waiting for this tag's end
        found.append("raw HTML ends inside a tag: close it with '>' in the same block")
    reader.close()
    decoded = URL_NOISE.sub("", html.unescape(content))
    match = HANDLER.search(decoded)
    if match and not any(f"'{match[1].lower()}'" in problem for problem in found):
        found.append(f"raw HTML {match[1].lower()!r} {BLOCKED}")
    if ANY_SCRIPT_URL.search(decoded) and not any("script or data URL" in problem for problem in found):
        found.append(f"raw HTML holds a script URL ('javascript:') {BLOCKED}")
    return list(dict.fromkeys(found))


def raw_html_plugin(md: MarkdownIt) -> None:
    """Report raw HTML that runs, fetches, sends or redirects."""
    md.core.ruler.push("raw_html", _check)


def _check(state: StateCore) -> None:
    for token in state.tokens:
        pieces = [(token, token.content)] if token.type == "html_block" else []
        if token.type == "inline":
            pieces = [(token, c.content) for c in token.children or [] if c.type == "html_inline"]
        for owner, content in pieces:
            # A caption or fallback text is parsed on its own (env.parse_inline): its line is the env's.
            line = state.env.get("inline_line") if state.inlineMode else block_line(owner)
            for problem in html_problems(content):
                report(state.env, line, problem)
