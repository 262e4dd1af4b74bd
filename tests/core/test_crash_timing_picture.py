"""crash-timing's picture keys (simulations/crash_timing/picture.py): where each crash
point stands on A's lane is where A really dies when that point is chosen; each attempt's work
runs from its claim to its end (past the lease when the lease is too short); the marks name the
effect."""
import pytest

from simulations import CrashTiming
from simulations.crash_timing.model import LEASE, POLICIES


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


def test_the_work_ends_at_its_last_step_not_after_the_pause_that_follows():
    assert finish({"crash": "none"})["work"] == [{"worker": "A", "start": 0.0, "end": 1.5}]   # the ack
    assert finish({"crash": "after-ack"})["work"][0]["end"] == 1.5     # died after the ack: the ack
    assert finish({"policy": "ack-before-work", "crash": "none"})["work"][0]["end"] == 1.5   # the email
    sim = CrashTiming({"crash": "none"})
    while not any(m["kind"] == "ack" for m in sim.snapshot()["timeline"]):
        sim.step()
    sim.clock.now += 0.3   # in the pause after the ack, before the attempt is over
    assert sim.snapshot()["work"][0]["end"] == 1.5


@pytest.mark.parametrize("params, worker, label", [
    ({"crash": "after-effect"}, "B", "2nd email: duplicate"),
    ({"scenario": "lease-too-short"}, "A", "2nd email: duplicate"),   # A's late email is the 2nd
    ({"batch": 5}, "B", "5 duplicate emails"),
    ({"policy": "one-transaction", "scenario": "lease-too-short", "fencing": False}, "A",
     "2nd commit: duplicate"),
])
def test_an_effect_that_repeats_one_is_marked_duplicate(params, worker, label):
    run = finish(params)
    assert run["result"] == "duplicated"
    [dup] = run["duplicates"]
    moment = run["timeline"][dup["index"]]
    assert (moment["worker"], moment["kind"], dup["label"]) == (worker, "effect" if "policy" not in params else "ack", label)
    assert "duplicate" in dup["alt"]


@pytest.mark.parametrize("params", [{"crash": "none"}, {"policy": "idempotency-key"},
                                    {"batch": 5, "marker": True}, {"scenario": "producer"}])
def test_no_duplicate_marks_when_nothing_repeats(params):
    assert finish(params)["duplicates"] == []


@pytest.mark.parametrize("params, words", [
    ({}, "Both lanes are job 1 (ada): her welcome email"),
    ({"scenario": "lease-too-short"}, "Both lanes are job 1 (ada): her welcome email"),
    ({"policy": "one-transaction"}, "Both lanes are job 1 (ada): 10 loyalty points for Ada"),
    ({"batch": 50}, "Both lanes are job 1: a batch of 50 welcome emails"),
    ({"scenario": "producer"}, "Job 1 (ada): her welcome email, enqueued by A, the web request"),
])
def test_the_lanes_name_their_job(params, words):
    """Shots 11-13: no job id anywhere in the picture, so "which job?" had no answer."""
    run = finish(params)
    assert run["job_words"] == words
    claimed = {m["worker"] for m in run["timeline"] if m["kind"] == "claim"}
    assert claimed and all(run["marks"][who]["claim"] == "claims job 1" for who in claimed)


def test_before_the_web_request_enqueues_there_is_no_job_to_name():
    start = CrashTiming({"scenario": "producer"}).snapshot()
    assert start["job_words"] == "No job yet: A, the web request, has not enqueued Ada's email"
