"""`def=` in an include: a function, class or method found by its dotted name."""
import pytest

from builder.markdown.include import find_definition

SOURCE = '''\
import functools


def backoff(attempt):
    return 2 ** attempt


class Queue:
    @functools.cache
    @staticmethod
    def claim():
        return None

    async def drain(self):
        pass


class Other:
    def claim(self):
        pass
'''


@pytest.mark.parametrize("name,lines", [
    ("backoff", (4, 5)),
    ("Queue", (8, 15)),
    ("Queue.claim", (9, 12)),      # from the first decorator
    ("Queue.drain", (14, 15)),
    ("Other.claim", (19, 20)),
])
def test_found(name, lines):
    assert find_definition(SOURCE, name) == lines


@pytest.mark.parametrize("name,message", [
    ("claim", "no function, class or assignment 'claim' in the file's top level"),
    ("Queue.release", "no function, class or assignment 'release' in Queue"),
])
def test_missing(name, message):
    with pytest.raises(LookupError, match=message):
        find_definition(SOURCE, name)


def test_defined_twice_is_ambiguous():
    with pytest.raises(LookupError, match="defined 2 times"):
        find_definition("def f():\n    pass\n\ndef f():\n    pass\n", "f")


ASSIGNMENTS = '''\
import sqlite3

# Look and take in one statement.
# (Two comment lines.)
CLAIM = """
UPDATE jobs
"""
LIMIT: int = 5
x = CLAIM
'''


@pytest.mark.parametrize("name,lines", [
    ("CLAIM", (3, 7)),      # with the comment lines just above it
    ("LIMIT", (8, 8)),
])
def test_assignment_found(name, lines):
    assert find_definition(ASSIGNMENTS, name) == lines


def test_a_name_that_is_only_used_is_not_found():
    with pytest.raises(LookupError, match="'sqlite3'"):
        find_definition(ASSIGNMENTS, "sqlite3")
