"""Syntax highlighting at build time, with Pygments, one line at a time.

Output is one short class per colour the theme draws (`k` keyword, `s` string, `c` comment, ...:
COLOURS, Pygments' token classes grouped) and never a style attribute, so the page works under a
Content-Security-Policy without 'unsafe-inline'; the colours are in theme/css/40-code.css. A token
drawn in the text's own colour (names, operators, punctuation) gets no span, and a run of tokens
of one colour (`f` + `"text {` of an f-string) gets one: every element costs the browser style and
layout, and guide.html holds every code block of the guide (its phone performance). Lines are returned separately so a block can be sliced (an include's `lines=`)
and numbered after highlighting the whole file, which keeps the lexer's state right mid-file.
https://pygments.org/docs/tokens/
"""
from __future__ import annotations

import html

from pygments import lex
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import STANDARD_TYPES
from pygments.util import ClassNotFound

PLAIN = "text"
# Pygments' short class (https://pygments.org/docs/tokens/) -> the class of its colour in 40-code.css.
# Any other token (plain names, operators, punctuation, whitespace, ...) is drawn as plain text.
_GROUPS = {
    "k": ("k", "kc", "kd", "kn", "kp", "kr", "kt", "ow"),
    "s": ("s", "sa", "sb", "sc", "dl", "sd", "s2", "se", "sh", "si", "sx", "sr", "s1", "ss"),
    "c": ("c", "ch", "cm", "cp", "cpf", "c1", "cs"),
    "m": ("m", "mb", "mf", "mh", "mi", "mo", "il"),
    "nf": ("nf", "fm"),
    "nc": ("nc", "nn", "ne"),
    "nb": ("nb", "bp"),
    "nd": ("nd",),
    "gp": ("gp",),
    "go": ("go",),
}
COLOURS = {token: colour for colour, tokens in _GROUPS.items() for token in tokens}


def lexer_named(name: str) -> Lexer | None:
    """The lexer for a fenced block's language (`python`, `sql`, `json`, ...), or None."""
    try:
        return get_lexer_by_name(name or PLAIN, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return None


def lexer_for_file(filename: str) -> Lexer:
    """The lexer for a file by its name; plain text when Pygments knows no better."""
    try:
        return get_lexer_for_filename(filename, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return get_lexer_by_name(PLAIN, stripnl=False, ensurenl=True)


def _css_class(ttype) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def lex_lines(code: str, lexer: Lexer) -> list[list[tuple[str, str]]]:
    """Split `code` into lines of (colour class, text) pieces; "" is the class of plain text."""
    lines: list[list[tuple[str, str]]] = [[]]
    for ttype, value in lex(code, lexer):
        css = COLOURS.get(_css_class(ttype), "")
        for n, piece in enumerate(value.split("\n")):
            if n:
                lines.append([])
            if not piece:
                continue
            line = lines[-1]
            if line and line[-1][0] == css:   # one span for a run of one kind
                line[-1] = (css, line[-1][1] + piece)
            else:
                line.append((css, piece))
    if lines and not lines[-1]:
        lines.pop()
    return lines


def dedent(lines: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
    """Remove the indentation that every non-blank line shares (as textwrap.dedent does)."""
    texts = ["".join(text for _, text in line) for line in lines]
    indents = [len(t) - len(t.lstrip(" ")) for t in texts if t.strip()]
    cut = min(indents, default=0)
    out = []
    for line in lines:
        left, kept = cut, []
        for css, text in line:
            if left:
                strip = min(left, len(text) - len(text.lstrip(" ")))
                text = text[strip:]
                left = left - strip if not text else 0   # a piece of only spaces: keep cutting
            if text:
                kept.append((css, text))
        out.append(kept)
    return out


def to_html(line: list[tuple[str, str]]) -> str:
    """One lexed line as HTML: each token a <span class="..."> (plain text bare)."""
    parts = []
    for css, text in line:
        text = html.escape(text, quote=False)
        parts.append(f'<span class="{css}">{text}</span>' if css else text)
    return "".join(parts)


def highlight_lines(code: str, lexer: Lexer) -> list[str]:
    """Return one HTML string per line of `code` (no trailing newlines), tokens in <span>s."""
    return [to_html(line) for line in lex_lines(code, lexer)]
