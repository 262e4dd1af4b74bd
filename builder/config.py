"""Where the build reads from and writes to."""
from __future__ import annotations

import dataclasses
import functools
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def load_simulations(root: Path = PROJECT) -> Mapping:
    """Import the `simulations` package found in `root` and return its SIMULATIONS registry.

    Raises ImportError (or whatever the package raises) when it cannot be imported; the build
    turns that into a problem at the first chapter line that embeds a simulation.
    """
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    import simulations   # found through the path just added

    return simulations.SIMULATIONS


@dataclasses.dataclass
class Config:
    """The folders of one build.

    `root` holds `content/` (the chapters and SUMMARY.md), `code/` (the exercise files) and,
    if it has simulations, `simulations/` (`simulations_dir`, None for none). `theme` and
    `node_modules` default to this project's own, so a test can build a fixture book with the
    real theme. `simulations` is a zero-argument function returning the registry {name: class}
    (by default: import `root`/simulations); it is called only when a chapter embeds one.
    """

    root: Path = PROJECT
    out: Path = PROJECT / "site"
    theme: Path = PROJECT / "theme"
    node_modules: Path = PROJECT / "node_modules"
    simulations_dir: Path | None | str = "root/simulations"
    simulations: Callable[[], Mapping] | None = None

    def __post_init__(self) -> None:
        self.root = Path(self.root).resolve()
        self.out = Path(self.out).resolve()
        if self.simulations_dir == "root/simulations":
            found = self.root / "simulations"
            self.simulations_dir = found if found.is_dir() else None
        if self.simulations is None:
            self.simulations = functools.partial(load_simulations, self.root)

    @property
    def content(self) -> Path:
        return self.root / "content"

    @property
    def code(self) -> Path:
        return self.root / "code"

    def shown(self, path: Path) -> str:
        """The path as problems print it: relative to the root when inside it."""
        path = Path(path)
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)
