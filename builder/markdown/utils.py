"""What the fence extensions share: finding their fences, and reading their info string and header.

An extension is a fence whose first word names it:

    ```diagram                      ```sim live-queue
    caption: ...                    workers: 2
    ---                             ---
    (the body)                      (the body)
    ```                             ```

`fence_extension(md, name, parse, render)` turns every such fence into a token of type `name`,
lets `parse` read it once per document and `render` draw it; `split_header` reads the
`key: value` lines above a `---`. (mdit-py-plugins keeps its shared helpers in
`mdit_py_plugins/utils.py` in the same way.)
"""
from __future__ import annotations

from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import block_line, report

SEPARATOR = "---"


def fence_name(token) -> str:
    """The first word of a fence's info string: `sim` for ```sim live-queue."""
    return token.info.split(maxsplit=1)[0] if token.info.strip() else ""


def fence_rest(token) -> str:
    """The info string after its first word: `id=ex04 cwd=code` for ```transcript id=ex04 cwd=code."""
    words = token.info.split(maxsplit=1)
    return words[1] if len(words) > 1 else ""


def fence_lines(token) -> list[str]:
    """The fence's body as lines, without the final newline (an empty body is [""])."""
    return token.content.rstrip("\n").split("\n")


def fence_extension(md: MarkdownIt, name: str, parse: Callable[[StateCore, object, int | None], None],
                    render: Callable) -> None:
    """Make every ```name fence a token of type `name`.

    `parse(state, token, line)` runs once per such token after the block parse (`line`: the
    fence's 1-based line, for problems); it fills `token.meta`. `render` is the renderer rule
    for the new token type (markdown-it's `(self, tokens, idx, options, env) -> str`).
    """
    def find(state: StateCore) -> None:
        for token in state.tokens:
            if token.type == "fence" and fence_name(token) == name:
                token.type = name
                parse(state, token, block_line(token))

    md.core.ruler.push(name, find)
    md.add_render_rule(name, render)


def split_header(env: dict, lines: list[str], line: int, fields: tuple, required: bool = True):
    """Read `key: value` lines (indented lines continue a value) up to `---`.

    Returns ({key: value}, the lines after `---` (None when there is no `---`), their first
    line number) and reports any unknown key, missing key or missing `---`.
    """
    header: dict[str, str] = {}
    key = None
    for n, text in enumerate(lines):
        here = line + 1 + n
        if text.strip() == SEPARATOR:
            missing = [f for f in fields if f not in header] if required else []
            if missing:
                report(env, line, f"missing {' and '.join(repr(f + ':') for f in missing)} before '---'")
            return header, lines[n + 1:], here + 1
        if text[:1].isspace() and key and text.strip():
            header[key] += " " + text.strip()
            continue
        name, sep, value = text.partition(":")
        name = name.strip()
        if not sep or name not in fields:
            report(env, here, f"expected one of {', '.join(f + ':' for f in fields)} or '---', got {text!r}")
            key = None
            continue
        key = name
        header[key] = value.strip()
    report(env, line, "no '---' line: the header (" + ", ".join(f + ":" for f in fields)
           + ") ends with a line '---'")
    return header, None, line + 1 + len(lines)
