"""The guide's simulations: pure Python on tinyq, run by the tests in CPython and by the page in Pyodide.

SIMULATIONS maps each name a chapter may embed (```sim live-queue```) to its class. Every class
takes (params, seed), validates them (ParamError), and has PARAMS, step(), run(until),
act(name, **args) and snapshot(). docs/simulations.md describes each one for the page.

Each simulation's module is imported the first time its class is asked for (SIMULATIONS[name],
or `from simulations import LiveQueue`), not with the package: the page's Python compiles every
module it imports from source, so a page that shows only the live queue does not wait for the
other three (bench/bench_widgets.py, `ready`).
"""
import importlib
from collections.abc import Mapping

from .params import ParamError

# name -> (module, class), in the order the guide introduces them
_WHERE = {
    "live-queue": ("live_queue", "LiveQueue"),
    "race": ("race", "Race"),
    "crash-timing": ("crash_timing", "CrashTiming"),
    "payments": ("payments", "Payments"),
}
_CLASSES = {cls: module for module, cls in _WHERE.values()}


class _Registry(Mapping):
    """{name: class}, each class imported when first looked up."""

    def __getitem__(self, name):
        module, cls = _WHERE[name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), cls)

    def __iter__(self):
        return iter(_WHERE)

    def __len__(self):
        return len(_WHERE)

    def __repr__(self):
        return f"SIMULATIONS({', '.join(_WHERE)})"


SIMULATIONS = _Registry()


def __getattr__(name):
    """`from simulations import LiveQueue` (and Race, CrashTiming, Payments): imported on first use."""
    if name in _CLASSES:
        return getattr(importlib.import_module(f"{__name__}.{_CLASSES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SIMULATIONS", "ParamError", "LiveQueue", "Race", "CrashTiming", "Payments"]
