"""Two runs side by side (simulations/engine/compare.py): a kept run outlives every change to the
live one (a setting, Reset, an action at another moment), is shown at the live run's moment, and
the first difference between the two is said in Python's words."""
from simulations.engine.compare import differ

from tests.support.bridge_calls import call, fresh_bridge  # noqa: F401 (an autouse fixture)

from simulations.race.model import Race


def run_to_end(sim_id):
    for _ in range(100):
        reply = call(op="step", id=sim_id, count=200)
        if reply["snapshot"]["finished"]:
            return reply["snapshot"]
    raise AssertionError("the run did not end")


def compared(sim_id):
    reply = call(op="compare", id=sim_id, on=True)
    assert reply["ok"], reply
    return reply["snapshot"]


def test_the_race_naive_against_atomic_is_named_in_the_claims_words():
    call(op="create", id="r", sim="race", params={"claim": "naive"}, seed=0)
    kept_end = run_to_end("r")
    call(op="keep", id="r")
    assert call(op="create", id="r", sim="race", params={"claim": "atomic"})["snapshot"]["travel"]["kept"]
    live = compared("r")
    shown = live["compare"]
    assert shown["kept_about"] == "Claim: Naive: look, then grab"
    assert shown["live_about"] == "Claim: Atomic: one statement"
    assert shown["differ"] == ("They part at 1 statement: in the kept run, B looked: job 1 is queued; "
                               "in this run, B claimed job 1 (token 1).")
    # the atomic run was played on as far as it goes (it is over sooner); a finished run's
    # picture stands still, so the kept one is shown at its own end
    assert live["finished"] and shown["moment"] == live["travel"]["words"].split(",")[0] == "8 statements"
    assert shown["kept"]["time"] == kept_end["time"] and shown["kept_moment"] == "14 statements"
    step_back = call(op="back", id="r")["snapshot"]["compare"]   # an earlier moment: both there
    assert step_back["moment"] == step_back["kept_moment"] == "7 statements"
    assert shown["kept"]["events"] == [] and "travel" not in shown["kept"]


def test_payments_no_key_against_a_stable_key():
    call(op="create", id="p", sim="payments", params={"key": "none", "charges": 5}, seed=0)
    run_to_end("p")
    call(op="keep", id="p")
    call(op="create", id="p", sim="payments", params={"key": "stable", "charges": 5}, seed=0)
    live = compared("p")
    shown = live["compare"]
    assert shown["kept_about"] == "Idempotency key: No key"
    assert shown["live_about"] == "Idempotency key: Stable: one key per order"
    assert "in the kept run, " in shown["differ"] and "the bank had seen the key" in shown["differ"]
    assert "too much" in shown["kept"]["outcome"] and "exactly" in live["outcome"]


def test_a_crash_point_then_reset_keeps_the_kept_run_and_the_words_follow_the_moment():
    call(op="create", id="c", sim="crash-timing", params={"crash": "after-effect"})
    run_to_end("c")
    call(op="keep", id="c")
    call(op="create", id="c", sim="crash-timing", params={"crash": "after-claim"})
    run_to_end("c")
    shown = compared("c")["compare"]
    assert shown["kept_about"] == "Crash point: After the effect"
    assert shown["differ"].startswith("They part at 0.25 s: in the kept run, at 1 s, A sends")
    assert "in this run, at 0.25 s, A dies" in shown["differ"]
    # Reset: a new run of the same settings, still compared, both at its start
    reset = call(op="act", id="c", name="reset", args={})["snapshot"]
    assert reset["compare"]["moment"] == "0 s" and reset["compare"]["kept"]["time"] == 0
    assert reset["travel"]["comparing"]
    # stop comparing: no second picture, the run is still kept
    stopped = call(op="compare", id="c", on=False)["snapshot"]
    assert "compare" not in stopped and stopped["travel"]["kept"] and not stopped["travel"]["comparing"]
    call(op="destroy", id="c")
    call(op="create", id="c", sim="crash-timing")
    assert call(op="compare", id="c")["error"]["field"] == "compare"   # gone with its widget


def test_a_kill_at_another_moment_names_the_actions_and_where_they_part():
    call(op="create", id="q", sim="live-queue", params={"jobs": 3}, seed=2)
    call(op="run", id="q", until=1)
    call(op="act", id="q", name="kill", args={"worker": 1})
    call(op="run", id="q", until=4)
    call(op="keep", id="q")
    call(op="seek", id="q", time=0.5)
    call(op="act", id="q", name="kill", args={"worker": 1})
    call(op="run", id="q", until=4)
    shown = compared("q")["compare"]
    assert shown["kept_about"] == "kill worker 1 at 1 s"
    assert shown["live_about"] == "kill worker 1 at 0.5 s"
    assert shown["differ"].startswith("They part at 0.5 s: ")


def test_the_same_run_kept_and_shown_says_nothing_differs():
    call(op="create", id="s", sim="race", seed=3)
    call(op="step", id="s", count=6)
    call(op="keep", id="s")
    shown = compared("s")["compare"]
    assert shown["kept_about"] == shown["live_about"] == "the same settings and actions"
    assert shown["differ"] == "Nothing differs in what happened, as far as both runs go."


def test_a_run_that_stops_earlier_has_not_parted_yet():
    kept, live = [(0.0, "A claims job 1")], [(0.0, "A claims job 1"), (2.0, "A acks job 1")]
    assert differ(Race, kept, live, (0.0, 2.0)) == ("The same events as far as the kept run goes "
                                                    "(to 0 statements); this run goes on: at 2 "
                                                    "statements, A acks job 1.", False)
    assert differ(Race, live, kept, (2.0, 2.0)) == ("They part at 2 statements: in the kept run, A acks "
                                                    "job 1; in this run, nothing happens then.", False)
    assert differ(Race, live, [(0.0, "A claims job 1"), (2.0, "B acks job 1")], (2.0, 2.0)) == (
        "They part at 2 statements: in the kept run, A acks job 1; in this run, B acks job 1.", True)


def test_a_pair_kept_at_its_start_plays_on_beside_the_incident():
    """A casebook pair (docs/authoring.md, `compare:`): the fix kept at its start, the incident
    live; the fix is played on to whatever moment the incident shows, under the pair's names."""
    call(op="create", id="k", sim="crash-timing", params={"policy": "ack-after-work", "crash": "after-claim"})
    call(op="keep", id="k", **{"as": "fix"})
    call(op="create", id="k", sim="crash-timing", params={"policy": "ack-before-work", "crash": "after-ack"})
    start = compared("k")["compare"]
    assert (start["kept_name"], start["live_name"]) == ("The fix", "The incident")
    assert start["kept"]["time"] == 0
    end = run_to_end("k")
    assert end["compare"]["differ"].startswith("They part at 0.25 s: in the fix, at 0.25 s, A dies")
    assert "in the incident, at 0.5 s, A acks" in end["compare"]["differ"]
    assert end["compare"]["kept"]["outcome"] == "Exactly once: 1 email sent."
    assert end["outcome"].startswith("Lost: 0 emails sent")
    assert call(op="keep", id="k", **{"as": "whatever"})["error"]["field"] == "as"
