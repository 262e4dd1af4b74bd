"""The casebook is read as a casebook: each case gives the symptom, asks the reader to name the
cause, and keeps the diagnosis folded until then; the replay comes after the fold."""
import re
from pathlib import Path

CASEBOOK = Path(__file__).resolve().parents[2] / "content" / "19-casebook.md"
QUESTION = "**Your diagnosis first:**"
FOLD = '<details class="aside">\n<summary>The diagnosis'


FREE_PLAY = "Free play"   # the chapter's last embed: every control, no case


def cases():
    """{heading: section text} for every `##` section that replays a case in a simulation."""
    text = CASEBOOK.read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return {heading: body for heading, body in sections if "```sim " in body and heading != FREE_PLAY}


def test_the_free_play_embed_shows_every_control():
    text = CASEBOOK.read_text(encoding="utf-8")
    section = re.search(rf"^## {FREE_PLAY}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section and "```sim live-queue id=free-play\nlevel: free\n" in section.group(1)


def test_every_replayed_case_asks_for_the_cause_before_its_folded_diagnosis_and_replays_after():
    found = cases()
    assert len(found) >= 10, sorted(found)
    for heading, body in found.items():
        assert body.count(QUESTION) == 1, f"{heading!r}: no question asking for the cause first"
        assert body.count(FOLD) == 1, f"{heading!r}: no folded diagnosis"
        question, fold, embed = body.index(QUESTION), body.index(FOLD), body.index("```sim ")
        assert question < fold < embed, f"{heading!r}: the symptom, the question, the fold, then the replay"
        symptom = body[:question]
        assert "chapter" not in symptom.lower(), f"{heading!r}: the symptom names the chapter (the cause)"
