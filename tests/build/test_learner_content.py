"""What the guide's chapters owe learners and teachers: every pause box, study drills
and Break it box and every simulation embed has an id that survives edits, and every study drills
box has its solutions, folded."""
import re

from tests.conftest import ROOT

CHAPTERS = sorted((ROOT / "content").glob("*.md"))


def test_every_pause_box_in_the_guide_declares_its_id():
    for path in CHAPTERS:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.startswith(":::: pause"):
                assert re.fullmatch(r":::: pause id=[a-z0-9-]+", line), f"{path.name}:{number}: give it an id="


def test_every_drills_and_break_box_in_the_guide_declares_its_id():
    """Their order-based ids (`drills-5-2`) shifted when a box was inserted above; each stays as
    an alias of the declared one (builder/markdown/env.py, `stable_id`), so old links still land."""
    boxes = 0
    for path in CHAPTERS:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.match(r":{3,} (drills|break)\b", line):
                boxes += 1
                assert re.fullmatch(r":{3,} (drills|break) id=[a-z0-9-]+", line), f"{path.name}:{number}: give it an id="
    assert boxes >= 17


def test_every_simulation_embed_in_the_guide_declares_its_id():
    embeds = 0
    for path in CHAPTERS:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.startswith("```sim"):
                embeds += 1
                assert re.fullmatch(r"```sim [a-z-]+ id=[a-z0-9-]+", line), f"{path.name}:{number}: give it an id="
    assert embeds >= 26


def test_every_study_drills_box_has_its_solutions():
    boxes = 0
    for path in CHAPTERS:
        text = path.read_text()
        assert not re.search(r"^::: drills", text, re.M), f"{path.name}: a drills box without solutions"
        for box in re.findall(r"^:::: drills(?: id=[a-z0-9-]+)?\n(.*?)^::::$", text, re.M | re.S):
            boxes += 1
            assert "\n::: answer\n" in box, f"{path.name}: a drills box without '::: answer' (its solutions)"
    assert boxes >= 9


def test_no_chapter_lists_a_source_twice_in_its_further_reading():
    """Two readers in a row found one page cited twice under one chapter's Further reading."""
    lists = 0
    for path in CHAPTERS:
        text = path.read_text()
        if "\n## Further reading\n" not in text:
            continue
        lists += 1
        section = text.split("\n## Further reading\n", 1)[1].split("\n## ", 1)[0]
        urls = [url for url in re.findall(r"\]\((https?://[^)\s]+)\)", section)]
        twice = sorted({url for url in urls if urls.count(url) > 1})
        assert not twice, f"{path.name}: listed more than once under Further reading: {twice}"
    assert lists >= 8
