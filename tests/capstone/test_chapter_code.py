"""Chapter 9 shows the capstone's code with include blocks; check they still show whole pieces.

A `lines=` range is fragile: if someone edits tinyq.py above it, the chapter would show half
a statement. So every range must start and end on a blank-line boundary and cut no top-level
statement in two. Every `def=` must name a function, method, class or assignment that exists.
"""
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = [ROOT / "content" / "12-capstone.md", ROOT / "content" / "13-the-real-world.md"]
INCLUDE = re.compile(r"^```include (\S+)(?: (def|lines)=(\S+))?\s*$")


def includes():
    found = []
    for chapter in CHAPTERS:
        for number, line in enumerate(chapter.read_text(encoding="utf-8").splitlines(), 1):
            match = INCLUDE.match(line)
            if match:
                found.append(pytest.param(*match.groups(), id=f"{chapter.name}:{number}"))
    return found


def named(tree, dotted):
    """The node of `Class.method` or `function` in a module's tree, or None."""
    nodes = tree.body
    node = None
    for part in dotted.split("."):
        node = next((n for n in nodes if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                     and n.name == part or isinstance(n, ast.Assign)
                     and any(getattr(t, "id", None) == part for t in n.targets)), None)
        if node is None:
            return None
        nodes = getattr(node, "body", [])
    return node


@pytest.mark.parametrize("path, how, what", includes())
def test_each_include_shows_a_whole_piece_of_real_code(path, how, what):
    source = (ROOT / path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    if how == "def":
        assert named(tree, what) is not None, f"{path} has no {what}"
    elif how == "lines":
        first, last = map(int, what.split("-"))
        lines = source.splitlines()
        assert 1 <= first <= last <= len(lines)
        assert first == 1 or lines[first - 2].strip() == "", f"{path}:{first} starts mid-block"
        assert last == len(lines) or lines[last].strip() == "", f"{path}:{last} ends mid-block"
        for statement in tree.body:
            overlaps = statement.lineno <= last and statement.end_lineno >= first
            inside = first <= statement.lineno and statement.end_lineno <= last
            assert inside or not overlaps, f"{path} lines {what} cut line {statement.lineno} in two"


def test_the_chapter_shows_the_queries_it_talks_about():
    text = CHAPTERS[0].read_text(encoding="utf-8")
    shown = set(re.findall(r"```include code/capstone/tinyq_sql\.py def=(\w+)", text))
    for name in ("STATES", "SCHEMA", "CLAIM_JOB", "BURY_EXPIRED", "MARK_DONE", "MARK_RETRY",
                 "MARK_DEAD"):
        assert name in shown, f"chapter 9 no longer shows {name}"


def test_the_names_the_assignment_promises_are_the_ones_tinyq_has():
    """Chapter 9 tells a reader which names shop.py and chaos.py call, and what claim() returns;
    if tinyq is renamed under it, the chapter would send readers the wrong way."""
    import dataclasses
    import inspect

    from tests.support.capstone import tinyq
    text = CHAPTERS[0].read_text(encoding="utf-8")
    settings = ["lease", "max_attempts", "backoff_base", "backoff_cap", "clock", "rng", "sleep"]
    assert "Queue(path, " + ", ".join(f"{name}=..." for name in settings) + ")" in text
    parameters = inspect.signature(tinyq.Queue).parameters
    assert list(parameters) == ["path"] + settings
    assert all(parameters[name].default is not inspect.Parameter.empty for name in settings)
    fields = [field.name for field in dataclasses.fields(tinyq.Job)]
    assert fields == ["id", "kind", "args", "attempts", "token", "queue", "outcome"]
    queue = tinyq.Queue(":memory:", clock=lambda: 0.0)
    queue.handler("k")(lambda job: None)
    queue.enqueue("k", {})
    job = queue.work_one(worker="w1")
    assert job.outcome == "done" and queue.work_one() is None
    for name in ("claim", "ack", "fail", "extend", "release", "work_one"):
        assert f"`{name}(" in text or f"`queue.{name}(" in text, f"chapter 9 never names {name}()"
    assert "tinyq.Permanent" in text and "transaction(" in text
    for outcome in ("`done`", "`queued`", "`dead`", "`lease lost`"):
        assert outcome in text
