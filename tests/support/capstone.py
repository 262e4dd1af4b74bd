"""The one way the tests import tinyq.

`tinyq` is the capstone's own code/capstone/tinyq.py, the very module the simulations run on
(simulations/_core.py loads it once, as `tinyq` in sys.modules). A drill that breaks tinyq on
purpose gets a separate module from an edited copy instead: `edited_tinyq(edit, folder)`.
"""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

from simulations._core import CAPSTONE_TINYQ, tinyq

__all__ = ["CAPSTONE_TINYQ", "tinyq", "edited_tinyq"]


def edited_tinyq(edit: Callable[[str], str], folder: Path):
    """A fresh module made from `edit(tinyq.py's source)`, written into `folder`; the real tinyq
    is left as it was."""
    path = folder / "tinyq_edited.py"
    path.write_text(edit(CAPSTONE_TINYQ.read_text(encoding="utf-8")), encoding="utf-8")
    name = f"{path.stem}_{id(path)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module        # dataclasses look their module up while the class is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module
