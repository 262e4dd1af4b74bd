"""Links: rewritten for the site and recorded so the build can check every target.

    [leases](05-leases.md)              -> 05-leases.html        (ch5 section on the all-in-one page)
    [the lease](05-leases.md#the-lease) -> 05-leases.html#the-lease
    [above](#the-lease)                 -> #the-lease
    [the file](../code/ex04_queue.py)   -> code/ex04_queue.py    (must exist in code/)
    [SQLite](https://sqlite.org/)       -> unchanged

Anything else (an absolute path, another scheme, a relative link to a file that is neither a
chapter nor an exercise file) is a problem; images are figures (builder/markdown/figures.py). Chapter and `#anchor` targets are recorded
in env["links"] and checked once every chapter is parsed (docs/authoring.md, "Links").
"""
from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import block_line, report

EXTERNAL = ("http", "https", "mailto")


def links_plugin(md: MarkdownIt, root: Path) -> None:
    """Check and rewrite links; exercise files are looked up in `root`/code."""
    md.core.ruler.push("links", lambda state: _find_links(state, Path(root)))
    md.add_render_rule("link_open", _render_link_open)


def _source_line(state: StateCore, inline, needle: str) -> int | None:
    if state.inlineMode:
        return state.env.get("inline_line")
    start = block_line(inline)
    lines = state.src.split("\n")[inline.map[0]: inline.map[1]]
    for offset, text in enumerate(lines):
        if needle in text:
            return start + offset
    return start


def _find_links(state: StateCore, root: Path) -> None:
    env = state.env
    for inline in (t for t in state.tokens if t.type == "inline"):
        for child in inline.children or []:
            if child.type == "link_open" and child.markup != "autolink":
                href = child.attrGet("href") or ""
                line = _source_line(state, inline, unquote(href))
                child.meta["target"] = _classify(env, href, line, root)
            elif child.type == "link_open":
                child.meta["target"] = ("external", child.attrGet("href"))


def _classify(env: dict, href: str, line: int | None, root: Path):
    parts = urlsplit(href)
    if parts.scheme in EXTERNAL:
        return ("external", href)
    if parts.scheme:
        report(env, line, f"link {href!r}: only https://, http:// and mailto: links leave the site")
        return None
    path, anchor = unquote(parts.path), unquote(parts.fragment) or None
    if not path:
        env["links"].append({"line": line, "source": None, "anchor": anchor})
        return ("anchor", anchor)
    if path.startswith("/"):
        report(env, line, f"link {href!r}: use a relative link (the site may live under any path)")
        return None
    if "/" not in path and path.endswith(".md"):
        env["links"].append({"line": line, "source": path, "anchor": anchor})
        return ("chapter", path, anchor)
    target = posixpath.normpath(posixpath.join("content", path))
    if target.startswith("code/"):
        if not (root / target).is_file():
            report(env, line, f"link {href!r}: {target} does not exist")
        elif anchor:
            report(env, line, f"link {href!r}: an exercise file has no #anchors")
        return ("code", target)
    report(env, line, f"link {href!r}: not a chapter (a .md file in content/) "
                      "nor an exercise file (../code/...)")
    return None


def resolve(env: dict, target) -> str | None:
    """The href of a link target in the page being rendered."""
    if not target:
        return None
    kind = target[0]
    if kind in ("external", "code"):
        return target[1]
    single = env.get("chapter_ids")
    if kind == "anchor":
        return "#" + env.get("id_prefix", "") + (target[1] or "")
    source, anchor = target[1], target[2]
    if single is not None and source in single:
        return "#" + (f"{single[source]}-{anchor}" if anchor else single[source])
    return source[: -len(".md")] + ".html" + (f"#{anchor}" if anchor else "")


def _render_link_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    href = resolve(env, token.meta.get("target"))
    if href is not None:
        token.attrSet("href", href)
    return self.renderToken(tokens, idx, options, env)
