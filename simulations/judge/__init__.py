"""The judge: the reader's own code, run in a worker of its own (reader.py) against a world that
records the effects it asks for (effects.py); the judge replays them in its own world (replay.py)
and audits that (exercises.py), one recorder per exercise (shop.py, race.py, payments.py). The
static check in sandbox.py catches honest mistakes; it is not the boundary."""
from .exercises import EXERCISES, RECORDERS, judge, verdict

__all__ = ["EXERCISES", "RECORDERS", "judge", "verdict"]
