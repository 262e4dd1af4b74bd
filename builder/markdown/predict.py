"""Predict, then run: a challenge beside a simulation, checked against the run it asks about.

    ```predict id=emails-after-a-kill sim=kill-a-worker
    question: Worker 2 is killed one second in, holding a job. How many emails are sent in all?
    do: 1:kill:2
    check: stats.emails_sent
    unit: emails sent
    choices: 5, 6, 7
    ---
    Why it is six (Markdown, shown once the reader has predicted).
    ```

`sim=` names an embed above it on the page by its declared id. `question:` and `check:` are
required: `check:` is a dotted path into the simulation's snapshot, whose number at the end of the
run (the first snapshot that is `finished`) is the answer. `do:` lists actions done first, as a
link writes them (`time:name:arg`, seconds, comma-separated); `choices:` offers numbers to pick
from (else the reader types one); `within:` forgives a difference (default 0); `unit:` says what
the number counts. The text after `---` says why. The build runs the challenge (the embed's
parameters and seed, then `do:`, to the end) and refuses, with `file:line`, a path that is not a
number there, choices that miss the answer, or a run that does not finish. The page
(theme/js/sims/predict.js) runs it again in Pyodide once the reader has locked in a guess and reads
the same path from the snapshot; with JavaScript off, or printed, the answer is folded below.
"""
from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import declare_id, page_id, parse_inline, report
from builder.markdown.sim import describe, scalar
from builder.markdown.sim_print import act, parse_actions
from builder.markdown.utils import fence_extension, fence_lines, fence_rest, split_header

SLUG = r"[a-z0-9]+(?:-[a-z0-9]+)*"
INFO = re.compile(rf"^id=(?P<id>{SLUG}) sim=(?P<sim>{SLUG})$")
FIELDS = ("question", "do", "check", "unit", "choices", "within")
PATH = re.compile(r"^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*$")
HORIZON = 600.0   # virtual seconds a challenge's run may take
MAX_CALLS = 2000  # run() calls on the way


def predict_plugin(md: MarkdownIt, registry: Callable[[], Mapping]) -> None:
    """Turn ```predict fences into challenges; `registry()` returns {name: simulation class}."""
    fence_extension(md, "predict", lambda state, token, line: _parse(state, token, line, registry), _render)


def _embeds(state: StateCore, before) -> dict:
    """{declared id: the embed's meta} of the ```sim fences above `before` on the page."""
    found = {}
    for token in state.tokens:
        if token is before:
            break
        if token.type == "sim" and "id" in token.meta:
            found[token.meta["id"]] = token.meta
    return found


def _parse(state: StateCore, token, line: int | None, registry) -> None:
    env = state.env
    info = INFO.match(fence_rest(token).strip())
    if not info:
        report(env, line, "a challenge names its id and its simulation: ```predict id=emails-after-a-kill sim=kill-a-worker"
                          " (lower-case letters, digits and '-')")
        return
    header, why, first = split_header(env, fence_lines(token), line, FIELDS, required=False)
    for field in ("question", "check"):
        if not header.get(field):
            report(env, line, f"a challenge needs '{field}:'")
    paragraphs = [p.strip() for p in "\n".join(why or []).split("\n\n") if p.strip()]
    if why is not None and not paragraphs:
        report(env, first, "add the why after '---': the text the reader sees once they have predicted")
    embed = _embeds(state, token).get(f"sim-{info['sim']}")
    if embed is None:
        known = ", ".join(i.removeprefix("sim-") for i in _embeds(state, token)) or "none"
        report(env, line, f"sim={info['sim']}: no simulation with that id above this challenge (above it: {known})")
        return
    if not header.get("question") or not header.get("check") or not paragraphs:
        return
    path = header["check"]
    if not PATH.match(path):
        report(env, line, f"check: {path!r} is not a dotted path into the snapshot (e.g. stats.emails_sent)")
        return
    actions = _actions(env, line, header.get("do", ""))
    choices = _numbers(env, line, "choices", header.get("choices", ""))
    within = _numbers(env, line, "within", header.get("within", "0"))
    if actions is None or choices is None or within is None or len(within) != 1 or within[0] < 0:
        if within is not None and (len(within) != 1 or within[0] < 0):
            report(env, line, "within: one number from 0 (how far a guess may be from the answer)")
        return
    answer = _run(env, line, embed, registry(), actions, path)
    if answer is None:
        return
    if choices and not any(abs(c - answer) <= within[0] for c in choices):
        report(env, line, f"choices: none of them is the run's answer, {_number(answer)} ({path} at the end)")
        return
    count = sum(1 for t in state.tokens[:state.tokens.index(token)] if t.type == "predict") + 1
    token.meta.update(
        id=declare_id(env, f"predict-{info['id']}", line), sim=embed["id"], question=header["question"],
        question_tokens=parse_inline(state.md, env, header["question"], line), do=header.get("do", ""),
        check=path, unit=header.get("unit", ""), choices=choices, within=within[0], answer=answer,
        label=f"Predict, then run {env['chapter']}.{count}",
        why=[parse_inline(state.md, env, p, first) for p in paragraphs])


def _actions(env, line, text: str) -> list | None:
    """`1:kill:2,3:enqueue` -> [(1.0, "kill", ["2"]), (3.0, "enqueue", [])], or None (reported)."""
    try:
        return parse_actions(text)
    except ValueError as error:
        report(env, line, f"do: {error}")
        return None


def _numbers(env, line, field: str, text: str) -> list | None:
    values = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        value = scalar(part)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            report(env, line, f"{field}: {part!r} is not a number")
            return None
        values.append(value)
    return values


def _run(env, line, embed: dict, simulations: Mapping, actions: list, path: str):
    """The number at `path` in the first finished snapshot of the embed's run with `actions`
    done at their times, or None (reported)."""
    cls = simulations[embed["name"]]
    try:
        sim = cls(embed["params"], seed=embed["seed"])
        for at, name, args in actions:
            if not _run_until(sim, at):
                report(env, line, f"do: the run does not reach {_number(at)} s")
                return None
            act(sim, name, args)
        for _ in range(MAX_CALLS):
            snapshot = sim.snapshot()
            if snapshot["finished"] or snapshot["time"] >= HORIZON:
                break
            sim.run(until=min(snapshot["time"] + 10.0, HORIZON))
    except Exception as error:   # a ParamError names the action or its argument
        report(env, line, f"do: the simulation refused it: {describe(error)}")
        return None
    if not snapshot["finished"]:
        report(env, line, f"the run does not finish within {_number(HORIZON)} s of simulated time")
        return None
    value = snapshot
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        report(env, line, f"check: {path} is {json.dumps(value)[:60]} at the end of the run, not a number")
        return None
    return value


def _run_until(sim, until: float) -> bool:
    for _ in range(MAX_CALLS):
        if sim.run(until=until):
            return True
    return False


def _number(value) -> str:
    return f"{round(float(value), 3):g}"


def _render(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    if "answer" not in meta:
        return ""
    ident = page_id(env, meta["id"])
    inline = lambda children: self.renderInline(children, options, env)   # noqa: E731
    unit = html.escape(meta["unit"])
    answer = f"{_number(meta['answer'])}{' ' + unit if unit else ''}"
    why = "\n".join(f"<p>{inline(p)}</p>" for p in meta["why"])
    title = f'<p class="callout-title" id="{ident}-title"><a href="#{ident}">{meta["label"]}</a></p>\n'
    question = f'<p class="predict-question" id="{ident}-question">{inline(meta["question_tokens"])}</p>\n'
    folded = (f'<details class="answer predict-answer" data-part="answer">\n<summary>Answer</summary>\n'
              f'<div class="answer-body">\n<p><strong>The run ends with {answer}.</strong></p>\n{why}\n</div>\n</details>\n')
    if env.get("live_page"):   # guide.html: the question, the answer folded, a link to the live one
        return (f'<div class="callout predict" id="{ident}" role="note" aria-labelledby="{ident}-title">\n{title}{question}'
                f'<p class="predict-live"><a href="{env["live_page"]}#{meta["id"]}">Try it on the chapter’s page</a>.</p>\n'
                f'{folded}</div>\n')
    data = {"predict-for": page_id(env, meta["sim"]), "check": meta["check"], "do": meta["do"],
            "within": _number(meta["within"]), "unit": meta["unit"]}
    attributes = " ".join(f'data-{k}="{html.escape(str(v))}"' for k, v in data.items())
    if meta["choices"]:
        options_html = "\n".join(
            f'<label class="predict-choice"><input type="radio" name="{ident}-guess" value="{_number(c)}"> '
            f'{_number(c)}{" " + unit if unit else ""}</label>' for c in meta["choices"])
        field = (f'<fieldset class="predict-choices" aria-describedby="{ident}-question">\n'
                 f'<legend>Your prediction</legend>\n{options_html}\n</fieldset>\n')
    else:
        field = (f'<label for="{ident}-guess">Your prediction{" (" + unit + ")" if unit else ""}</label>\n'
                 f'<input id="{ident}-guess" name="{ident}-guess" type="number" step="any" inputmode="decimal" '
                 f'aria-describedby="{ident}-question" autocomplete="off">\n')
    form = (f'<form class="predict-form js-only" data-part="form">\n{field}'
            + (f'<button type="button" data-action="moment" class="sim-button" disabled>Show me the moment</button>\n' if meta["do"] else "")
            + f'<button type="submit" data-action="lock" class="sim-button sim-primary" disabled>Lock in and run</button>\n</form>\n'
            f'<p class="predict-result" role="status" data-part="result"></p>\n')
    return (f'<div class="callout predict" id="{ident}" role="group" aria-labelledby="{ident}-title" {attributes}>\n'
            f'{title}{question}{form}{folded}</div>\n')
