"""Each Markdown extension against its fixture files: tests/build/fixtures/markdown/*.md give
the exact HTML, tests/build/fixtures/problems/*.md the exact `file:line: message` problems."""
import pytest

from tests.build.markdown_harness import cases, render


MARKDOWN, PROBLEMS = cases("markdown"), cases("problems")


@pytest.mark.parametrize("title,text,expected", MARKDOWN, ids=[case[0] for case in MARKDOWN])
def test_renders(title, text, expected):
    html, problems = render(text)
    assert problems == []
    assert html == expected


@pytest.mark.parametrize("title,text,expected", PROBLEMS, ids=[case[0] for case in PROBLEMS])
def test_reports(title, text, expected):
    _, problems = render(text)
    assert problems == expected.splitlines()


def test_every_extension_has_fixtures():
    from builder.markdown.code_blocks import EXTENSIONS
    files = {title.split(":")[0] for title, _, _ in MARKDOWN}
    assert set(EXTENSIONS) | {"pause", "callouts", "headings", "links", "code_blocks"} <= files
