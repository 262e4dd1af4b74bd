"""Build problems, each reported as `file:line: what is wrong`."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input: where (file, 1-based line or None) and what."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


class BuildError(Exception):
    """The build stopped; `problems` holds every problem found, str() prints one a line."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Problems:
    """Collects problems so that one run reports all of them, not just the first.

    A stage adds what it finds with `add(path, line, message)` and keeps going where it can;
    `raise_if_any()` ends the build between stages.
    """

    def __init__(self) -> None:
        self._found: list[Problem] = []

    def add(self, path: str, line: int | None, message: str) -> None:
        problem = Problem(str(path), line, message)
        if problem not in self._found:
            self._found.append(problem)

    def __bool__(self) -> bool:
        return bool(self._found)

    def __iter__(self):
        return iter(self._found)

    def __len__(self) -> int:
        return len(self._found)

    def raise_if_any(self) -> None:
        """Raise BuildError listing every problem so far, in file and line order."""
        if self._found:
            raise BuildError(sorted(self._found, key=lambda p: (p.path, p.line or 0, p.message)))
