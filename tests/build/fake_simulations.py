"""A small stand-in for the `simulations` package, built to the same contract
(docs/simulations.md): PARAMS as dicts, ParamError(field, message), snapshot() with
sim, time, jobs, outcome, events, finished. The build tests use it so they depend on the
contract, not on the real simulations' progress."""
from __future__ import annotations


class ParamError(ValueError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message
        self.problems = [self]   # as the real one: every bad parameter, the first raised


class Counter:
    """`jobs` queued jobs, counted down by `workers` workers, one job per second each."""

    NAME = "counter"
    PARAMS = (
        {"name": "workers", "label": "Workers", "type": "int", "default": 1, "min": 1, "max": 8, "help": "Workers."},
        {"name": "jobs", "label": "Jobs", "type": "int", "default": 2, "min": 0, "max": 20, "help": "Jobs at the start."},
        {"name": "lease", "label": "Lease (s)", "type": "float", "default": 5.0, "min": 0.5, "max": 60.0, "help": "Lease."},
        {"name": "mode", "label": "Mode", "type": "choice", "default": "atomic", "choices": ["naive", "atomic"], "help": "Claim."},
        {"name": "seed", "label": "Seed", "type": "int", "default": 0, "min": 0, "max": 2**31 - 1, "help": "Seed."},
    )

    def __init__(self, params=None, seed=0):
        params = dict(params or {})
        self.values, problems = {}, []
        for spec in self.PARAMS:
            value = params.pop(spec["name"], seed if spec["name"] == "seed" else spec["default"])
            try:
                self.values[spec["name"]] = self._check(spec, value)
            except ParamError as error:
                problems.append(error)
        problems += [ParamError(name, "unknown parameter") for name in params]
        if problems:
            problems[0].problems = problems
            raise problems[0]
        self.time = 0.0
        self.done, self.events = 0, []

    @staticmethod
    def _check(spec, value):
        if spec["type"] in ("int", "float"):
            try:
                value = (int if spec["type"] == "int" else float)(value)
            except (TypeError, ValueError):
                raise ParamError(spec["name"], f"must be a number, got {value!r}") from None
            if not spec["min"] <= value <= spec["max"]:
                raise ParamError(spec["name"], f"must be from {spec['min']} to {spec['max']}, got {value}")
        elif spec["type"] == "choice" and value not in spec["choices"]:
            raise ParamError(spec["name"], f"must be one of {', '.join(spec['choices'])}; got {value!r}")
        return value

        self.done, self.events = 0, []

    def run(self, until):
        """Each second, every worker finishes one job (the contract's run: True when there)."""
        while self.done < self.values["jobs"] and self.time + 1 <= until:
            self.time += 1
            finished = min(self.values["workers"], self.values["jobs"] - self.done)
            self.done += finished
            self.events.append({"time": self.time, "text": f"{finished} job(s) done"})
        return True

    def snapshot(self):
        jobs = [{"id": n + 1, "status": "done" if n < self.done else "queued", "attempts": int(n < self.done),
                 "lease_left": None} for n in range(self.values["jobs"])]
        waiting = self.values["jobs"] - self.done
        events, self.events = self.events, []
        outcome = (f"{waiting} jobs waiting for {self.values['workers']} worker(s)"
                   if waiting or not self.done else f"all {self.done} jobs done")
        return {"sim": self.NAME, "time": self.time, "jobs": jobs, "outcome": outcome,
                "events": events, "finished": not waiting}


class Broken(Counter):
    """A simulation whose snapshot is not JSON-able (a contract breach the build must catch)."""

    NAME = "broken"

    def snapshot(self):
        return {**super().snapshot(), "time": object()}


SIMULATIONS = {"counter": Counter, "broken": Broken}
