"""Running a reader's code: a static check, a fresh namespace, a step budget, errors at their line.

This is a guard against honest mistakes, NOT a security boundary. A determined reader can get
round any in-process check of Python; the real boundary is that the code runs in the reader's own
browser, in a Web Worker, on an in-memory file system, with nothing of anyone else's to reach.
What it does:
  - refuse() walks the syntax tree before anything runs and refuses imports outside a small
    allowlist, the names that reach outside (open, eval, exec, __import__, getattr ...) and any
    dunder name or attribute (the `().__class__.__bases__` walk);
  - load() runs the code in a fresh namespace that holds only the names an exercise gives it,
    with a short list of builtins;
  - Budget counts the lines the reader's code runs (sys.settrace, only in frames compiled from
    the reader's text) and stops a run past its limit. A loop inside one C call such as
    sum(range(10**12)) runs no Python lines and cannot be stopped here: the page ends the worker.
Every error is a ReaderError: a line number in the reader's own text and a message in words.
"""
import ast
import builtins
import json
import math
import random
import sqlite3
import sys
import uuid as _uuid

READER_FILE = "<your code>"
ALLOWED_IMPORTS = ("json", "math", "uuid")
REFUSED_NAMES = frozenset({
    "open", "eval", "exec", "compile", "__import__", "globals", "locals", "vars", "getattr",
    "setattr", "delattr", "breakpoint", "input", "help", "exit", "quit", "memoryview", "object"})
SAFE_BUILTINS = (
    "abs", "all", "any", "bool", "dict", "dir", "divmod", "enumerate", "filter", "float", "format",
    "frozenset", "hasattr", "int", "isinstance", "iter", "len", "list", "map", "max", "min",
    "next", "range", "repr", "reversed", "round", "set", "sorted", "str", "sum", "tuple", "type",
    "zip", "True", "False", "None", "Exception", "ArithmeticError", "ConnectionError",
    "KeyError", "LookupError", "RuntimeError", "TimeoutError", "TypeError", "ValueError",
    "ZeroDivisionError", "StopIteration")
MAX_PRINTED = 50  # lines of print() output kept for the result


class ReaderError(Exception):
    """A mistake in the reader's code: kind ('syntax', 'refused', 'exception', 'budget',
    'missing'), line (in the reader's text, or None) and message (words)."""

    def __init__(self, kind, line, message):
        super().__init__(f"line {line}: {message}" if line else message)
        self.kind, self.line, self.message = kind, line, message

    def as_dict(self, code):
        lines = code.splitlines()
        text = lines[self.line - 1].strip() if self.line and self.line <= len(lines) else None
        return {"kind": self.kind, "line": self.line, "message": self.message, "text": text}


class OutOfSteps(BaseException):
    """Raised inside the reader's code when it has run more lines than its budget.
    A BaseException, so no `except Exception` in the reader's code or in tinyq swallows it."""


def _refusal(node, what):
    return ReaderError("refused", getattr(node, "lineno", None),
                       f"{what} is not available here: this exercise's code runs with only the "
                       f"names it is given (imports allowed: {', '.join(ALLOWED_IMPORTS)})")


def refuse(code):
    """Parse `code`; raise ReaderError('syntax' or 'refused') if it cannot or may not run."""
    try:
        tree = ast.parse(code, READER_FILE)
    except SyntaxError as error:
        raise ReaderError("syntax", error.lineno, f"Python cannot read this line: {error.msg}") \
            from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in ALLOWED_IMPORTS:
                    raise _refusal(node, f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            if node.level or (node.module or "").split(".")[0] not in ALLOWED_IMPORTS:
                raise _refusal(node, f"from {node.module or '.'} import ...")
        elif isinstance(node, ast.Name) and (node.id in REFUSED_NAMES or node.id.startswith("__")):
            raise _refusal(node, f"the name {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("__"):
            raise _refusal(node, f"the attribute .{node.attr}")
    return tree


def seeded_uuid(rng):
    """A stand-in for the uuid module whose uuid4() draws from `rng`, so a run replays."""
    class SeededUuid:
        UUID = _uuid.UUID

        @staticmethod
        def uuid4():
            return _uuid.UUID(int=rng.getrandbits(128), version=4)
    return SeededUuid()


def load(code, names, rng, budget):
    """Check and run `code` in a fresh namespace holding `names`; return (namespace, printed).

    rng: the run's random.Random (for the seeded uuid4). budget: a Budget, counting lines.
    Raises ReaderError for a syntax error, a refusal, an exception or a spent budget.
    """
    tree = refuse(code)
    printed = []
    modules = {"json": json, "math": math, "uuid": seeded_uuid(rng)}

    def restricted_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level or name not in modules:
            raise ImportError(f"import {name} is not available here")
        return modules[name]

    def reader_print(*values, sep=" ", end="\n", **_):
        if len(printed) < MAX_PRINTED:
            printed.append(sep.join(str(value) for value in values))

    safe = {name: getattr(builtins, name) for name in SAFE_BUILTINS}
    safe.update(__import__=restricted_import, __build_class__=builtins.__build_class__,
                print=reader_print)
    namespace = {"__builtins__": safe, "__name__": "your_code", **names}
    compiled = compile(tree, READER_FILE, "exec")
    run_reader(budget, exec, compiled, namespace)
    return namespace, printed


def reader_line(error):
    """The line of the reader's text where `error` was raised (the innermost such frame)."""
    line, trace = None, error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == READER_FILE:
            line = trace.tb_lineno
        trace = trace.tb_next
    return line


def run_reader(budget, function, *args, expected=()):
    """Call function(*args) with `budget` counting (only while the reader's code is running, so
    the rest of a run pays nothing for the tracer), turning an exception raised in the
    reader's code into ReaderError.
    An exception from our side (no frame of the reader's), or one of the `expected` classes
    (the world's network errors, which the queue retries), passes through unchanged."""
    try:
        with budget:
            return function(*args)
    except expected:
        raise
    except OutOfSteps:
        raise ReaderError("budget", budget.where,
                          f"your code ran more than {budget.limit:,} lines without finishing: "
                          f"is there a loop that never ends?") from None
    except Exception as error:
        line = reader_line(error)
        if line is None:
            raise
        raise ReaderError("exception", line, f"{type(error).__name__}: {error}") from None


class Budget:
    """Counts the lines run in the reader's frames while active (`with budget:`) and raises
    OutOfSteps past `limit`. Only frames compiled from the reader's text get a line tracer,
    so our own code and tinyq pay one cheap call per function call, not per line."""

    def __init__(self, limit):
        self.limit, self.used, self.where = limit, 0, None

    def _on_call(self, frame, event, arg):
        return self._on_line if frame.f_code.co_filename == READER_FILE else None

    def _on_line(self, frame, event, arg):
        if event == "line":
            self.used += 1
            if self.used > self.limit:
                self.where = frame.f_lineno
                raise OutOfSteps()
        return self._on_line

    def __enter__(self):
        self._before = sys.gettrace()
        if self.limit is not None:  # None: no counting at all (for bench/bench_judge.py only)
            sys.settrace(self._on_call)
        return self

    def __exit__(self, *exc):
        if self.limit is not None:
            sys.settrace(self._before)
        return False


def no_attach(action, *_):
    """A sqlite3 authorizer: the reader's SQL may not ATTACH (or DETACH) a database file."""
    return sqlite3.SQLITE_DENY if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH) \
        else sqlite3.SQLITE_OK


def fresh_rng(*about):
    """A random.Random seeded from `about` (text), the same in CPython and in Pyodide."""
    return random.Random(":".join(str(part) for part in about))
