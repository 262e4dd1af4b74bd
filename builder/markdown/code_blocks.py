"""Ordinary code blocks: highlighted at build time, in a box that gets a copy button.

    ```sql
    SELECT id FROM jobs WHERE status = 'queued';
    ```

The word after the fence is a Pygments language name (https://pygments.org/languages/); a fence
the extensions did not take and whose word is no language is a problem, which catches a
misspelt `transcrpit`. An empty info string means plain text.
"""
from __future__ import annotations

import html

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.highlight import PLAIN, highlight_lines, lexer_named
from builder.markdown.env import block_line, report
from builder.markdown.utils import fence_name

EXTENSIONS = ("transcript", "diagram", "include", "sim")


def code_block(lines_html: list[str], language: str, numbers: range | None = None) -> str:
    """The HTML of a highlighted block; `numbers` gives each line a number shown beside it."""
    if numbers is not None:
        lines_html = [f'<span class="line" data-n="{n}">{text}</span>' for n, text in zip(numbers, lines_html)]
    body = "\n".join(lines_html)
    numbered = " numbered" if numbers is not None else ""
    return (f'<div class="code-block{numbered}" data-lang="{html.escape(language)}">'
            f'<pre><code class="language-{html.escape(language)}">{body}\n</code></pre></div>\n')


def code_blocks_plugin(md: MarkdownIt) -> None:
    """Highlight fenced and indented code; report fences with an unknown language."""
    md.core.ruler.push("code_blocks", _check_languages)
    md.add_render_rule("fence", _render_fence)
    md.add_render_rule("code_block", _render_indented)


def _check_languages(state: StateCore) -> None:
    for token in state.tokens:
        if token.type != "fence":
            continue
        name = fence_name(token)
        if lexer_named(name) is None:
            report(state.env, block_line(token),
                   f"unknown code block language or extension {name!r} (extensions: "
                   f"{', '.join(EXTENSIONS)}; languages: https://pygments.org/languages/)")


def _render_fence(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    name = fence_name(token) or PLAIN
    lexer = lexer_named(name) or lexer_named(PLAIN)
    return code_block(highlight_lines(token.content, lexer), name)


def _render_indented(self, tokens, idx, options, env) -> str:
    return code_block(highlight_lines(tokens[idx].content, lexer_named(PLAIN)), PLAIN)
