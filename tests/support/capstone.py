"""The one way the tests import tinyq.

`tinyq` is the capstone's own code/capstone/tinyq.py, the very module the simulations run on
(simulations/engine/capstone.py loads it once, as `tinyq` in sys.modules). Only a drill that breaks tinyq
on purpose loads an edited copy as a module of its own (tests/capstone/test_fencing.py). The
capstone's programs (shop.py, world.py) are imported as a reader's run finds them, with their
own fresh tinyq: `import_as_run(name, monkeypatch, folder)`.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

from simulations.engine.capstone import CAPSTONE_TINYQ, tinyq

__all__ = ["CAPSTONE", "CAPSTONE_TINYQ", "tinyq", "import_as_run", "forget"]

CAPSTONE = CAPSTONE_TINYQ.parent


def import_as_run(name: str, monkeypatch, folder: Path, also: tuple = ()):
    """Import code/capstone/<name>.py afresh, as `python3 <name>.py` run in `folder` finds it:
    the capstone's folder first on sys.path, `folder` as the working directory (its databases go
    there), keys on (no TINYQ_NO_KEYS), and no bytecode written into code/. The modules named in
    `also` (e.g. "tinyq") are imported afresh with it. When the test ends, monkeypatch puts
    sys.modules back as it was: a fresh tinyq left behind would be a second `tinyq` whose classes
    are not the simulations' (pickling a simulation, or tinyq_pg's subclass, would then break)."""
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)   # leave code/ as it was
    monkeypatch.syspath_prepend(str(CAPSTONE))
    monkeypatch.delenv("TINYQ_NO_KEYS", raising=False)
    for module in (name, *also):
        monkeypatch.delitem(sys.modules, module, raising=False)
    return importlib.import_module(name)


def forget(*names: str) -> None:
    """Drop modules from sys.modules, so that the next import runs them again."""
    for name in names:
        sys.modules.pop(name, None)
