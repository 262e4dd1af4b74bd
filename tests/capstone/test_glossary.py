"""The glossary (chapter 18): enough entries, in order, each linked to where it is taught.

The build checks that every link and #anchor exists; this checks the glossary's own shape.
"""
import re
from pathlib import Path

GLOSSARY = Path(__file__).resolve().parents[2] / "content" / "18-glossary.md"
ENTRY = re.compile(r"^\*\*(?P<term>[^*]+)\*\*")
CHAPTER_LINK = re.compile(r"\]\((?:0\d|1[0-7])-[a-z-]+\.md(?:#[a-z0-9_-]+)?\)")


def sections():
    """{letter: [entry text, ...]} in the order of the file."""
    found, letter, entry = {}, None, None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            letter = line[3:].strip()
            found[letter] = []
        elif letter and ENTRY.match(line):
            found[letter].append(line)
        elif letter and found[letter] and line.strip():
            found[letter][-1] += " " + line.strip()
    return found


def sort_key(term):
    return re.sub(r"[^a-z0-9 ]", "", term.lower())


def test_at_least_thirty_terms_each_linked_to_a_chapter():
    entries = [entry for group in sections().values() for entry in group]
    assert len(entries) >= 30
    for entry in entries:
        assert CHAPTER_LINK.search(entry), f"no link to where it is taught: {entry[:60]}"


def test_letters_and_terms_are_in_alphabetical_order():
    groups = sections()
    letters = list(groups)
    assert letters == sorted(letters)
    for letter, entries in groups.items():
        terms = [ENTRY.match(entry).group("term").strip("`") for entry in entries]
        assert terms, f"letter {letter} has no entries"
        assert all(sort_key(term)[0] == letter.lower() for term in terms), terms
        assert terms == sorted(terms, key=sort_key), f"{letter}: {terms}"


def test_the_job_states_are_all_defined():
    terms = {ENTRY.match(entry).group("term") for group in sections().values() for entry in group}
    assert {"queued", "running", "done", "dead"} <= terms
