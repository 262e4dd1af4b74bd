"""A small stand-in for the `simulations` package, for the build's tests.

It is built from the real contract code, not a copy of it: its PARAMS are made by
simulations/engine/params.py, its values checked (and its ParamError raised) by that module's
validate(), and its clock, run(until), actions and snapshot() come from the real Simulation
base class. So the build tests depend on the contract, not on what the real simulations
happen to do, and the double cannot drift from the contract: tests/core/test_contract.py
runs one suite over it and every real simulation.
"""
from __future__ import annotations

from simulations.engine.params import ParamError, choice, integer, number, seed_param
from simulations.engine.simulation import Simulation

__all__ = ["SIMULATIONS", "ParamError", "Counter", "Broken"]


class Counter(Simulation):
    """`jobs` queued jobs, done by `workers` workers, one job each per second."""

    NAME = "counter"
    MAX_RUN_STEPS = 50
    PARAMS = (
        integer("workers", "Workers", 1, 1, 8, "Workers."),
        integer("jobs", "Jobs", 2, 0, 20, "Jobs at the start."),
        number("lease", "Lease (s)", 5.0, 0.5, 60.0, "Lease."),
        choice("mode", "Mode", "atomic", ("naive", "atomic"), "Claim."),
        seed_param(),
    )

    def _start(self):
        self.done = 0

    def _step(self):
        self.clock.now += 1.0
        finished = min(self.params["workers"], self.params["jobs"] - self.done)
        self.done += finished
        self.emit(f"{finished} job(s) done")

    def next_time(self):
        return self.clock.now + 1.0

    @property
    def finished(self):
        return self.done >= self.params["jobs"]

    def outcome(self):
        waiting = self.params["jobs"] - self.done
        return f"{waiting} jobs waiting for {self.params['workers']} worker(s)"

    def job_rows(self):
        return [{"id": n + 1, "status": "done" if n < self.done else "queued",
                 "attempts": int(n < self.done), "lease_left": None}
                for n in range(self.params["jobs"])]

    def _state(self):
        return {}


class Broken(Counter):
    """A simulation whose snapshot is not JSON-able (a contract breach the build must catch)."""

    NAME = "broken"

    def snapshot(self):
        return {**super().snapshot(), "time": object()}


SIMULATIONS = {"counter": Counter, "broken": Broken}
