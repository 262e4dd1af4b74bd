"""Every "What you should see" transcript in the guide is real output of the code it describes."""
import re
from pathlib import Path

import pytest

from tests.transcripts import harness

TRANSCRIPTS = harness.find_all()
REPLAYED = sorted(t.id for t in TRANSCRIPTS.values() if not t.manual)
MANUAL = sorted(t.id for t in TRANSCRIPTS.values() if t.manual)


@pytest.mark.parametrize("ident", REPLAYED)
def test_transcript_replays(ident):
    harness.replay(ident)


def test_every_manual_transcript_is_checked_by_a_test():
    here = Path(__file__).parent
    # Transcripts that need a PostgreSQL server (exercise 9) are compared in tests/postgres/.
    files = [*here.glob("test_*.py"), *here.parent.joinpath("postgres").glob("test_*.py")]
    sources = "\n".join(p.read_text(encoding="utf-8") for p in files
                        if p.name != Path(__file__).name)
    unchecked = [i for i in MANUAL if not re.search(r"assert_matches\(\s*[\"']" + re.escape(i), sources)]
    assert not unchecked, f"transcripts with run=manual that no test compares: {unchecked}"


def test_every_after_names_a_transcript():
    missing = [(t.where, a) for t in TRANSCRIPTS.values() for a in t.after if a not in TRANSCRIPTS]
    assert not missing
