"""An embed shows the controls its chapter has taught. crash-timing's `level`
(simulations/crash_timing/levels.py) decides, in Python, which fields and which menu choices the form
shows; the run is the same at every level, and a level before the fencing token says no "token N".
Chapter 3's live queue (level "queue") tells its claims and refused acks without the token too."""
import pytest

from simulations import CrashTiming, LiveQueue, ParamError
from simulations.crash_timing.levels import LEVELS


def form(level):
    return CrashTiming({"level": level}).snapshot()["shown"]


def test_chapter_5s_first_embed_shows_only_where_worker_a_dies():
    shown = form("crash-points")
    assert {"fencing", "scenario", "batch", "enqueue", "fault", "token"} <= set(shown["hidden"])
    assert "policy" not in shown["hidden"]          # the menu the chapter names, with one choice
    assert shown["options"] == {"policy": ["ack-after-work"], "scenario": ["crash"]}


def test_each_level_adds_to_the_one_before_and_all_hides_nothing():
    before = form(LEVELS[0])
    for level in LEVELS[1:]:
        now = form(level)
        assert set(now["hidden"]) <= set(before["hidden"]), level
        for menu, choices in before["options"].items():
            assert set(choices) <= set(now["options"][menu]), (level, menu)
        before = now
    assert form("all")["hidden"] == []
    assert sorted(form("all")["options"]["policy"]) == sorted(CrashTiming.PARAMS[0]["choices"])
    assert not {"fencing", "scenario", "token"} & set(form("leases")["hidden"])
    assert form("acks")["options"]["policy"] == ["ack-after-work", "ack-before-work"]
    assert CrashTiming().params["level"] == "all"          # the casebook keeps everything


def test_a_bad_level_is_refused_with_the_levels_named():
    with pytest.raises(ParamError) as error:
        CrashTiming({"level": "chapter-5"})
    assert error.value.field == "level" and "crash-points" in str(error.value)


def run(params):
    sim = CrashTiming(params)
    while not sim.finished:
        sim.step()
    return sim.snapshot()


@pytest.mark.parametrize("level", LEVELS)
def test_the_run_is_the_same_at_every_level(level):
    # A setting the level keeps back (the fencing token, here) still runs as set, as a link sets it.
    params = {"scenario": "lease-too-short", "fencing": True, "policy": "ack-after-work"}
    mine, every = run({**params, "level": level}), run(params)
    assert (mine["verdict"], mine["outcome"]) == (every["verdict"], every["outcome"])
    assert "the token refused A's late finish" in mine["outcome"]
    assert [m["time"] for m in mine["timeline"]] == [m["time"] for m in every["timeline"]]


def test_the_log_says_token_only_once_the_chapter_has_taught_it():
    early = run({"level": "crash-points", "crash": "after-effect"})["timeline"]
    claims = [m["text"] for m in early if m["kind"] == "claim"]
    assert claims == ["A claims the job (attempt 1, lease until 5 s)",
                      "B claims the job again (attempt 2, lease until 10.5 s)"]
    later = run({"level": "leases", "crash": "after-effect"})["timeline"]
    assert "A claims the job (attempt 1, token 1, lease until 5 s)" in [m["text"] for m in later]


def test_chapter_3s_live_queue_says_no_token():
    def log(level):
        sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 1.0, "duration": 2.5, "level": level})
        sim.run(until=6.0)
        return [event["text"] for event in sim.snapshot()["events"]]
    chapter_3, chapter_5 = log("queue"), log("all")
    assert "worker 1 claimed job 1 (attempt 1)" in chapter_3
    assert not [text for text in chapter_3 if "token" in text], chapter_3
    assert "worker 1 claimed job 1 (attempt 1, token 1)" in chapter_5
    refused = [text for text in chapter_3 if "was refused" in text]
    assert refused and refused[0].endswith("was refused: its claim no longer holds it (the job was claimed again)")
    assert any("was refused: token 1 no longer holds it" in text for text in chapter_5)
