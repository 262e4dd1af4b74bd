"""Pause-and-check boxes: a question, with its answer folded away.

    :::: pause
    Why does a worker need a lease?

    ::: answer
    So that a job whose worker died is not stuck in `running` forever.
    :::
    ::::

Boxes are numbered per chapter in order: the third box of chapter 2 is "Pause and check 2.3",
id `pause-2-3`, unless it declares an id that survives edits (`:::: pause id=why-a-lease` ->
`pause-why-a-lease`, with `pause-2-3` kept as an alias). Each box holds exactly one `answer`, rendered as a closed `<details>`; an answer
outside a box is a problem (docs/authoring.md, "Pause and check"). A study drills box (with four
colons, `:::: drills`) may hold one `::: answer` too: its solutions, folded the same way under
"Solutions".
"""
from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from builder.markdown.env import alias_anchor, block_line, page_id, report, stable_id


def pause_plugin(md: MarkdownIt) -> None:
    """Number and check `pause` boxes (parsed by colon_blocks) and render them."""
    md.core.ruler.after("block", "pause", _number_boxes)
    md.add_render_rule("colon_pause_open", _render_pause_open)
    md.add_render_rule("colon_pause_close", lambda *a: "</div>\n")
    md.add_render_rule("colon_answer_open", _render_answer_open)
    md.add_render_rule("colon_answer_close", lambda *a: "</div>\n</details>\n")


def _number_boxes(state: StateCore) -> None:
    env, chapter = state.env, state.env.get("chapter", 0)
    box, answers, count = None, 0, 0
    drills = None   # a study drills box may hold one folded '::: answer': its solutions
    for token in state.tokens:
        if token.type == "colon_drills_open" and box is None:
            drills, answers = token, 0
            continue
        if token.type == "colon_drills_close" and drills is not None and token.level == drills.level:
            drills = None
            continue
        if token.type == "colon_answer_open" and drills is not None:
            answers += 1
            token.meta["summary"] = "Solutions"
            if answers == 2:
                report(env, block_line(token), "a drills box has at most one '::: answer' (its solutions); this is the second")
            continue
        if token.type == "colon_pause_open":
            if box is not None:
                report(env, block_line(token), "a pause box cannot hold another pause box")
                continue
            count += 1
            box, answers = token, 0
            token.meta["label"] = f"Pause and check {chapter}.{count}"
            token.meta["id"] = stable_id(env, "pause", token.meta.get("declared_id"), f"pause-{chapter}-{count}",
                                         block_line(token))
        elif token.type == "colon_answer_open":
            if box is None:
                report(env, block_line(token), "'::: answer' outside a ':::: pause' or ':::: drills' box")
            answers += 1
            if answers == 2:
                report(env, block_line(token), "a pause box has exactly one '::: answer'; this is the second")
        elif token.type == "colon_pause_close" and box is not None and token.level == box.level:
            if answers == 0:
                report(env, block_line(box), "this pause box has no '::: answer' inside it")
            box = None


def _render_pause_open(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    ident = page_id(env, meta.get("id", "pause"))
    return (f'<div class="callout pause" id="{ident}" role="note" aria-labelledby="{ident}-title">\n'
            f'{alias_anchor(env, meta.get("id", ""))}'
            f'<p class="callout-title" id="{ident}-title"><a href="#{ident}">{meta.get("label", "Pause and check")}</a></p>\n')


def _render_answer_open(self, tokens, idx, options, env) -> str:
    summary = tokens[idx].meta.get("summary", "Answer")
    return f'<details class="answer">\n<summary>{summary}</summary>\n<div class="answer-body">\n'
