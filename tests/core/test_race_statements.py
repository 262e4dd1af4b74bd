"""The race shows one version of each statement: the picture's list of a program's statements is
the workers' cards' statements cut short where "…" stands, never other SQL (the picture said
"SELECT id … LIMIT 1" beside a card's "SELECT id, args … ORDER BY id LIMIT 1")."""
import re

import pytest

from simulations import SIMULATIONS
from simulations.race.picture import PROGRAM_LINES


def pattern(line):
    """A picture's line as a pattern: "…" stands for anything, :id and :token for their values."""
    parts = re.split(r"(…|:id|:token)", " ".join(line.split()))
    wild = {"…": ".*", ":id": r"(:id|\d+)", ":token": r"(:token|\d+)"}
    return re.compile("".join(wild.get(part, re.escape(part)) for part in parts), re.S)


@pytest.mark.parametrize("mode", ["naive", "atomic"])
def test_each_statement_in_the_picture_is_the_cards_statement_cut_short(mode):
    sim = SIMULATIONS["race"]({"claim": mode})
    seen = {}
    for _ in range(40):
        for worker in sim.workers.values():
            said = sim.next_statement(worker)
            if said["kind"] == "sql":
                seen[worker.step] = " ".join(said["text"].split())
        if not sim.step():
            break
    for step, _, kind, line in PROGRAM_LINES[mode]:
        if kind == "sql":
            assert pattern(line).fullmatch(seen[step]), (line, seen[step])
