"""Box-drawing diagrams: preformatted art with a caption and a text alternative.

    ```diagram
    caption: The worker loop: claim, do, ack, repeat
    alt: A loop of three steps. Claim a job, do the work,
      ack it, then claim the next one.
    ---
    ┌──────────┐
    │ 1. claim │
    └──────────┘
    ```

`caption:` (shown under the drawing, inline Markdown) and `alt:` (read by screen readers instead of
the drawing; continuation lines are indented) are both required, then a line `---`, then the
drawing, kept exactly as written (docs/authoring.md, "Diagrams"). The drawing is an ARIA `img`
named by the alt text: https://www.w3.org/WAI/tutorials/images/complex/
"""
from __future__ import annotations

import html

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.code_blocks import fence_name
from builder.markdown.env import block_line, parse_inline, report

FIELDS = ("caption", "alt")
SEPARATOR = "---"


def diagram_plugin(md: MarkdownIt) -> None:
    """Turn ```diagram fences into captioned figures."""
    md.core.ruler.push("diagram", _parse)
    md.add_render_rule("diagram", _render)


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


def _parse(state: StateCore) -> None:
    for token in state.tokens:
        if token.type != "fence" or fence_name(token) != "diagram":
            continue
        line = block_line(token)
        token.type = "diagram"
        if token.info.strip() != "diagram":
            report(state.env, line, f"unexpected text after ```diagram: {token.info.split(maxsplit=1)[1]!r}")
        header, art, first = split_header(state.env, token.content.rstrip("\n").split("\n"), line, FIELDS)
        while art and not art[-1].strip():
            art.pop()
        if art == []:
            report(state.env, first, "the diagram has no drawing after '---'")
        token.meta.update(header, art="\n".join(art or []))
        token.meta["caption"] = parse_inline(state.md, state.env, header.get("caption", ""), line + 1)


def _render(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    alt = html.escape(meta.get("alt", ""))
    return (f'<figure class="diagram">\n<pre class="diagram-art" role="img" aria-label="{alt}">'
            f'{html.escape(meta.get("art", ""), quote=False)}</pre>\n'
            f'<figcaption>{self.renderInline(meta.get("caption", []), options, env)}</figcaption>\n</figure>\n')
