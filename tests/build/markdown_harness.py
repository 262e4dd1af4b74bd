"""Render Markdown the way the build does, for the fixture-file tests.

Fixture files (tests/build/fixtures/markdown/*.md, problems/*.md) use markdown-it's format,
read by markdown_it.utils.read_fixture_file: a title line, then `.`, the Markdown, `.`, the
expected HTML (or the expected problems, one `file:line: message` a line), `.`.

To rewrite every expected section from the current output (then read the diff!):
    python -m tests.build.markdown_harness
"""
from __future__ import annotations

from pathlib import Path

from markdown_it.utils import read_fixture_file

from builder.markdown import make_markdown
from builder.markdown.env import new_env
from builder.problems import Problems
from builder.theme import Theme
from tests.build import fake_simulations
from tests.conftest import FIXTURE_BOOK, ROOT

FIXTURES = Path(__file__).parent / "fixtures"
THEME = ROOT / "theme"


def render(text: str, chapter: int = 2) -> tuple[str, list[str]]:
    """(HTML, problems as `chapter.md:line: message`, in line order) for one chapter's text."""
    problems = Problems()
    theme = Theme(THEME, problems)
    md = make_markdown(FIXTURE_BOOK, lambda: fake_simulations.SIMULATIONS, theme.render_sim)
    env = new_env("chapter.md", chapter, problems, theme.ids)
    html = md.render(text, env)
    found = sorted(problems, key=lambda p: (p.line or 0, p.message))
    return html, [str(p) for p in found]


def cases(kind: str) -> list[tuple[str, str, str]]:
    """[(test id "file:line title", markdown, expected)] for kind "markdown" or "problems"."""
    found = []
    for path in sorted((FIXTURES / kind).glob("*.md")):
        for line, title, text, expected in read_fixture_file(path):
            found.append((f"{path.stem}:{line + 1} {title}", text, expected))
    return found


def expected_output(kind: str, text: str) -> str:
    """What the fixture's third section holds for `text`: the HTML, or the problems."""
    html, problems = render(text)
    return html if kind == "markdown" else "".join(p + "\n" for p in problems)


def _update(path: Path, kind: str) -> None:
    blocks = [f"{title}\n.\n{text}.\n{expected_output(kind, text)}.\n"
              for _, title, text, _ in read_fixture_file(path)]
    path.write_text("\n".join(blocks), encoding="utf-8")


if __name__ == "__main__":
    for kind in ("markdown", "problems"):
        for fixture in sorted((FIXTURES / kind).glob("*.md")):
            _update(fixture, kind)
            print("updated", fixture.relative_to(ROOT))
