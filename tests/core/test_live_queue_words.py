"""The live queue's words for the reader's actions are sentences a reader would write, never the
Python call behind them: the time slider's marks said "stall worker 1 seconds 10 at 0.5 s" and
"supervisor set to True at 0 s", a refused Kill "worker: worker 1 is already dead" (the button's name, not the argument's)."""
import pytest

from simulations import ParamError
from simulations.engine.timeline_view import PageTimeline


def marks(line):
    return [mark["words"] for mark in line.snapshot()["travel"]["marks"]]


def test_the_marks_say_the_actions_as_their_buttons_and_fields_do():
    line = PageTimeline("live-queue", {"workers": 2, "jobs": 4, "lease": 5})
    line.act("set", param="supervisor", value=True)
    for _ in range(5):
        line.step()
    line.act("stall", worker=1, seconds=10)
    line.act("set", param="lease", value=2.0)
    line.act("kill", worker=2)
    line.act("burst", count=10)
    assert marks(line) == ["Restart dead workers turned on at 0 s",
                           "stall worker 1 for 10 s at 0.5 s",
                           "Lease (s) set to 2 at 0.5 s",
                           "kill worker 2 at 0.5 s",
                           "enqueue 10 jobs at 0.5 s"]


@pytest.mark.parametrize("act, words", [
    ("kill", "Kill: worker 1 is already dead."),
    ("restart", "Restart: worker 2 is not dead."),
])
def test_a_refused_action_says_why_in_a_sentence(act, words):
    line = PageTimeline("live-queue", {"workers": 2, "jobs": 4})
    line.step()
    line.act("kill", worker=1)
    with pytest.raises(ParamError) as refused:
        line.act(act, worker=1 if act == "kill" else 2)
    assert refused.value.words == words


def test_the_slider_writes_time_to_the_hundredth_as_the_clock_does():
    line = PageTimeline("payments", {"seed": 1})                   # ends at 14.1346 s
    while not line.sim.finished:
        line.step()
    travel = line.snapshot()["travel"]
    end = travel["end"]
    shown = str(round(end * 100) / 100).removesuffix(".0")          # dom.js seconds()
    assert round(end, 3) != round(end, 2)                           # a time with a thousandth
    assert travel["words"] == f"{shown} s, of {shown} s so far"
