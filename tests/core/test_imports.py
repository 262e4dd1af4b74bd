"""What the page's Python imports before a widget's first frame: only what that widget needs.

The page compiles every module it imports from source (Pyodide ships no bytecode for ours, nor
for most of the standard library), so each module imported before the first reply is time a
reader waits after pressing Start (bench/bench_widgets.py, `ready`). Each test runs in a fresh
interpreter, the way the page starts.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRST_CALLS = {
    "live-queue": {"workers": 3, "jobs": 6, "lease": 5, "duration": 2},
    "race": {},
    "crash-timing": {},
    "payments": {},
}
MODULES = {   # each simulation's own module (what another simulation must not pull in)
    "live-queue": "simulations.live_queue", "race": "simulations.race",
    "crash-timing": "simulations.crash_timing", "payments": "simulations.payments",
}


def loaded_after(code: str) -> set[str]:
    """The modules a fresh Python holds after `code` (which has `handle` imported from the bridge)."""
    program = ("import sys, json\nfrom simulations.bridge import handle, warm\n" + code +
               "\nprint(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize("name", list(FIRST_CALLS))
def test_a_widgets_first_reply_imports_its_simulation_and_no_other(name):
    message = json.dumps({"op": "create", "id": "w", "sim": name, "params": FIRST_CALLS[name]})
    loaded = loaded_after(f"reply = json.loads(handle({message!r}))\nassert reply['ok'], reply")
    assert MODULES[name] in loaded
    assert loaded.isdisjoint(module for other, module in MODULES.items() if other != name)
    # nor the machinery of later moves: checkpoints (pickle), the judge
    assert loaded.isdisjoint({"simulations.engine.checkpoint", "pickle", "simulations.judge"})


def test_importing_the_bridge_imports_no_simulation():
    loaded = loaded_after("")
    assert loaded.isdisjoint(MODULES.values())
    assert "simulations.engine.checkpoint" not in loaded and "traceback" not in loaded


def test_warm_imports_ahead_what_the_page_will_need():
    loaded = loaded_after("for name in ('checkpoint', 'crash-timing', 'judge', 'no-such-thing'):\n"
                          "    warm(name)")
    assert {"simulations.engine.checkpoint", "simulations.crash_timing", "simulations.judge"} <= loaded
    assert "simulations.race" in loaded   # the judge's race exercise uses it
    assert "simulations.payments" not in loaded


def test_the_registry_gives_each_name_its_class_and_the_package_its_names():
    import simulations
    from simulations import SIMULATIONS

    assert list(SIMULATIONS) == list(MODULES) and len(SIMULATIONS) == 4
    for name, cls in SIMULATIONS.items():
        assert cls.NAME == name and cls.__module__ == f"{MODULES[name]}.model"
        assert getattr(simulations, cls.__name__) is cls
    with pytest.raises(KeyError):
        SIMULATIONS["no-such-simulation"]
    with pytest.raises(AttributeError):
        simulations.NoSuchSimulation


def test_the_top_level_holds_at_most_a_dozen_modules():
    """simulations/ is packages (engine/, judge/, one per simulation): what lands beside
    __init__.py and bridge.py belongs in one of them."""
    top = sorted(p.name for p in (ROOT / "simulations").glob("*.py"))
    packages = sorted(p.name for p in (ROOT / "simulations").iterdir() if (p / "__init__.py").is_file())
    assert len(top) <= 12, top
    assert {"engine", "judge", "live_queue", "race", "crash_timing", "payments"} <= set(packages), packages
