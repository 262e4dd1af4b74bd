"""Parameters: every simulation declares them the same way and refuses bad input clearly."""
import json
import math

import pytest

from simulations import SIMULATIONS, ParamError
from simulations.engine.params import validate

NUMBER_TYPES = {"int", "float"}


def test_the_registry_holds_the_agreed_names():
    assert list(SIMULATIONS) == ["live-queue", "race", "crash-timing", "payments"]
    for name, cls in SIMULATIONS.items():
        assert cls.NAME == name


@pytest.mark.parametrize("name", list(SIMULATIONS))
def test_params_are_well_formed_json(name):
    specs = SIMULATIONS[name].PARAMS
    json.dumps(specs, allow_nan=False)
    names = [spec["name"] for spec in specs]
    assert len(names) == len(set(names)) and "seed" in names
    for spec in specs:
        assert spec["type"] in {"int", "float", "choice", "bool"}
        assert spec["label"] and spec["help"].endswith(".")
        if spec["type"] in NUMBER_TYPES:
            assert spec["min"] <= spec["default"] <= spec["max"]
        if spec["type"] == "choice":
            assert spec["default"] in spec["choices"]
        if spec["type"] == "float" and "(s)" not in spec["label"]:
            assert spec["max"] <= 1 or "/s" in spec["label"], spec  # chances, or rates


def test_the_agreed_parameter_names_and_ranges():
    def spec(sim, name):
        return next(p for p in SIMULATIONS[sim].PARAMS if p["name"] == name)
    assert (spec("live-queue", "workers")["min"], spec("live-queue", "workers")["max"],
            spec("live-queue", "workers")["default"]) == (1, 64, 2)
    assert (spec("live-queue", "jobs")["max"], spec("live-queue", "jobs")["default"]) == (5000, 0)
    assert spec("live-queue", "lease")["label"] == "Lease (s)"
    assert spec("live-queue", "duration")["label"] == "Job duration (s)"
    assert (spec("live-queue", "crash")["min"], spec("live-queue", "crash")["max"]) == (0, 1)
    assert spec("race", "claim")["choices"] == ["naive", "atomic"]
    assert (spec("race", "jobs")["min"], spec("race", "jobs")["max"]) == (1, 5)
    assert spec("crash-timing", "policy")["choices"] == [
        "ack-after-work", "ack-before-work", "one-transaction", "idempotency-key", "auto-commit"]
    assert spec("crash-timing", "scenario")["choices"] == ["crash", "lease-too-short", "producer"]
    assert spec("crash-timing", "fencing")["type"] == "bool"
    assert "none" in spec("crash-timing", "crash")["choices"]
    assert (spec("payments", "charges")["max"], spec("payments", "charges")["default"]) == (1000, 5)
    assert spec("payments", "key")["choices"] == ["none", "stable", "per-attempt",
                                                  "rotate-after-decline"]
    assert (spec("payments", "decline")["default"], spec("payments", "decline")["max"]) == (0.0, 1.0)
    assert (spec("payments", "max_attempts")["max"], spec("payments", "max_attempts")["default"]) == (20, 6)
    for name in ("lose_request", "lose_reply"):
        assert spec("payments", name)["default"] == 0.3


@pytest.mark.parametrize("name", list(SIMULATIONS))
def test_defaults_build_and_snapshot(name):
    snap = SIMULATIONS[name]().snapshot()
    json.dumps(snap, allow_nan=False)
    for key in ("sim", "time", "jobs", "outcome", "events", "finished"):
        assert key in snap
    for row in snap["jobs"]:
        assert {"id", "status", "attempts", "lease_left"} <= set(row)
        assert row["status"] in ("queued", "running", "done", "dead")


@pytest.mark.parametrize("sim, params, field, words", [
    ("live-queue", {"lease": -1}, "lease", "from 0.5 to 86400"),
    ("live-queue", {"workers": 0}, "workers", "from 1 to 64"),
    ("live-queue", {"workers": 65}, "workers", "from 1 to 64"),
    ("live-queue", {"jobs": 5001}, "jobs", "from 0 to 5,000"),
    ("live-queue", {"crash": 1.01}, "crash", "from 0 to 1"),
    ("live-queue", {"duration": "slow"}, "duration", "must be a number"),
    ("live-queue", {"workers": 2.5}, "workers", "a whole number"),
    ("live-queue", {"workers": True}, "workers", "a whole number"),
    ("live-queue", {"lease": "nan"}, "lease", "must be a number"),
    ("live-queue", {"lease": float("inf")}, "lease", "must be a number"),
    ("live-queue", {"lease": None}, "lease", "must be a number"),
    ("live-queue", {"supervisor": "maybe"}, "supervisor", "true or false"),
    ("live-queue", {"wokers": 2}, "wokers", "unknown parameter"),
    ("race", {"claim": "careful"}, "claim", "one of naive, atomic"),
    ("race", {"jobs": 6}, "jobs", "from 1 to 5"),
    ("crash-timing", {"crash": "before-lunch"}, "crash", "one of none, after-claim"),
    ("payments", {"lose_reply": -0.1}, "lose_reply", "from 0 to 1"),
    ("payments", {"seed": -1}, "seed", "from 0 to"),
])
def test_bad_values_name_the_field_and_the_allowed_range(sim, params, field, words):
    with pytest.raises(ParamError) as caught:
        SIMULATIONS[sim](params)
    assert caught.value.field == field
    assert words in str(caught.value) and str(caught.value).startswith(f"{field}: ")


def test_values_may_arrive_as_strings():
    sim = SIMULATIONS["live-queue"]({"workers": "3", "jobs": " 4 ", "lease": "2.5",
                                     "crash": "0", "supervisor": "true", "seed": "12"})
    casebook = {"heartbeat": 0.0, "grace": 1.0, "duration_max": 0.0, "deploy_at": 0.0,
                "shutdown_grace": 0.0, "hand_back": False, "poison": "healthy", "max_attempts": 5,
                "cap_counts": "claims", "service_capacity": 0, "backoff_base": 1.0,
                "backoff_cap": 300.0, "jitter": True,   # the casebook's controls, at their defaults
                "ack": "late", "eta": 0.0, "eta_wait": "broker", "lost_claim": "stop",
                "orphan": "lease", "max_depth": 0, "library": "none", "what_if": False}
    assert sim.params == {"workers": 3, "jobs": 4, "lease": 2.5, "duration": 2.0, "crash": 0.0,
                          "rate": 0.0, "supervisor": True, "level": "all", "seed": 12, **casebook}
    assert SIMULATIONS["live-queue"]({"workers": 4.0}).params["workers"] == 4


def test_the_seed_comes_from_params_or_the_argument():
    cls = SIMULATIONS["race"]
    assert cls(seed=5).seed == 5
    assert cls({"seed": 8}, seed=5).seed == 8
    with pytest.raises(ParamError, match="seed"):
        cls(seed="x")


def test_params_must_be_a_mapping():
    with pytest.raises(ParamError) as caught:
        SIMULATIONS["race"](["claim", "naive"])
    assert caught.value.field == "params"
    assert validate(SIMULATIONS["race"].PARAMS, None)["claim"] == "naive"


def test_run_wants_a_number():
    with pytest.raises(ParamError, match="until"):
        SIMULATIONS["race"]().run(until="later")
    assert math.isfinite(SIMULATIONS["payments"]().next_time())


def test_help_texts_name_choices_as_the_page_shows_them():
    """A help text that names a choice by its value ("naive: look with
    SELECT") where the menu shows its label ("Naive: look, then grab") is refused when the
    simulation's class is made, so no simulation can ship one."""
    from simulations.engine.params import check_help, choice, seed_param
    from simulations.engine.simulation import Simulation
    for cls in SIMULATIONS.values():
        check_help(cls.PARAMS)
    menu = choice("claim", "Claim", "naive", ("naive", "atomic"), "naive: look, then grab.",
                  {"naive": "Naive", "atomic": "Atomic: one statement"})
    with pytest.raises(ValueError, match="claim's help names the choice 'naive'"):
        check_help((menu,))
    word = dict(menu, help="Only with the atomic claim.")   # a word its own label holds: fine
    check_help((word,))
    hidden = choice("scenario", "Scenario", "crash", ("crash", "lease-too-short"), "Which scene.",
                    {"crash": "Worker A crashes", "lease-too-short": "Lease too short"})
    with pytest.raises(ValueError, match="lease-too-short"):
        check_help((hidden, dict(seed_param(), help="Used in lease-too-short only.")))
    with pytest.raises(ValueError, match="help names the choice"):
        type("Bad", (Simulation,), {"PARAMS": (menu,)})
