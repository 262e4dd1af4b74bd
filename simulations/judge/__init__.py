"""The judge: the reader's own code run under the chaos monkey and audited (exercises.py), one
runner per exercise (shop.py, race.py, payments.py), inside a guard for honest mistakes
(sandbox.py)."""
from .exercises import EXERCISES, RUNNERS, judge

__all__ = ["EXERCISES", "RUNNERS", "judge"]
