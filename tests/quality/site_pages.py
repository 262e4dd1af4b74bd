"""The pages of the real site every quality gate runs on: the index, each chapter (in the order
content/SUMMARY.md gives), guide.html, the whole guide on one page, and guide-student.html, its copy without the answers in
print."""
from builder.problems import Problems
from builder.summary import load_summary
from tests.conftest import ROOT

CHAPTERS = [chapter.url for chapter in load_summary(ROOT / "content", Problems())]
PAGES = ["index.html", *CHAPTERS, "guide.html", "guide-student.html"]
