"""Golden traces: fixed scenarios and seeds, their whole event log and final state, compared
with files in tests/core/golden/. A change of behaviour shows up as a diff to read.

To accept a deliberate change: UPDATE_GOLDEN=1 python -m pytest tests/core/test_golden.py
and read the diff of tests/core/golden/ before committing it.
"""
import os
from pathlib import Path

import pytest

from .golden_scenarios import SCENARIOS, trace

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_golden_trace(name):
    path = GOLDEN / f"{name}.txt"
    got = trace(name)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1 to write it"
    assert got == path.read_text(encoding="utf-8")


def test_no_stray_golden_files():
    assert {path.stem for path in GOLDEN.glob("*.txt")} == set(SCENARIOS)
