"""crash-timing's picture keys (issue 22, simulations/crash_timing_picture.py): where each crash
point stands on A's lane is where A really dies when that point is chosen; each attempt's work
runs from its claim to its end (past the lease when the lease is too short); the marks name the
effect."""
import pytest

from simulations import CrashTiming
from simulations.crash_timing import LEASE, POLICIES


def finish(params):
    sim = CrashTiming(params)
    while sim.step():
        pass
    return sim.snapshot()


SETTINGS = [{"policy": policy} for policy in POLICIES] + [
    {"policy": "auto-commit"}, {"policy": "ack-after-work", "batch": 20, "marker": True}]


@pytest.mark.parametrize("settings", SETTINGS)
def test_each_stop_on_as_lane_is_where_a_dies_there(settings):
    start = CrashTiming(settings).snapshot()
    stops = start["dies_at"]
    assert [stop["point"] for stop in stops] == [p["name"] for p in start["points"]]
    for stop in stops:
        run = finish({**settings, "crash": stop["point"]})
        died = [m["time"] for m in run["timeline"] if m["kind"] == "crash" and m["worker"] == "A"]
        assert died == [stop["time"]], (stop, died)
    assert [s["time"] for s in stops] == sorted(s["time"] for s in stops)


def test_a_lease_too_short_has_work_going_on_past_it_and_no_crash_points():
    run = finish({"scenario": "lease-too-short"})
    assert run["dies_at"] == []
    a, b = run["work"]
    assert a["worker"] == "A" and a["start"] == 0.0 and a["end"] > a["start"] + LEASE["lease-too-short"]
    assert b["worker"] == "B" and b["start"] < b["end"] <= b["start"] + LEASE["lease-too-short"]


def test_work_still_going_has_no_end_and_a_death_ends_it():
    sim = CrashTiming({"crash": "after-effect"})
    sim.step()   # A claims
    assert sim.snapshot()["work"] == [{"worker": "A", "start": 0.0, "end": None}]
    run = finish({"crash": "after-effect"})
    assert run["work"][0]["end"] == [m["time"] for m in run["timeline"] if m["kind"] == "crash"][0]


def test_the_marks_name_the_effect():
    assert finish({"policy": "ack-after-work"})["marks"]["A"]["effect"] == "sends the email"
    marks = finish({"policy": "one-transaction"})["marks"]["B"]
    assert (marks["effect"], marks["ack"]) == ("adds 10 points", "commits")
    assert "effect" not in set(marks.values())
    assert finish({"batch": 50})["marks"]["A"]["effect"] == "sends emails"
    producer = finish({"scenario": "producer"})["marks"]
    assert (producer["A"]["effect"], producer["B"]["effect"]) == ("writes", "sends the email")
