#!/usr/bin/env python3
"""Words per chapter, to keep each sitting short: every chapter but the capstone stays near 5,000.

    python scripts/chapter_words.py

Prints, for each content/*.md in SUMMARY.md order, its words (`wc -w`'s count: every
whitespace-separated token, code and markup included) and the words a reader meets on the main
path, outside folded asides (`<details class="aside">`, docs/authoring.md "Folded asides").
"""
from __future__ import annotations

import re
from pathlib import Path

CONTENT = Path(__file__).resolve().parent.parent / "content"
ASIDE = re.compile(r'^<details class="aside">\n.*?^</details>$', re.S | re.M)
ITEM = re.compile(r"\]\(([^)]+\.md)\)")


def counts(text: str) -> tuple[int, int]:
    """(all words, words outside folded asides) of one chapter's Markdown."""
    return len(text.split()), len(ASIDE.sub("", text).split())


def main() -> None:
    order = ITEM.findall((CONTENT / "SUMMARY.md").read_text(encoding="utf-8"))
    print(f"{'chapter':34} {'words':>7} {'outside asides':>15}")
    for name in order:
        every, main_path = counts((CONTENT / name).read_text(encoding="utf-8"))
        print(f"{name:34} {every:7,} {main_path:15,}")


if __name__ == "__main__":
    main()
