"""The simulations in the runtime the page uses: Pyodide (from node_modules), run under Node.

The golden traces computed there must equal the files CPython is checked against: the same
seed gives the same run in the reader's browser as in the test suite. Skipped, with the
reason, where Node or the pyodide package is not installed.
"""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .golden_scenarios import SCENARIOS

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("pyodide_run.mjs")
GOLDEN = Path(__file__).with_name("golden")

PROGRAM = """
import json, sys, sqlite3
import tinyq
from simulations.bridge import handle
sys.path.insert(0, "/app/core_tests")
import golden_scenarios
traces = {name: golden_scenarios.trace(name) for name in golden_scenarios.SCENARIOS}
reply = json.loads(handle(json.dumps({"op": "create", "id": "w", "sim": "race"})))
print(json.dumps({"python": sys.version.split()[0], "sqlite": sqlite3.sqlite_version,
                  "tinyq": tinyq.__file__, "bridge_ok": reply["ok"], "traces": traces}))
"""


def run_in_pyodide(tmp_path, program):
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        pytest.skip("needs node and node_modules/pyodide (npm ci)")
    script = tmp_path / "program.py"
    script.write_text(program)
    done = subprocess.run([node, str(RUNNER), str(ROOT), str(script)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_golden_traces_are_the_same_in_pyodide(tmp_path):
    # golden_scenarios imports "from simulations import ..." as a plain module there
    result = run_in_pyodide(tmp_path, PROGRAM)
    assert result["tinyq"] == "/app/tinyq.py"  # found beside the package, as in the page
    assert result["bridge_ok"]
    assert set(result["traces"]) == set(SCENARIOS)
    for name, text in result["traces"].items():
        assert text == (GOLDEN / f"{name}.txt").read_text(encoding="utf-8"), name
