"""What the Markdown plugins share: the per-page `env`, ids, and how problems are reported.

markdown-it passes one `env` dict to every rule of one document. Ours holds:

- `path` (str): the file as problems name it; `chapter` (int): its number, for box numbers;
- `problems` (builder.problems.Problems): where every plugin reports `path:line: message`;
- `ids` ({id: line or TEMPLATE}): every id the page declares, so none is used twice and links can be checked;
- `headings`, `links`, `transcripts`, `sims`, `figures`: what the plugins found, for the build's later stages;
- `aliases` ({numbered id: declared id}): the order-based id (`sim-2`, `pause-5-2`) of each box or
  embed that declares its own id, kept as an anchor so links made before it had one still work;
- `former` (tuple of int): the numbers the chapter had before it moved (SUMMARY.md's "(was chapter
  11)"), and `former_aliases` ({old id: (old number, id)}): its boxes' ids under those numbers
  (`pause-11-2` -> `pause-12-2` or the declared id), which are aliases too;
- at render time, `id_prefix` (e.g. "ch5-" on the all-in-one page, where chapters share one
  document), `heading_shift` (1 there: a chapter's `##` becomes `<h3>`), and `chapter_ids`
  ({source file: section id}) so links between chapters become links within the page, and
  `guide_ids` (every id on that page, a set shared by its chapters; see `alias_anchor`).
"""
from __future__ import annotations

from builder.problems import Problems

TEMPLATE = "template"   # the "line" of an id the page template declares


def new_env(path: str, chapter: int, problems: Problems, reserved_ids=(), former=()) -> dict:
    """A fresh env for parsing one chapter; `reserved_ids` are ids the page template uses,
    `former` the chapter's numbers before it moved."""
    return {
        "path": path,
        "chapter": chapter,
        "former": tuple(former),
        "former_aliases": {},
        "problems": problems,
        "ids": {ident: TEMPLATE for ident in reserved_ids},
        "headings": [],
        "links": [],
        "transcripts": [],
        "sims": [],
        "figures": [],
        "aliases": {},
    }


def report(env: dict, line: int | None, message: str) -> None:
    """Add a problem at 1-based `line` of the document being parsed."""
    env["problems"].add(env["path"], line, message)


def block_line(token) -> int | None:
    """The 1-based source line where a block token starts, if known."""
    return token.map[0] + 1 if token.map else None


def declare_id(env: dict, ident: str, line: int | None) -> str:
    """Declare a fixed id (e.g. `pause-2-3`); a second declaration is a problem."""
    if ident in env["ids"]:
        first = env["ids"][ident]
        report(env, line, f"id {ident!r} is already used" + (f" on line {first}" if isinstance(first, int) else " by the page template"))
    else:
        env["ids"][ident] = line
    return ident


def stable_id(env: dict, kind: str, declared: str | None, numbered: str, line: int | None) -> str:
    """The id of a box or embed: `kind-declared` when the chapter declares one (`id=why-a-lease`
    -> `pause-why-a-lease`), which survives edits around it; else the order-based `numbered`.
    A declared id keeps `numbered` as an alias (env["aliases"]), both checked for clashes. In a
    chapter that moved, `numbered`'s form under each former number (`pause-11-2` for
    `pause-12-2`) is an alias too."""
    ident = declare_id(env, f"{kind}-{declared}" if declared else numbered, line)
    if declared and numbered != ident:
        env["aliases"][declare_id(env, numbered, line)] = ident
    place = f"{kind}-{env.get('chapter')}-"
    if numbered.startswith(place):   # a sim-N carries no chapter number: it did not change
        for number in env.get("former", ()):
            old = declare_id(env, f"{kind}-{number}-{numbered[len(place):]}", line)
            env["aliases"][old] = ident
            env["former_aliases"][old] = (number, ident)
    return ident


def alias_anchor(env: dict, ident: str) -> str:
    """Empty anchors carrying the old ids of `ident` (order-based, or from the chapter's former
    number), so that `#pause-5-2` still lands on the box even without JavaScript. On the
    all-in-one page a moved chapter's section had its old number too (`ch11-pause-11-2`): that
    anchor is added unless another chapter's id there has the name (env["guide_ids"])."""
    olds = [page_id(env, old) for old, target in env.get("aliases", {}).items() if target == ident]
    taken = env.get("guide_ids")
    if taken is not None:
        for old, (number, target) in env.get("former_aliases", {}).items():
            where = f"ch{number}-{old}"
            if target == ident and where not in taken:
                taken.add(where)
                olds.append(where)
    return "".join(f'<span class="id-alias" id="{old}"></span>' for old in olds)


def claim_id(env: dict, wanted: str, line: int | None) -> str:
    """Take `wanted` as an id, or `wanted-2`, `wanted-3`, ... when it is taken."""
    ident, n = wanted, 1
    while ident in env["ids"]:
        n += 1
        ident = f"{wanted}-{n}"
    env["ids"][ident] = line
    return ident


def page_id(env: dict, ident: str) -> str:
    """The id as written into the page being rendered (prefixed on the all-in-one page)."""
    return env.get("id_prefix", "") + ident


def parse_inline(md, env: dict, text: str, line: int | None) -> list:
    """Parse a fragment of inline Markdown found at `line` (a caption, a fallback text).

    Returns the inline children, to render later with `renderer.renderInline(children, ...)` so
    that render-time settings (ids, link targets on the all-in-one page) apply to them too.
    """
    env["inline_line"] = line
    try:
        tokens = md.parseInline(text, env)
    finally:
        env.pop("inline_line", None)
    return tokens[0].children if tokens else []
