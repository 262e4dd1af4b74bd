"""Embed an exercise judged in the page: the reader's code under the chaos monkey.

    ```judge shop-handlers id=shop
    seed: 7
    ---
    Edit the handlers and press Run: the chaos monkey kills workers and audits the books.
    ```

The name is one of simulations/judge/exercises.py's EXERCISES; `seed:` (default 0) is the Run's first seed.
At build time the exercise's fix is run through judge() on that seed, and the build stops with
`file:line` if the chapter's own fix fails the audit (or if its flawed start passes it: then the
exercise teaches nothing). The embed is a `.sim[data-sim="judge"]` (theme/templates/sim/judge.html,
drawn by theme/js/sims/judge.js) holding the starting code as a plain code block and the audit of
the fix in words, which is what a reader without JavaScript sees.
"""
from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping

from markdown_it import MarkdownIt

from builder.markdown.env import alias_anchor, parse_inline, report, stable_id
from builder.markdown.sim import DECLARED_ID, stage
from builder.markdown.utils import fence_extension, fence_lines, split_header


def audit_words(result: dict) -> str:
    """A judge() result in one sentence: "passed the audit (workers killed: 26, ...)" or the first problem."""
    figures = ", ".join(f"{name}: {value}" for name, value in result.get("figures", {}).items())
    if result["passed"]:
        return f"passed the audit ({figures})." if figures else "passed the audit."
    return f"failed: {(result['problems'] or ['the audit failed'])[0]}."


TABLES = {"customers": "Customers after the run", "jobs": "Jobs after the run",
          "orders": "Alice’s orders after the run"}   # as theme/js/sims/judge.js names them


def audit_table(result: dict) -> dict | None:
    """The per-customer (job, order) rows of a judge() result as {caption, columns, rows} of text."""
    key = next((k for k in TABLES if isinstance(result.get(k), list)), None)
    if key is None or not result[key]:
        return None
    columns = [c for c in result[key][0] if c != "ok"]
    cell = lambda v: ", ".join(map(str, v)) if isinstance(v, list) else str(v)   # noqa: E731
    return {"caption": f"{TABLES[key]} (the chapter’s fix, seed {result['seed']})",
            "columns": [c.replace("_", " ") for c in columns],
            "rows": [[cell(row[c]) for c in columns] for row in result[key]]}


def judge_plugin(md: MarkdownIt, registry: Callable[[], Mapping], render_embed: Callable[[dict], str]) -> None:
    """Turn ```judge fences into exercise embeds; `registry()` imports the simulations package."""
    loaded: dict = {}

    def engine(env: dict, line: int | None):
        if "value" not in loaded and "error" not in loaded:
            try:
                registry()
                loaded["value"] = importlib.import_module("simulations.judge")
            except Exception as error:
                loaded["error"] = f"cannot load simulations.judge: {type(error).__name__}: {error}"
        if "error" in loaded:
            report(env, line, loaded["error"])
        return loaded.get("value")

    def parse(state, token, line):
        env = state.env
        words = token.info.split()
        declared = DECLARED_ID.match(words[2]) if len(words) == 3 else None
        if len(words) not in (2, 3) or (len(words) == 3 and not declared):
            report(env, line, "name one exercise, and optionally an id: ```judge shop-handlers id=shop")
            return
        module = engine(env, line)
        if module is None:
            return
        name = words[1]
        if name not in module.EXERCISES:
            report(env, line, f"unknown exercise {name!r} (known: {', '.join(sorted(module.EXERCISES))})")
            return
        header, fallback, first = split_header(env, fence_lines(token), line, ("seed",), required=False)
        seed_text = header.get("seed", "0")
        if not seed_text.isdigit():
            report(env, line, f"seed: {seed_text!r} is not a whole number from 0")
            return
        seed = int(seed_text)
        exercise = module.EXERCISES[name]
        audit = module.judge(name, exercise["fixed"], seed)
        if not audit["passed"]:
            report(env, line, f"judge {name}: the chapter's fix fails the audit on seed {seed}: "
                              f"{'; '.join(audit['problems'][:3]) or audit['error']}")
            return
        if module.judge(name, exercise["start"], seed)["passed"]:
            report(env, line, f"judge {name}: the flawed start passes the audit on seed {seed}; "
                              "choose a seed on which its flaw shows")
            return
        paragraphs = [p.strip() for p in "\n".join(fallback or []).split("\n\n") if p.strip()]
        count = len(env["sims"]) + 1
        token.meta.update(
            id=stable_id(env, "sim", declared and declared["id"], f"sim-{count}", line), name="judge",
            exercise=name, seed=seed, number=f"{env['chapter']}.{count}",
            params_json=json.dumps({"exercise": name, "language": exercise["language"]}, sort_keys=True),
            title=exercise.get("title", name), what=exercise.get("what", "the exercise's code"),
            start=exercise["start"], fixed=exercise["fixed"], audit=audit, audit_words=audit_words(audit),
            audit_table=audit_table(audit),
            fallback=[parse_inline(state.md, env, p, first) for p in paragraphs])
        env["sims"].append("judge")

    def render(self, tokens, idx, options, env) -> str:
        meta = tokens[idx].meta
        if "audit" not in meta:
            return ""
        fallback = "\n".join(f"<p>{self.renderInline(p, options, env)}</p>" for p in meta["fallback"])
        context = {**meta, "id": env.get("id_prefix", "") + meta["id"], "fallback_html": fallback}
        if env.get("live_page"):
            context["live_url"] = f"{env['live_page']}#{meta['id']}"
            return alias_anchor(env, meta["id"]) + str(render_embed(context)).rstrip("\n") + "\n"
        return alias_anchor(env, meta["id"]) + stage(context["id"], str(render_embed(context)).rstrip("\n") + "\n",
                                                     env.pop("before_first_embed", ""))

    fence_extension(md, "judge", parse, render)
