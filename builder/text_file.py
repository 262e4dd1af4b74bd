"""Read an author's text file (a chapter, SUMMARY.md, an included exercise) as UTF-8, or say
where it is not: `file:line: ...` instead of a traceback."""
from __future__ import annotations

from pathlib import Path


class NotUTF8(ValueError):
    """The file is not UTF-8 text; `line` (1-based) and `column` (1-based, in bytes) say where."""

    def __init__(self, line: int, column: int, byte: int):
        self.line, self.column = line, column
        super().__init__(f"not UTF-8 text (byte 0x{byte:02x} at column {column}); save the file as UTF-8")


def read_text(path: Path) -> str:
    """The file's text. Raises NotUTF8 where its bytes are not UTF-8, OSError if it cannot be read."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[:error.start]
        raise NotUTF8(before.count(b"\n") + 1, error.start - (before.rfind(b"\n") + 1) + 1,
                      data[error.start]) from None
