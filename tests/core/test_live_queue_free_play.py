"""live-queue's free-play level (`level: free`): the form keeps nothing back, so a reader can combine
controls from different levels (a deploy with a poison job, a library preset with a retry policy)
without writing a link; the run is the same as at any other level."""
from simulations import LiveQueue
from simulations.live_queue.levels import EVERY_EXTRA, LEVELS


def test_free_play_hides_nothing_and_every_other_level_hides_something():
    assert LiveQueue({"level": "free"}).snapshot()["hidden"] == []
    for level in LEVELS:
        if level != "free":
            assert LiveQueue({"level": level}).snapshot()["hidden"], level


def test_free_play_offers_every_workers_action_and_the_presets():
    sim = LiveQueue({"level": "free", "workers": 2, "jobs": 1})
    sim.run(until=0.5)
    snapshot = sim.snapshot()
    assert snapshot["workers"][0]["actions"] == ["kill", "stall", "drop_lock"]
    assert snapshot["presets"]["by"] == ["library", "what_if"]


def test_the_run_is_the_same_at_free_play_as_at_a_casebook_level():
    params = {"workers": 2, "jobs": 3, "lease": 5, "supervisor": True, "poison": "kills",
              "deploy_at": 4, "shutdown_grace": 0, "hand_back": True, "seed": 3}
    runs = []
    for level in ("free", "poison", "deploys"):
        sim = LiveQueue({**params, "level": level})
        while not sim.run(until=60):
            pass
        runs.append([event["text"] for event in sim.snapshot()["events"]])
    assert runs[0] == runs[1] == runs[2]
    assert set(EVERY_EXTRA) <= {spec["name"] for spec in LiveQueue.PARAMS} | {"drop_lock"}
