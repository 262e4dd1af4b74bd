"""The pages of the real site every quality gate runs on: the index, each chapter (in the order
content/SUMMARY.md gives), guide.html, the whole guide on one page, and guide-student.html, its copy without the answers in
print; and FORWARDING, the old addresses of renamed or split chapters."""
from builder.moved import load_moves
from builder.problems import Problems
from builder.summary import load_summary
from tests.conftest import ROOT

_SUMMARY = load_summary(ROOT / "content", Problems())
CHAPTERS = [chapter.url for chapter in _SUMMARY]
PAGES = ["index.html", *CHAPTERS, "guide.html", "guide-student.html"]
# The pages at old addresses that forward to where their content is now (content/moved.toml):
# no reading of their own, so the HTML check is their gate, not the reading gates above.
FORWARDING = sorted(move.url for move in load_moves(ROOT / "content", _SUMMARY, Problems())
                    if move.url not in CHAPTERS)
