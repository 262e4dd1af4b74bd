"""The Markdown dialect of the guide: CommonMark, tables, and the extensions in docs/authoring.md."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from markdown_it import MarkdownIt

from builder.markdown.callouts import callouts_plugin
from builder.markdown.code_blocks import code_blocks_plugin
from builder.markdown.colon_blocks import colon_blocks_plugin
from builder.markdown.diagram import diagram_plugin
from builder.markdown.figures import figures_plugin
from builder.markdown.headings import headings_plugin
from builder.markdown.include import include_plugin
from builder.markdown.judge_block import judge_plugin
from builder.markdown.links import links_plugin
from builder.markdown.pause import pause_plugin
from builder.markdown.predict import predict_plugin
from builder.markdown.raw_html import raw_html_plugin
from builder.markdown.sim import sim_plugin
from builder.markdown.transcript import transcript_plugin

COLON_BLOCKS = ("pause", "answer", "drills", "break")


def make_markdown(root: Path, simulations: Callable[[], Mapping], render_sim: Callable[[dict], str]) -> MarkdownIt:
    """A parser for chapters whose exercise files live in `root`/code.

    `simulations()` returns the simulation registry (called only if a chapter embeds one);
    `render_sim(context)` turns an embed into HTML. The order matters: fixed ids (boxes,
    transcripts, sims) are declared before headings take theirs, and the code-block rule sees
    only the fences no extension took.
    """
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    md.use(colon_blocks_plugin, names=COLON_BLOCKS)
    md.use(pause_plugin)
    md.use(callouts_plugin)
    md.use(transcript_plugin, root=root)
    md.use(diagram_plugin)
    md.use(include_plugin, root=root)
    md.use(sim_plugin, registry=simulations, render_embed=render_sim)
    md.use(judge_plugin, registry=simulations, render_embed=render_sim)
    md.use(predict_plugin, registry=simulations)
    md.use(code_blocks_plugin)
    md.use(headings_plugin)
    md.use(figures_plugin, root=root)
    md.use(links_plugin, root=root)
    md.use(raw_html_plugin)
    return md
