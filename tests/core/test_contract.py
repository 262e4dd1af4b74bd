"""One contract, every implementation: the build's test double and each real simulation.

What the build and the page rely on (docs/simulations.md): a NAME the registry files it under,
PARAMS the page can draw a form from, values checked by simulations/engine/params.py, a bad value
refused with a ParamError that names its field and lists every problem, a JSON-able snapshot
with the keys the build reads, the same run for the same seed, and a run() that returns after a
bounded number of steps. Like huey's storage tests, the tests are written once and run against
every implementation; the last test shows the suite can fail.
"""
import json

import pytest

from builder.markdown.sim import SNAPSHOT_KEYS
from simulations import SIMULATIONS
from simulations.engine.params import ParamError, convert, validate
from tests.build import fake_simulations
from tests.support.capstone import tinyq

IMPLEMENTATIONS = {"fake counter": fake_simulations.Counter,
                   **{f"real {name}": cls for name, cls in SIMULATIONS.items()}}
REGISTRIES = {fake_simulations.Counter: fake_simulations.SIMULATIONS,
              **{cls: SIMULATIONS for cls in SIMULATIONS.values()}}
SPEC_KEYS = {"name", "label", "type", "default", "help"}
KIND_KEYS = {"int": {"min", "max"}, "float": {"min", "max"}, "choice": {"choices", "labels"}, "bool": set()}
RUN_FOR = 30.0   # seconds of virtual time two runs of one seed are compared over


def bad_value(spec):
    """A value `spec` must refuse."""
    if spec["type"] in ("int", "float"):
        return spec["max"] + 1
    return "no-such-choice" if spec["type"] == "choice" else "maybe"


def check_snapshot(cls):
    """The starting snapshot is what the build and the page read: JSON, the build's keys, job rows."""
    snapshot = cls().snapshot()
    json.dumps(snapshot, allow_nan=False)
    assert set(SNAPSHOT_KEYS) <= set(snapshot), f"missing {set(SNAPSHOT_KEYS) - set(snapshot)}"
    assert snapshot["sim"] == cls.NAME and isinstance(snapshot["finished"], bool)
    assert isinstance(snapshot["outcome"], str) and isinstance(snapshot["events"], list)
    for row in snapshot["jobs"]:
        assert {"id", "status", "attempts", "lease_left"} <= set(row)
        assert row["status"] in tinyq.STATES


@pytest.fixture(params=list(IMPLEMENTATIONS.values()), ids=list(IMPLEMENTATIONS))
def cls(request):
    return request.param


class TestSimulationContract:
    def test_its_registry_files_it_under_its_name(self, cls):
        assert isinstance(cls.NAME, str) and cls.NAME
        assert REGISTRIES[cls][cls.NAME] is cls

    def test_params_are_json_specs_params_py_accepts(self, cls):
        json.dumps(cls.PARAMS, allow_nan=False)
        names = [spec["name"] for spec in cls.PARAMS]
        assert len(names) == len(set(names)) and "seed" in names
        for spec in cls.PARAMS:
            assert SPEC_KEYS | KIND_KEYS[spec["type"]] <= set(spec), spec
            assert convert(spec, spec["default"]) == spec["default"], spec
            if spec["type"] == "choice":
                assert set(spec["labels"]) == set(spec["choices"]), spec

    def test_it_keeps_the_values_validate_returns(self, cls):
        defaults = validate(cls.PARAMS, {})
        assert defaults == {spec["name"]: spec["default"] for spec in cls.PARAMS}
        assert cls().params == defaults
        given = {spec["name"]: json.dumps(spec["default"]).strip('"') for spec in cls.PARAMS}   # as a URL sends them
        assert cls(given).params == defaults

    def test_the_starting_snapshot_holds_what_the_build_reads(self, cls):
        check_snapshot(cls)

    @pytest.mark.parametrize("which", [0, -1], ids=["first param", "last param"])
    def test_a_bad_value_is_a_param_error_naming_its_field(self, cls, which):
        spec = cls.PARAMS[which]
        with pytest.raises(ParamError) as caught:
            cls({spec["name"]: bad_value(spec)})
        error = caught.value
        assert error.field == spec["name"] and str(error).startswith(f"{spec['name']}: ")
        assert error.problems == [error]

    def test_every_problem_is_listed_at_once(self, cls):
        bad = {spec["name"]: bad_value(spec) for spec in cls.PARAMS}
        with pytest.raises(ParamError) as caught:
            cls({"no_such_knob": 1, **bad})
        error = caught.value
        assert [problem.field for problem in error.problems] == ["no_such_knob", *bad]
        assert error.problems[0] is error

    def test_one_seed_gives_one_run(self, cls):
        def run(seed):
            sim = cls(seed=seed)
            sim.run(until=RUN_FOR)
            return sim.snapshot()
        assert run(3) == run(3)

    def test_one_run_call_takes_a_bounded_number_of_steps(self, cls):
        sim = cls()
        steps, step = [], sim.step
        sim.step = lambda: steps.append(1) or step()
        sim.run(until=10**9)
        assert len(steps) <= cls.MAX_RUN_STEPS
        with pytest.raises(ParamError) as caught:
            sim.run(until="later")
        assert caught.value.field == "until"


def test_the_suite_catches_a_double_that_breaks_the_contract():
    with pytest.raises(TypeError, match="not JSON serializable"):
        check_snapshot(fake_simulations.Broken)
