"""live-queue: the snapshot's "presets" tells the page's form which settings a library preset (or
its what-if) decides, so that picking one leaves them to it (theme/js/sims/fields.js,
paramsAfter); the browser side: tests/widgets/test_live_queue_new_controls.py."""
from simulations import LiveQueue
from simulations.live_queue.libraries import LIBRARIES


def test_the_snapshot_names_every_setting_a_preset_or_what_if_sets_where_the_form_shows_it():
    presets = LiveQueue({"level": "library"}).snapshot()["presets"]
    assert presets["by"] == ["library", "what_if"]
    for library in LIBRARIES.values():
        assert set(library["sets"]) | set(library["what_if"][1]) <= set(presets["sets"])
    assert "workers" not in presets["sets"] and "jobs" not in presets["sets"]


def test_no_presets_where_the_level_keeps_the_library_back():
    for level in ("queue", "all", "poison"):
        assert "presets" not in LiveQueue({"level": level}).snapshot()


def test_what_the_form_sends_after_a_pick_gets_the_presets_values():
    # the form sends every other field (here: the defaults shown) without the preset's settings
    shown = {spec["name"]: spec["default"] for spec in LiveQueue.PARAMS}
    presets = LiveQueue({"level": "library"}).snapshot()["presets"]
    sent = {k: v for k, v in shown.items() if k not in presets["sets"]}
    sim = LiveQueue({**sent, "level": "library", "library": "sidekiq-basic"})
    assert sim.params["ack"] == "early" and sim.params["max_attempts"] == 26
    sim = LiveQueue({**sent, "level": "library", "library": "sidekiq-basic", "what_if": True})
    assert sim.params["ack"] == "late"
    kept = LiveQueue({**shown, "level": "library", "library": "sidekiq-basic"})   # everything sent
    assert kept.params["ack"] == "late"   # why the form must leave them out
