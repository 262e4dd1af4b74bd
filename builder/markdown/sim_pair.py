"""A before/after pair's two pictures, laid out at build time (a sim fence's `compare:`, sim.py).

The widget (theme/js/sims/compare.js) shows a pair as two pictures side by side from its first
frame. Were it to make that box when Python arrives, everything below it would move as the reader
looks (layout shift), so the build draws it: the embed's own picture (the incident, live) and
the same theme template's picture drawn from the fix's first snapshot, renamed so that no part,
id or label of it clashes with the live one (`data-part` becomes `data-twin-part`, which the
twin draws into), read-only (`inert`) and hidden from screen readers (its words are in the text).

Each widget template's picture is its first element with one of PICTURES' classes; a template
without one gets no pair box (the widget then makes it when compared).
"""
from __future__ import annotations

import re

PICTURES = ("race-picture", "pay-picture", "ct-lanes", "lqp")   # each widget's `static picture`
NAMES = ("The incident", "The fix")   # simulations/engine/compare.py NAMES["fix"], live's first
OPEN = re.compile(r'<(?P<tag>div|figure)\b[^>]*\bclass="(?P<class>[^"]*)"[^>]*>')
TAG = re.compile(r"<(/?)(div|figure)\b[^>]*>")


def picture_span(html: str) -> tuple[int, int] | None:
    """Where the picture element is in a widget's HTML: (start, end), or None."""
    for match in OPEN.finditer(html):
        if not set(match["class"].split()) & set(PICTURES):
            continue
        depth = 0
        for tag in TAG.finditer(html, match.start()):
            if tag[2] != match["tag"]:
                continue
            depth += -1 if tag[1] else 1
            if depth == 0:
                return match.start(), tag.end()
        return None
    return None


def renamed(picture: str) -> str:
    """The fix's picture with no id, label reference or part of the live one's."""
    picture = re.sub(r'\s(?:id|aria-labelledby|aria-describedby|for)="[^"]*"', "", picture)
    return picture.replace("data-part=", "data-twin-part=")


def pair_box(live_html: str, fix_html: str) -> str:
    """`live_html` (the embed as rendered) with its picture in a pair box beside the fix's
    picture (taken from `fix_html`, the same embed rendered from the fix's snapshot); unchanged
    when either has no picture."""
    live, fix = picture_span(live_html), picture_span(fix_html)
    if live is None or fix is None:
        return live_html
    side = ('<div class="sim-pair-run" data-run="{run}"><p class="sim-pair-title"><span class="sim-pair-name">'
            '{name}</span> <span class="sim-pair-about"></span></p>\n{picture}\n'
            '<p class="sim-pair-outcome"></p></div>\n')
    kept = ('<div class="sim-pair-picture" inert aria-hidden="true">' + renamed(fix_html[fix[0]:fix[1]])
            + "</div>")
    box = ('<div class="sim-pair" role="group" aria-label="Two runs compared" data-pair="fix" data-built>\n'
           '<p class="sim-pair-differ" data-part="compare-words"></p>\n<div class="sim-pair-runs">\n'
           + side.format(run="live", name=NAMES[0], picture=live_html[live[0]:live[1]])
           + side.format(run="kept", name=NAMES[1], picture=kept) + "</div>\n</div>")
    return live_html[:live[0]] + box + live_html[live[1]:]
