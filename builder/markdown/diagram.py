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

from builder.markdown.env import parse_inline, report
from builder.markdown.utils import fence_extension, fence_lines, fence_rest, split_header

FIELDS = ("caption", "alt")


def diagram_plugin(md: MarkdownIt) -> None:
    """Turn ```diagram fences into captioned figures."""
    fence_extension(md, "diagram", _parse, _render)


def _parse(state: StateCore, token, line: int | None) -> None:
    if fence_rest(token):
        report(state.env, line, f"unexpected text after ```diagram: {fence_rest(token)!r}")
    header, art, first = split_header(state.env, fence_lines(token), line, FIELDS)
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
