"""docs/simulations.md lists each simulation's parameters in a table written from its PARAMS
(between `<!-- params: NAME -->` and `<!-- /params -->`), never typed: this test fails when the
page and PARAMS differ, and `UPDATE_DOCS=1 python -m pytest tests/core/test_docs_params.py`
writes the tables anew (read the diff)."""
import os
import re
from pathlib import Path

from simulations import SIMULATIONS
from simulations.engine.params import show_number

DOC = Path(__file__).resolve().parents[2] / "docs" / "simulations.md"
BLOCK = re.compile(r"(<!-- params: ([\w-]+) -->\n).*?(<!-- /params -->)", re.S)


def shown(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return show_number(value) if isinstance(value, float) else f"{value:,}"
    return f"`{value}`"


def values(spec):
    """What the parameter takes: a range, the choices (with the form's words), or true/false."""
    if spec["type"] in ("int", "float"):
        return f"{shown(spec['min'])}–{shown(spec['max'])}"
    if spec["type"] == "bool":
        return "true, false"
    labels = spec.get("labels", {})
    return ", ".join(f"`{c}`" + (f" ({labels[c]})" if labels.get(c, c) != c else "")
                     for c in spec["choices"])


def table(name):
    """The Markdown table of SIMULATIONS[name].PARAMS, in PARAMS order."""
    rows = ["| name | label | takes | default | live | what it does |",
            "| --- | --- | --- | --- | --- | --- |"]
    for spec in SIMULATIONS[name].PARAMS:
        rows.append(f"| `{spec['name']}` | {spec['label']} | {values(spec)} | "
                    f"{shown(spec['default'])} | {'yes' if spec.get('live') else ''} | "
                    f"{spec['help'].replace('|', '/')} |")
    return "\n".join(rows) + "\n"


def written(text):
    return BLOCK.sub(lambda m: m[1] + table(m[2]) + m[3], text)


def test_every_simulation_has_its_parameter_table_written_from_params():
    text = DOC.read_text(encoding="utf-8")
    if os.environ.get("UPDATE_DOCS"):
        DOC.write_text(written(text), encoding="utf-8")
        text = DOC.read_text(encoding="utf-8")
    named = [m[2] for m in BLOCK.finditer(text)]
    assert sorted(named) == sorted(n for n in ("live-queue", "race", "crash-timing", "payments")), named
    assert text == written(text), "docs/simulations.md's parameter tables differ from PARAMS: " \
                                  "run with UPDATE_DOCS=1 and read the diff"
