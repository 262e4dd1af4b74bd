"""The capstone skeleton teaches by contract: its STAGE comments say what each part must
guarantee and never spell out the reference's lines; the exact steps wait in chapter 9's folded
"Stuck on stage N?" boxes, one per stage; and the walk-through of the reference, which answers
every stage, comes only after the chaos (in a trial, readers given the answers early copied rather than thought)."""
import ast

from tests.capstone.test_check import CAPSTONE, SKELETON, TINYQ


def _reference_lines():
    """The reference's lines that the reader writes: the bodies of what the skeleton leaves out."""
    skeleton = ast.parse(SKELETON.read_text(encoding="utf-8"))
    todo = {node.name for node in ast.walk(skeleton) if isinstance(node, ast.FunctionDef)
            and any(isinstance(part, ast.Raise) and "NotImplementedError" in ast.unparse(part)
                    for part in node.body)}
    todo |= {ast.unparse(node.targets[0]) for node in skeleton.body if isinstance(node, ast.Assign)
             and isinstance(node.value, ast.Constant) and node.value.value == "\n"}
    lines = []
    for path in (TINYQ, CAPSTONE / "tinyq_sql.py"):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef):
                name = node.name
            elif isinstance(node, ast.Assign):
                name = ast.unparse(node.targets[0])
            else:
                continue
            if name in todo:
                body = node.body if isinstance(node, ast.FunctionDef) else [node.value]
                body = [part for part in body if not (isinstance(part, ast.Expr)     # docstring
                                                      and isinstance(part.value, ast.Constant))]
                for part in body:
                    lines += [" ".join(line.split("#")[0].split())
                              for line in ast.get_source_segment(text, part).splitlines()]
    return {line for line in lines if len(line) >= 20}


def test_the_skeletons_comments_state_contracts_and_do_not_dictate_the_references_lines():
    text = SKELETON.read_text(encoding="utf-8")
    prose = [line.split("#", 1)[1] for line in text.splitlines() if line.strip().startswith("#")]
    prose += [ast.get_docstring(node) or "" for node in ast.walk(ast.parse(text))
              if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    comments = " ".join(" ".join(piece.split()) for piece in prose)
    lines = _reference_lines()
    assert len(lines) > 20, lines     # the reference's bodies were found
    dictated = sorted(line for line in lines if line in comments)
    assert not dictated, f"the skeleton's STAGE comments spell out the reference's lines: {dictated}"


def test_each_stage_has_a_folded_stuck_box_in_the_chapter_and_the_walk_through_comes_after_the_chaos():
    chapter = (CAPSTONE.parents[1] / "content" / "12-capstone.md").read_text(encoding="utf-8")
    assert "Stuck on stage N?" in SKELETON.read_text(encoding="utf-8")   # the skeleton points there
    for stage in (1, 2, 3, 4):
        section = chapter.split(f"### Stage {stage}:", 1)[1].split("\n### When every stage passes", 1)[0]
        section = section.split(f"### Stage {stage + 1}:", 1)[0]
        box = f'<details class="aside">\n<summary>Stuck on stage {stage}? '
        assert chapter.count(box) == 1 and box in section, f"stage {stage}'s section has no stuck box"
    assert chapter.index("## Run the chaos") < chapter.index("## A walk through tinyq")


def test_each_stuck_box_grades_its_help_a_nudge_then_the_shape_then_the_code_each_folded():
    """A reader stuck on one detail opens a nudge, not the stage's answer."""
    chapter = (CAPSTONE.parents[1] / "content" / "12-capstone.md").read_text(encoding="utf-8")
    steps = ["Step 1, a nudge", "Step 2, the shape", "Step 3, the code"]
    for stage in (1, 2, 3, 4):
        box = chapter.split(f"<summary>Stuck on stage {stage}? ", 1)[1]
        box = box.split("\n### ", 1)[0]
        places = [box.find(f'<details class="aside">\n<summary>{step}') for step in steps]
        assert all(place >= 0 for place in places) and places == sorted(places), (stage, places)
        # the nudge and the shape hold no code block: the lines wait in step 3
        assert "```python" not in box[places[0]:places[1]], f"stage {stage}'s nudge shows code"
        assert box.count("<details") + 1 == box.count("</details>"), f"stage {stage}: folds unbalanced"
