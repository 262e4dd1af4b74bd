"""Figures: an SVG file from content/figures/, shown with its text alternative.

    ![What the figure shows, for a reader who cannot see it](figures/scaling.svg "Caption")

A figure stands alone in its paragraph. The text between the brackets is the `alt` text and is
required; the quoted title, if any, becomes the caption under it. The file must be an SVG in
content/figures/ (it scales, and carries its own colours for a dark screen); the build copies each
figure a chapter uses to site/figures/, so the page refers to it by the same relative URL as the
chapter does. A chart also needs its numbers beside it in a table, the long text alternative:
https://www.w3.org/WAI/tutorials/images/complex/ (docs/authoring.md, "Figures").
"""
from __future__ import annotations

import html
import posixpath
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from builder.markdown.env import block_line, report
from builder.markdown.text import inline_text
from builder.svg_check import svg_problems

FOLDER = "figures"   # inside content/, and inside site/


def figures_plugin(md: MarkdownIt, root: Path) -> None:
    """Turn a paragraph holding one image into a figure; check the file and the alt text."""
    md.core.ruler.push("figures", lambda state: _find_figures(state, Path(root) / "content"))
    md.add_render_rule("figure", _render)


def _line(state: StateCore, inline: Token, needle: str) -> int | None:
    if state.inlineMode:
        return state.env.get("inline_line")
    start = block_line(inline)
    lines = state.src.split("\n")[inline.map[0]: inline.map[1]]
    return start + next((n for n, text in enumerate(lines) if needle in text), 0)


def _find_figures(state: StateCore, content: Path) -> None:
    tokens = state.tokens
    for index in range(len(tokens) - 1, -1, -1):   # backwards: a figure replaces three tokens
        inline = tokens[index]
        if inline.type != "inline":
            continue
        for image in (c for c in inline.children or [] if c.type == "image"):
            src = image.attrGet("src") or ""
            line = _line(state, inline, unquote(src))
            found = _check(state.env, src, inline_text(image.children).strip(), line, content)
            alone = (len(inline.children) == 1 and 0 < index < len(tokens) - 1
                     and tokens[index - 1].type == "paragraph_open")
            if not alone:
                report(state.env, line, f"figure {src!r}: a figure stands alone in its paragraph "
                                        "(blank lines around it)")
            elif found:
                figure = Token("figure", "figure", 0, map=tokens[index - 1].map, block=True,
                               meta={**found, "caption": image.attrGet("title") or ""})
                tokens[index - 1: index + 2] = [figure]


def _check(env: dict, src: str, alt: str, line: int | None, content: Path) -> dict | None:
    """The figure's meta (src, alt, width, height), or None after reporting what is wrong."""
    parts = urlsplit(src)
    if parts.scheme or src.startswith("//"):
        report(env, line, f"figure {src!r}: nothing is fetched from another site; put the file in content/{FOLDER}/")
        return None
    path = unquote(parts.path)
    if path.startswith("/"):
        report(env, line, f"figure {src!r}: use a relative path, {FOLDER}/NAME.svg "
                          "(the site may live under any path)")
        return None
    relative = posixpath.normpath(path)
    if not relative.startswith(FOLDER + "/") or parts.query or parts.fragment:
        report(env, line, f"figure {src!r}: figures live in content/{FOLDER}/ (write {FOLDER}/NAME.svg)")
        return None
    if not relative.endswith(".svg"):
        report(env, line, f"figure {src!r}: the guide's figures are SVG files "
                          "(they scale, and carry their own dark colours)")
        return None
    if not alt:
        report(env, line, f"figure {src!r} has no text alternative: write what it shows between "
                          f"the brackets, ![...]({src})")
    file = content / relative
    if not file.is_file():
        report(env, line, f"figure {src!r}: content/{relative} does not exist")
        return None
    if not file.resolve().is_relative_to(content.parent.resolve()):
        report(env, line, f"figure {src!r}: content/{relative} is a symbolic link out of the repository "
                          "(the build publishes only the repository's own files)")
        return None
    size = _size(file)
    if isinstance(size, str):
        report(env, line, f"figure {src!r}: {size}")
        return None
    unsafe = svg_problems(file.read_bytes())
    for svg_line, message in unsafe:   # at the figure's own line: that is where the fix goes
        env["problems"].add(f"content/{relative}", svg_line,
                            f"{message}: a figure holds drawing, text and styles, nothing that runs or fetches")
    if unsafe:
        return None
    env["figures"].append({"line": line, "source": relative})
    return {"src": relative, "alt": alt, "width": size[0], "height": size[1]} if alt else None


def _size(file: Path) -> tuple[int, int] | str:
    """(width, height) from the SVG's viewBox, for the page to keep its place before it loads;
    or what is wrong with the file."""
    try:
        root = ElementTree.parse(file).getroot()
    except ElementTree.ParseError as error:
        return f"not a readable SVG file ({error})"
    box = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        width, height = float(box[2]), float(box[3])
    except (IndexError, ValueError):
        return "the SVG needs a viewBox=\"0 0 WIDTH HEIGHT\" (its size on the page)"
    return round(width), round(height)


def _render(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    caption = f'<figcaption>{html.escape(meta["caption"])}</figcaption>\n' if meta["caption"] else ""
    return (f'<figure class="figure">\n<img src="{html.escape(meta["src"])}" alt="{html.escape(meta["alt"])}" '
            f'width="{meta["width"]}" height="{meta["height"]}">\n{caption}</figure>\n')
