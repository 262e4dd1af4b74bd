"""Terminal transcripts: what the reader types and what the program prints.

    ```transcript id=ex04-enqueue
    $ python3 ex04_durable_queue.py enqueue ada@example.com
    enqueued 1 job
    ^C
    ```

A line starting with `$ ` is typed by the reader (<kbd>), `^C` alone is Ctrl-C, every other line
is output (<samp>); a line `...` stands for output not shown. Attributes: `id` (required, unique
in the guide), `cwd`, `after`, `run=manual`, `unordered="  ["` (output lines starting with that text
may come in any order among themselves); tests/transcripts/ replays each transcript against
the real programs (docs/authoring.md, "Transcripts"). The copy button copies the commands only.
"""
from __future__ import annotations

import html
import shlex
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import declare_id, page_id, report
from builder.markdown.utils import fence_extension, fence_lines, fence_rest

PROMPT, INTERRUPT, ELISION = "$ ", "^C", "..."
ATTRIBUTES = ("id", "cwd", "after", "run", "unordered")


def transcript_plugin(md: MarkdownIt, root: Path) -> None:
    """Turn ```transcript fences into terminal blocks; `cwd=` is checked against `root`."""
    root = Path(root)
    fence_extension(md, "transcript", lambda state, token, line: _parse(state, token, line, root), _render)


def parse_attributes(env: dict, text: str, line: int | None, allowed: tuple) -> dict:
    """`id=a cwd=code` -> {"id": "a", "cwd": "code"}; unknown or malformed ones are problems."""
    try:
        parts = shlex.split(text)
    except ValueError as error:
        report(env, line, f"cannot read the attributes {text!r}: {error}")
        return {}
    attrs = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in allowed:
            report(env, line, f"unknown attribute {part!r} (allowed: {', '.join(k + '=' for k in allowed)})")
        else:
            attrs[key] = value
    return attrs


def _parse(state: StateCore, token, line: int | None, root: Path) -> None:
    env = state.env
    attrs = parse_attributes(env, fence_rest(token), line, ATTRIBUTES)
    ident = attrs.get("id")
    if not ident:
        report(env, line, "a transcript needs an id: ```transcript id=ex04-enqueue")
        ident = f"unnamed-{line}"
    token.meta["id"] = declare_id(env, f"transcript-{ident}", line)
    if attrs.get("run", "manual") != "manual":
        report(env, line, f"run={attrs['run']!r}: the only value is run=manual")
    if "cwd" in attrs and not (root / attrs["cwd"]).is_dir():
        report(env, line, f"cwd={attrs['cwd']!r}: no such folder")
    if "unordered" in attrs and not attrs["unordered"]:
        report(env, line, "unordered= needs the text its lines start with, e.g. unordered='  ['")
    lines = fence_lines(token) if token.content.strip() else []
    if not lines:
        report(env, line, "an empty transcript: add a '$ command' line")
    elif not lines[0].startswith(PROMPT):
        report(env, line + 1, f"output before the first '$ ' command: {lines[0]!r}")
    token.meta["lines"] = lines
    env["transcripts"].append({"id": ident, "line": line, "attrs": attrs, "lines": lines,
                               "after": [a for a in attrs.get("after", "").split(",") if a]})


def _render(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    out, output = [], []

    def flush():
        if output:
            out.append("<samp>" + "\n".join(output) + "</samp>")
            output.clear()

    for text in token.meta.get("lines", []):
        if text.startswith(PROMPT):
            flush()
            out.append(f'<span class="prompt">$ </span><kbd>{html.escape(text[len(PROMPT):], quote=False)}</kbd>')
        elif text == INTERRUPT:
            flush()
            out.append(f'<kbd class="interrupt" title="Ctrl-C">{INTERRUPT}</kbd>')
        elif text.strip() == ELISION:
            output.append(f'<span class="elision" title="more output, not shown">{html.escape(text, quote=False)}</span>')
        else:
            output.append(html.escape(text, quote=False))
    flush()
    ident = page_id(env, token.meta.get("id", "transcript"))
    return (f'<figure class="transcript" id="{ident}">\n<figcaption class="transcript-title">Terminal</figcaption>\n'
            f'<div class="code-block terminal" data-copy="commands"><pre><code>'
            + "\n".join(out) + "\n</code></pre></div>\n</figure>\n")
