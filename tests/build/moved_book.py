"""A small book in which pages were renamed and split (content/moved.toml), for the build test
and the browser test of old addresses.

Before: 00-start, 01-long (three pause boxes, a section "A second idea", one simulation), 02-end.
After:  00-start, 01-long (its first box), 02-second (the rest: a numbered box, a declared one, the
section and the simulation), 03-end (02-end renamed). 09-gone was an old page whose parts are
02-second and 03-end; 08-older was renamed 01-long before that was split.
"""
from __future__ import annotations

from pathlib import Path

from tests.build.book_maker import make_book

BOX = ":::: pause{declared}\n{question}\n\n::: answer\nYes.\n:::\n::::\n"

LONG = "One idea.\n\n" + BOX.format(declared="", question="First?") + "\n## Further reading\n\nNone.\n"
SECOND = ("It used to be part of [the long one](01-long.md).\n\n"
          + BOX.format(declared="", question="Second?") + "\n"
          + BOX.format(declared=" id=kept", question="Third?")
          + "\n## A second idea\n\n" + "Words to scroll past.\n\n" * 60
          + "```sim counter id=twice\nworkers: 2\n---\nA counter.\n```\n\n## Further reading\n\nSome.\n")
END = "Filler.\n\n" * 60 + BOX.format(declared="", question="Last?") + "\n## Afterwards\n\nDone.\n"

MOVED = '''# Old pages and where their content is now.
"01-long.md" = ["01-long.md", "02-second.md"]
"02-end.md" = "03-end.md"
"09-gone.md" = ["02-second.md", "03-end.md"]
"08-older.md" = "01-long.md"
'''


def make_moved_book(root: Path, moved: str = MOVED) -> Path:
    chapters = {"00-start.md": "Hello.\n", "01-long.md": LONG, "02-second.md": SECOND, "03-end.md": END}
    make_book(root, chapters)
    (root / "content" / "moved.toml").write_text(moved, encoding="utf-8")
    return root
