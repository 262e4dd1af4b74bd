"""Embed a simulation by name, with its starting state rendered at build time.

    ```sim live-queue id=two-workers
    workers: 2
    lease: 5
    ---
    Two workers share three jobs. Without JavaScript you see the starting table only.
    ```

The lines before `---` are parameters, each checked against the simulation's own `PARAMS` (an
unknown name is a problem) and by constructing it (its `ParamError` becomes `file:line: ...`);
`seed:` is passed separately. A before/after pair is one embed with two runs:

    ```sim crash-timing id=popped-ack-first
    policy: ack-before-work
    crash: after-ack
    compare: id=popped-ack-after policy=ack-after-work crash=after-claim
    ---
    ```

`compare:` gives the second run (the fix) as `name=value` words: the parameters that differ from
the first run (the incident), whose others it shares, and optionally the `id=` it was known by
(kept as an alias of the pair, as is its order-based `sim-N`). The widget opens with the fix kept
and the incident live (the chapter's run, which the reader plays and varies), already compared
(theme/js/sims/compare.js). `id=two-workers` gives the embed the id `sim-two-workers`,
which survives edits around it (else it is `sim-N` by order; a declared id keeps `sim-N` as an
alias: builder/markdown/env.py, `stable_id`). The text after `---` is shown to readers without JavaScript
(docs/authoring.md, "Embedding a simulation"). The embed becomes
`<div class="sim" data-sim=NAME data-state="idle" data-params='{json}' data-seed=N>` holding the
simulation's `snapshot()` rendered by the theme (docs/simulations.md describes the registry). Below
it, for print, the scenario run to its end at build time (builder/markdown/sim_print.py). On
the all-in-one page, guide.html, it becomes a card with the same text and a link to the widget on
its chapter's page, so that page stays light to load and to print and loads no Python.
"""
from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Mapping

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import alias_anchor, declare_id, parse_inline, report, stable_id
from builder.markdown.sim_pair import pair_box
from builder.markdown.sim_print import parse_actions, print_outcome, run_to_end
from builder.markdown.utils import fence_extension, fence_lines, split_header

DECLARED_ID = re.compile(r"^id=(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)$")
PAIR_WORD = re.compile(r"^(?P<name>[a-z_]+)=(?P<value>\S+)$")
SNAPSHOT_KEYS = ("sim", "time", "jobs", "outcome", "events", "finished")


def param_names(cls) -> list[str]:
    """The parameter names a simulation class declares in PARAMS (dicts, objects or tuples)."""
    params = getattr(cls, "PARAMS", ())
    if isinstance(params, Mapping):
        return list(params)
    names = []
    for spec in params:
        if isinstance(spec, Mapping):
            names.append(spec["name"])
        elif hasattr(spec, "name"):
            names.append(spec.name)
        else:
            names.append(spec[0])
    return names


def scalar(text: str):
    """A parameter as written -> its JSON value: `2` -> 2, `0.5` -> 0.5, `true` -> True, else str."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def sim_plugin(md: MarkdownIt, registry: Callable[[], Mapping], render_embed: Callable[[dict], str]) -> None:
    """Turn ```sim fences into embeds; `registry()` returns {name: class}, called at first use;
    `render_embed(context)` returns the embed's HTML (the theme's sim templates)."""
    loaded: dict = {}

    def simulations(env: dict, line: int | None):
        if "value" not in loaded and "error" not in loaded:
            try:
                loaded["value"] = registry()
            except Exception as error:   # any import failure is reported at the embed's line
                loaded["error"] = f"cannot load the simulations package: {type(error).__name__}: {error}"
        if "error" in loaded:
            report(env, line, loaded["error"])
        return loaded.get("value")

    def render(self, tokens, idx, options, env) -> str:
        meta = tokens[idx].meta
        if "snapshot" not in meta:
            return ""
        fallback = "\n".join(f"<p>{self.renderInline(p, options, env)}</p>" for p in meta["fallback"])
        context = {**meta, "id": env.get("id_prefix", "") + meta["id"], "fallback_html": fallback}
        if env.get("live_page"):   # the all-in-one page: a card linking to the widget in its chapter
            context["live_url"] = f"{env['live_page']}#{meta['id']}"
        html = str(render_embed(context)).rstrip("\n") + "\n"
        if meta.get("pair") and not env.get("live_page"):   # the two pictures, laid out now
            html = pair_box(html, str(render_embed({**context, "snapshot": meta["pair"]["snapshot"]})))
        printed = print_outcome(meta, guide=bool(env.get("live_page")))
        if meta.get("pair"):   # a pair: the fix's run too
            printed += print_outcome({"ending": meta["pair"]["ending"], "number": f"{meta['number']}, the fix,"},
                                     guide=bool(env.get("live_page")))
        if not env.get("live_page"):   # a live widget: on a stage that can fill the screen
            return alias_anchor(env, meta["id"]) + stage(context["id"], html, env.pop("before_first_embed", "")) + printed
        return alias_anchor(env, meta["id"]) + html + printed

    fence_extension(md, "sim", lambda state, token, line: _parse(state, token, line, simulations), render)


def stage(ident: str, html: str, lead: str = "") -> str:
    """Wrap a live widget with its "Full screen" button (theme/js/fullscreen.js works it; hidden
    without scripts), so a teacher can project it. The button is in the page from the start,
    so nothing moves when scripts arrive. `lead` (the simulations' stylesheet, on the page's
    first stage) goes first inside it: the stage's own box is styled by the site's inline styles, so until the
    stylesheet arrives the stage is in place and empty, and nothing above it waits."""
    return (f'<div class="sim-stage" data-stage-for="{ident}">\n{lead}'
            f'<div class="sim-stage-bar js-only"><button type="button" class="sim-stage-button" '
            f'aria-controls="{ident}" aria-pressed="false" data-action="fullscreen">Full screen</button></div>\n'
            f'{html}</div>\n')


def _parse(state: StateCore, token, line: int | None, simulations) -> None:
    env = state.env
    words = token.info.split()
    declared = DECLARED_ID.match(words.pop()) if len(words) == 3 else None
    if len(words) != 2 or (len(token.info.split()) == 3 and not declared):
        report(env, line, "name one simulation, and optionally its id: ```sim live-queue id=kill-a-worker"
                          " (lower-case letters, digits and '-')")
        return
    registry = simulations(env, line)
    if registry is None:
        return
    name = words[1]
    if name not in registry:
        report(env, line, f"unknown simulation {name!r} (known: {', '.join(sorted(registry))})")
        return
    cls = registry[name]
    fields = tuple(dict.fromkeys([*param_names(cls), "seed", "print", "compare"]))
    header, fallback, first = split_header(env, fence_lines(token), line, fields, required=False)
    try:
        moves = parse_actions(header.pop("print", ""))
    except ValueError as error:
        report(env, line, f"print: {error}")
        return
    paragraphs = [p.strip() for p in "\n".join(fallback or []).split("\n\n") if p.strip()]
    if fallback is not None and not paragraphs:
        report(env, first, "add a text after '---' for readers without JavaScript")
    pair_text = header.pop("compare", None)
    params = {key: scalar(value) for key, value in header.items()}
    seed = params.pop("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        report(env, line, f"seed: {seed!r} is not a whole number")
        return
    snapshot = _start(env, line, name, cls, params, seed)
    if snapshot is None:
        return
    ending = run_to_end(env, line, name, cls, params, seed, moves)
    pair = None
    if pair_text is not None:
        pair = _pair(env, line, name, cls, params, seed, pair_text)
        if pair is None:
            return
    count = len(env["sims"]) + 1
    live = sum(1 for each in env["sims"] if each != "judge") + 1
    limit = page_limit()
    if limit is not None and live > limit:
        report(env, line, f"this is the page's simulation number {live}, and a page may hold at most {limit} "
                          "(simulations/bridge.py, MAX_LIVE): split the chapter, or raise MAX_LIVE")
        return
    ident = stable_id(env, "sim", declared and declared["id"], f"sim-{count}", line)
    if pair:   # the fix's old ids (its declared one, its place's sim-N) lead to the pair
        env["sims"].append(name)
        for old in ([f"sim-{pair['id']}"] if pair["id"] else []) + [f"sim-{count + 1}"]:
            env["aliases"][declare_id(env, old, line)] = ident
        pair["json"] = json.dumps({**pair["params"], "seed": pair["seed"]}, sort_keys=True, separators=(",", ":"))
    token.meta.update(
        id=ident, name=name, params=params, seed=seed, pair=pair,
        number=f"{env['chapter']}.{count}",   # "Simulation 5.2", as boxes are numbered
        params_json=json.dumps(params, sort_keys=True, separators=(",", ":")), snapshot=snapshot,
        param_specs=getattr(cls, "PARAMS", ()), ending=ending,
        fallback=[parse_inline(state.md, env, p, first) for p in paragraphs])
    env["sims"].append(name)


def pair_words(text: str) -> tuple[str | None, dict[str, str]]:
    """A `compare:` line's words -> (the fix's declared id or None, {parameter: value as written}).
    Raises ValueError naming the word that is not `name=value`, a bad id, or no parameter."""
    ident, changes = None, {}
    for word in text.split():
        match = PAIR_WORD.match(word)
        if not match:
            raise ValueError(f"{word!r} is not name=value (e.g. compare: id=the-fix policy=ack-after-work)")
        if match["name"] == "id":
            declared = DECLARED_ID.match(word)
            if not declared:
                raise ValueError(f"id {match['value']!r}: lower-case letters, digits and '-'")
            ident = declared["id"]
        else:
            changes[match["name"]] = match["value"]
    if not changes:
        raise ValueError("name at least one parameter the second run changes")
    return ident, changes


def _pair(env: dict, line: int | None, name: str, cls, params: dict, seed: int, text: str) -> dict | None:
    """The second run of a pair from its `compare:` words (`id=popped-ack-after policy=...`):
    {id, params (the first run's, with these on top), seed, ending}, or None (reported)."""
    try:
        ident, written = pair_words(text)
    except ValueError as error:
        report(env, line, f"compare: {error}")
        return None
    known = set(param_names(cls)) | {"seed"}
    unknown = sorted(set(written) - known)
    if unknown:
        report(env, line, f"compare: {unknown[0]!r} is not a parameter of {name} (known: {', '.join(sorted(known))})")
        return None
    changes = {key: scalar(value) for key, value in written.items()}
    pair_seed = changes.pop("seed", seed)
    pair_params = {**params, **changes}
    snapshot = _start(env, line, name, cls, pair_params, pair_seed)
    if snapshot is None:
        return None
    ending = run_to_end(env, line, name, cls, pair_params, pair_seed)
    return {"id": ident, "params": pair_params, "seed": pair_seed, "ending": ending, "snapshot": snapshot}


def page_limit() -> int | None:
    """How many simulations one page's Python may hold at once (the bridge's MAX_LIVE), or None
    for a book whose simulations package has no bridge (a test's fixture book)."""
    try:
        return importlib.import_module("simulations.bridge").MAX_LIVE
    except (ImportError, AttributeError):
        return None


def describe(error: Exception) -> str:
    """`ParamError("lease", "must be 1-60")` -> "lease: must be 1-60"; other errors keep their type."""
    field, text = getattr(error, "field", None), str(error)
    if len(error.args) == 2 and all(isinstance(a, str) for a in error.args):
        field, text = error.args
    if field and not text.startswith(str(field)):
        text = f"{field}: {text}"
    return text if type(error).__name__ == "ParamError" else f"{type(error).__name__}: {text}"


def _start(env: dict, line: int | None, name: str, cls, params: dict, seed: int) -> dict | None:
    """Construct the simulation and return its starting snapshot, or report why it cannot."""
    try:
        snapshot = cls(params, seed=seed).snapshot()
    except Exception as error:   # a ParamError names the field and the allowed range
        # Every bad value, not one build at a time: a ParamError lists them all in `problems`.
        for each in getattr(error, "problems", [error]):
            report(env, line, f"sim {name}: {describe(each)}")
        return None
    missing = [key for key in SNAPSHOT_KEYS if key not in snapshot]
    if missing:
        report(env, line, f"sim {name}: its snapshot() lacks {', '.join(missing)}")
        return None
    try:
        json.dumps(snapshot)
    except (TypeError, ValueError) as error:
        report(env, line, f"sim {name}: its snapshot() is not JSON-able: {error}")
        return None
    return snapshot
