"""The guide's simulations: pure Python on tinyq, run by the tests in CPython and by the page in Pyodide.

SIMULATIONS maps each name a chapter may embed (```sim live-queue```) to its class. Every class
takes (params, seed), validates them (ParamError), and has PARAMS, step(), run(until),
act(name, **args) and snapshot(). docs/simulations.md describes each one for the page.

Each simulation is a package (live_queue/, race/, crash_timing/, payments/) on the engine
(engine/); the judge (judge/) runs the reader's code; bridge.py is the page's door. Each
simulation's package is imported the first time its class is asked for (SIMULATIONS[name],
or `from simulations import LiveQueue`), not with the package: the page's Python compiles every
module it imports from source, so a page that shows only the live queue does not wait for the
other three (bench/bench_widgets.py, `ready`).
"""
from collections.abc import Mapping

from .engine.params import ParamError


# Plain imports inside functions: each runs on the class's first lookup, not with the package.
def _live_queue():
    from .live_queue import LiveQueue
    return LiveQueue


def _race():
    from .race import Race
    return Race


def _crash_timing():
    from .crash_timing import CrashTiming
    return CrashTiming


def _payments():
    from .payments import Payments
    return Payments


# name -> (class name, its import), in the order the guide introduces them
_WHERE = {
    "live-queue": ("LiveQueue", _live_queue),
    "race": ("Race", _race),
    "crash-timing": ("CrashTiming", _crash_timing),
    "payments": ("Payments", _payments),
}
_CLASSES = dict(_WHERE.values())


class _Registry(Mapping):
    """{name: class}, each class imported when first looked up."""

    def __getitem__(self, name):
        return _WHERE[name][1]()

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
        return _CLASSES[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SIMULATIONS", "ParamError", "LiveQueue", "Race", "CrashTiming", "Payments"]
