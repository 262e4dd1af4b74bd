"""The guide's simulations: pure Python on tinyq, run by the tests in CPython and by the page in Pyodide.

SIMULATIONS maps each name a chapter may embed (```sim live-queue```) to its class. Every class
takes (params, seed), validates them (ParamError), and has PARAMS, step(), run(until),
act(name, **args) and snapshot(). docs/simulations.md describes each one for the page.
"""
from .crash_timing import CrashTiming
from .live_queue import LiveQueue
from .race import Race
from .params import ParamError
from .payments import Payments

SIMULATIONS = {
    LiveQueue.NAME: LiveQueue,
    Race.NAME: Race,
    CrashTiming.NAME: CrashTiming,
    Payments.NAME: Payments,
}

__all__ = ["SIMULATIONS", "ParamError", "LiveQueue", "Race", "CrashTiming", "Payments"]
