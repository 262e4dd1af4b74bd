"""Include an exercise file from code/, so the text and the code cannot drift apart.

    ```include code/ex04_durable_queue.py
    ```

    ```include code/capstone/tinyq.py def=Queue.claim
    ```

    ```include code/ex06_leases.py lines=12-30
    ```

Shows the real file (or one function, method or class found by its dotted name with its
decorators, or one assignment such as `CLAIM_JOB = ...` with the comment lines just above it,
or a 1-based inclusive line range), highlighted, numbered with the file's own line
numbers, under its name and a download link (docs/authoring.md, "Including an exercise file").
The fence must be empty. A `def=` part is shown dedented.
"""
from __future__ import annotations

import ast
import html
import posixpath
import re
import shlex
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.highlight import dedent, lex_lines, lexer_for_file, to_html
from builder.markdown.code_blocks import code_block
from builder.markdown.env import report
from builder.markdown.utils import fence_extension
from builder.text_file import NotUTF8, read_text

RANGE = re.compile(r"^(\d+)-(\d+)$")
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def find_definition(source: str, dotted: str) -> tuple[int, int]:
    """The 1-based (first, last) lines of `dotted` (`Queue.claim`) in Python `source`.

    The first line is that of the first decorator. Raises LookupError naming what is missing,
    SyntaxError when the source is not Python.
    """
    body, node = ast.parse(source).body, None
    for depth, name in enumerate(dotted.split(".")):
        found = [n for n in body if _defines(n, name)]
        if not found:
            where = ".".join(dotted.split(".")[:depth]) or "the file's top level"
            raise LookupError(f"no function, class or assignment {name!r} in {where}")
        if len(found) > 1:
            raise LookupError(f"{name!r} is defined {len(found)} times; cannot tell which to show")
        node = found[0]
        body = getattr(node, "body", [])
    if isinstance(node, DEFINITIONS):
        return min([node.lineno] + [d.lineno for d in node.decorator_list]), node.end_lineno
    # An assignment (a named SQL statement, say) is shown with the comment lines just above it.
    lines, first = source.split("\n"), node.lineno
    while first > 1 and lines[first - 2].lstrip().startswith("#"):
        first -= 1
    return first, node.end_lineno


def _defines(node: ast.AST, name: str) -> bool:
    """True when `node` defines `name`: a def, a class, or `NAME = ...` / `NAME: type = ...`."""
    if isinstance(node, DEFINITIONS):
        return node.name == name
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    if isinstance(node, ast.AnnAssign):
        return isinstance(node.target, ast.Name) and node.target.id == name
    return False


def include_plugin(md: MarkdownIt, root: Path) -> None:
    """Turn ```include fences into the named file's code; paths are relative to `root`."""
    root = Path(root)
    fence_extension(md, "include", lambda state, token, line: _parse(state, token, line, root), _render)


def _parse(state: StateCore, token, line: int | None, root: Path) -> None:
    env = state.env
    try:
        words = shlex.split(token.info)[1:]
    except ValueError as error:
        report(env, line, f"cannot read {token.info!r}: {error}")
        return
    if token.content.strip():
        report(env, line, "an include block stays empty: the file is its content")
    if not words:
        report(env, line, "which file? ```include code/ex01_slow_signup.py")
        return
    path, options = words[0], words[1:]
    token.meta.update(_select(env, root, path, options, line) or {})


def _select(env: dict, root: Path, path: str, options: list[str], line: int | None) -> dict | None:
    target = posixpath.normpath(path)
    if not target.startswith("code/"):
        report(env, line, f"{path!r}: an include shows a file under code/")
        return None
    file = root / target
    if not file.is_file():
        report(env, line, f"{path!r}: no such file")
        return None
    if not file.resolve().is_relative_to(root.resolve()):
        report(env, line, f"{path!r}: a symbolic link out of the repository "
                          "(the build publishes only the repository's own files)")
        return None
    try:
        source = read_text(file)
    except NotUTF8 as error:
        report(env, line, f"{path!r}: line {error.line}: {error}")
        return None
    lexer = lexer_for_file(file.name)
    every_line = lex_lines(source, lexer)
    total = len(every_line)
    first, last, part, shift = 1, total, None, False
    for option in options:
        key, _, value = option.partition("=")
        if part is not None:
            report(env, line, f"{option!r}: give either def= or lines=, once")
        elif key == "def" and value:
            if not target.endswith(".py"):
                report(env, line, f"def={value}: only a Python file has definitions to find")
                return None
            try:
                first, last = find_definition(source, value)
            except (LookupError, SyntaxError) as error:
                report(env, line, f"def={value} in {target}: {error}")
                return None
            part, shift = value, True
        elif key == "lines" and RANGE.match(value):
            first, last = (int(n) for n in RANGE.match(value).groups())
            if not 1 <= first <= last <= total:
                report(env, line, f"lines={value}: {target} has lines 1-{total}")
                return None
            part = f"lines {first}\u2013{last}"
        else:
            report(env, line, f"unknown option {option!r} (use def=Name.method or lines=12-30)")
            return None
    lines = every_line[first - 1: last]
    if shift:
        lines = dedent(lines)
    return {"path": target, "part": part, "first": first, "lines": [to_html(l) for l in lines],
            "language": lexer.aliases[0] if lexer.aliases else "text"}


def _render(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    if "path" not in meta:
        return ""
    path, lines = html.escape(meta["path"]), meta["lines"]
    name = html.escape(posixpath.basename(meta["path"]))
    part = f' <span class="include-part">{html.escape(meta["part"])}</span>' if meta["part"] else ""
    return (f'<figure class="include">\n<figcaption class="include-head">'
            f'<span class="include-path">{path}</span>{part}'
            f' <a class="include-download" href="{path}" download>Download'
            f'<span class="visually-hidden"> {name}</span></a></figcaption>\n'
            + code_block(lines, meta["language"], range(meta["first"], meta["first"] + len(lines)))
            + "</figure>\n")
