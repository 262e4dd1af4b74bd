"""What an SVG figure may hold: drawing, text and styles; nothing that runs or fetches.

A figure is copied to site/figures/ and served from the site's own origin. An <img> never runs
an SVG's scripts, but a reader (or a link someone sends) can open the file itself, and then it
is a document of its own, at the site's origin, outside the pages' Content-Security-Policy: a
<script> there could read what the site keeps in localStorage (the reader's saved code). So the
build refuses, at the figure's own line: script and foreignObject elements (HTML inside SVG),
any on* event attribute, a URL with a scheme or to another host (href, xlink:href, src, and CSS
url(...) or @import), processing instructions (xml-stylesheet fetches a stylesheet), and a
DOCTYPE (entities can spell what the rest of the check would refuse). Same-document references,
`#gradient` or url(#clip), stay allowed.

The file is read by expat, the XML parser the browser's rules match here: it decodes character
references and the file's encoding before anything is checked, so `&#106;avascript:` is seen as
`javascript:`.
"""
from __future__ import annotations

import re
import xml.parsers.expat

SEPARATOR = "\x1f"   # expat joins a namespaced name as URI + SEPARATOR + local name
RUNS = {"script": "a <script> element (it runs when the file is opened at its own URL)",
        "foreignobject": "a <foreignObject> element (it holds HTML, which can run or fetch)",
        "handler": "an event-handler attribute"}
URL_ATTRIBUTES = {"href", "src"}
CSS_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)|@import|image-set\(|\bsrc\(", re.IGNORECASE | re.DOTALL)
CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.DOTALL)
SCRIPT_URL = re.compile(r"(?:java|vb)script:", re.IGNORECASE)
URL_NOISE = re.compile(r"[\t\n\r]")   # browsers drop these from anywhere in a URL (WHATWG URL)


def _local(name: str) -> str:
    return name.rsplit(SEPARATOR, 1)[-1].lower()


def leaves_the_file(url: str) -> bool:
    """True when `url` names something outside this file: a scheme (javascript:, data:, https:),
    another host (//example.com), or another path; only `#id` references stay inside."""
    url = URL_NOISE.sub("", url).strip(" \x00-\x1f")
    return bool(url) and not url.startswith("#")


def _css_problems(css: str) -> list[str]:
    decoded = CSS_ESCAPE.sub(lambda m: chr(int(m[1], 16)) if m[1] else m[2], css)
    found = []
    for match in CSS_URL.finditer(decoded):
        if match[0].lower() == "@import":
            found.append("a CSS @import (it fetches another stylesheet)")
        elif not match[0].lower().startswith("url("):   # image-set("a.png" 1x), src("a.png"): strings
            found.append(f"a CSS {match[0].strip().lower()}...) (it fetches a file; a figure draws its own)")
        elif leaves_the_file(match[2]):
            found.append(f"a CSS url({match[2]!r}) outside the figure (only url(#id) is allowed)")
    return found


def svg_problems(data: bytes) -> list[tuple[int, str]]:
    """[(1-based line in the file, what is wrong)]: empty when the figure is safe to publish.
    A file expat cannot read is one problem at the line where it stopped."""
    found: list[tuple[int, str]] = []
    parser = xml.parsers.expat.ParserCreate(namespace_separator=SEPARATOR)
    styles: list[list[str] | None] = []   # per open element: its text when it is a <style>

    def where() -> int:
        return parser.CurrentLineNumber

    def start(name, attributes):
        tag = _local(name)
        if tag in ("script", "foreignobject"):
            found.append((where(), RUNS[tag]))
        styles.append([] if tag == "style" else None)
        for key, value in attributes.items():
            attribute = _local(key)
            if SCRIPT_URL.search(URL_NOISE.sub("", value)):
                found.append((where(), f"<{tag} {attribute}=...> holds a script URL"))
            elif tag in ("animate", "set") and attribute == "attributename" and value.split(":")[-1].strip().lower() in URL_ATTRIBUTES:
                found.append((where(), f"<{tag}> changes a link ({value}); a figure's links stay as written"))
            elif attribute.startswith("on"):
                found.append((where(), f"{RUNS['handler']} {attribute}= on <{tag}>"))
            elif attribute in URL_ATTRIBUTES and leaves_the_file(value):
                found.append((where(), f"<{tag} {attribute}={value!r}> refers outside the figure "
                                       "(only #id references are allowed)"))
            elif attribute == "style" or "url(" in value.lower():
                found.extend((where(), problem) for problem in _css_problems(value))

    def end(name):
        css = styles.pop()
        if css:   # checked whole: expat hands text over in pieces, split at each character reference
            found.extend((where(), problem) for problem in _css_problems("".join(css)))

    def text(data):
        if styles and styles[-1] is not None:
            styles[-1].append(data)

    def instruction(target, data):
        found.append((where(), f"a processing instruction <?{target} ...?> (a figure needs none)"))

    def doctype(*args):
        found.append((where(), "a DOCTYPE (its entities can hide what the figure holds; a figure needs none)"))

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler, parser.ProcessingInstructionHandler = text, instruction
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as error:
        found.append((error.lineno, f"not a readable SVG file ({xml.parsers.expat.ErrorString(error.code)})"))
    return found
