"""crash-timing's controls for the casebook: an ack by a timer apart from the work
(auto-commit, its interval in seconds), and a job that is a batch of sends with or without a
record of each send."""
import pytest

from simulations import CrashTiming, ParamError


def play(params):
    sim = CrashTiming(params)
    while not sim.run(until=1000):
        pass
    return sim, sim.snapshot()


# --- auto-commit ----------------------------------------------------------------------------
def test_a_timer_that_commits_during_the_work_then_a_crash_loses_the_email():
    sim, snap = play({"policy": "auto-commit", "commit_interval": 0.5, "crash": "after-ack"})
    assert (snap["result"], snap["effects"]) == ("lost", 0)
    assert snap["jobs"][0]["status"] == "done" and snap["jobs"][0]["attempts"] == 1
    assert [step["name"] for step in snap["steps"]] == ["claim", "ack", "effect"]
    assert snap["points"][1]["label"] == "after the timer's commit, before the email"
    assert "A's auto-commit timer acks: the job is done" in [m["text"] for m in snap["timeline"]]
    assert [m["time"] for m in snap["timeline"] if m["kind"] == "ack"] == [0.5]


def test_a_timer_slower_than_the_work_acks_after_it_and_repeats_like_ack_after_work():
    _, timer = play({"policy": "auto-commit", "commit_interval": 2, "crash": "after-effect"})
    assert [step["name"] for step in timer["steps"]] == ["claim", "effect", "ack"]
    assert (timer["result"], timer["effects"]) == ("duplicated", 2)
    _, safe = play({"policy": "auto-commit", "commit_interval": 2, "crash": "after-ack"})
    assert (safe["result"], safe["effects"]) == ("exactly once", 1)


@pytest.mark.parametrize("interval, lost", [(0.1, True), (0.74, True), (0.8, False), (1.5, False)])
def test_the_crash_after_the_claim_loses_the_email_only_if_the_timer_fired_first(interval, lost):
    # A dies 0.25 s after reaching the point it stands at; with a timer at 0.5 s the
    # point after the commit is reached at 0.5 s and A dies at 0.75 s.
    sim = CrashTiming({"policy": "auto-commit", "commit_interval": interval, "crash": "none"})
    sim.run(until=0.75)
    if sim.fate["A"] == "working":
        sim.act("crash", worker="A")
    while sim.step():
        pass
    assert (sim.result() == "lost") == lost


def test_the_timer_dies_with_its_worker():
    _, snap = play({"policy": "auto-commit", "commit_interval": 0.5, "crash": "after-claim"})
    acks = [m for m in snap["timeline"] if m["kind"] == "ack"]
    assert [m["worker"] for m in acks] == ["B"]        # A died at 0.25 s, before its timer
    assert (snap["result"], snap["effects"]) == ("exactly once", 1)


@pytest.mark.parametrize("value, words", [
    ("0", "Auto-commit interval (s): must be from 0.1 to 10, got 0"),
    ("often", "Auto-commit interval (s): must be a number from 0.1 to 10, got 'often'"),
])
def test_a_bad_interval_is_refused_with_its_field_named(value, words):
    with pytest.raises(ParamError) as caught:
        CrashTiming({"policy": "auto-commit", "commit_interval": value})
    assert caught.value.field == "commit_interval" and caught.value.words == words


# --- a batch of sends ------------------------------------------------------------------------
def test_a_batch_repeated_after_a_crash_sends_every_email_twice_without_a_record():
    _, snap = play({"batch": 50, "crash": "after-effect"})
    assert (snap["result"], snap["effects"]) == ("duplicated", 100)
    assert snap["outcome"] == "Duplicated: 100 emails sent to 50 of 50 people."
    assert snap["points"][1]["label"] == "after the 50 emails, before the ack"
    assert [(p["worker"], p["count"]) for p in snap["produced"]] == [("A", 50), ("B", 50)]


def test_with_a_record_of_each_send_the_retry_skips_them_all():
    _, snap = play({"batch": 50, "crash": "after-effect", "marker": True})
    assert (snap["result"], snap["effects"]) == ("exactly once", 50)
    assert snap["outcome"] == ("Exactly once: 50 emails sent to 50 of 50 people; 50 sends skipped "
                               "by the records of earlier sends.")
    assert "B sends 0 emails, skips 50 already recorded" in [m["text"] for m in snap["timeline"]]


@pytest.mark.parametrize("marker, emails", [(False, 70), (True, 50)])
def test_killed_partway_through_the_batch_the_record_saves_the_sends_done(marker, emails):
    sim = CrashTiming({"batch": 50, "crash": "none", "marker": marker})
    sim.run(until=0.4)                   # 20 sends of 0.02 s each
    sim.act("crash", worker="A")
    timeline = [m["text"] for m in sim.timeline]
    assert "A sends 20 emails (20 of 50 people)" in timeline
    assert sim.crash_shown()["point"] == "after-claim"
    while sim.step():
        pass
    assert sim.effects() == emails
    assert sim.result() == ("exactly once" if marker else "duplicated")


def test_ack_before_the_work_loses_the_rest_of_a_batch():
    sim = CrashTiming({"policy": "ack-before-work", "batch": 10, "crash": "none"})
    sim.run(until=1.0)                   # acked at 0.5 s, 5 of 10 sends made by 1 s
    sim.act("crash", worker="A")
    while sim.step():
        pass
    assert (sim.result(), sim.effects()) == ("lost", 5)


def test_a_key_per_email_absorbs_a_repeated_batch():
    _, snap = play({"policy": "idempotency-key", "batch": 5, "crash": "after-effect"})
    assert (snap["result"], snap["effects"], snap["absorbed"]) == ("exactly once", 5, 5)
    assert snap["steps"][1]["label"] == "send the 5 emails with their keys"


def test_one_transaction_has_no_batch_its_effect_is_points():
    _, snap = play({"policy": "one-transaction", "batch": 50, "crash": "after-effect"})
    assert (snap["result"], snap["effects"]) == ("exactly once", 1)


def test_one_email_with_a_record_is_still_one_moment_and_one_email():
    _, snap = play({"crash": "after-effect", "marker": True})
    assert (snap["result"], snap["effects"]) == ("exactly once", 1)


@pytest.mark.parametrize("value", ["0", "101", "2.5"])
def test_a_bad_batch_is_refused(value):
    with pytest.raises(ParamError) as caught:
        CrashTiming({"batch": value})
    assert caught.value.field == "batch" and caught.value.words.startswith("Emails in the job: must be")


def test_a_batch_run_is_bounded_and_replays_exactly():
    def events(params):
        sim = CrashTiming(params)
        calls = 0
        while not sim.run(until=1000):
            calls += 1
        return calls, [m["text"] for m in sim.timeline], sim.snapshot()["outcome"]
    params = {"batch": 100, "crash": "after-effect", "policy": "auto-commit", "commit_interval": 10}
    first = events(params)
    assert first == events(params)
    assert first[0] >= 1                 # 200 sends take more than one run() of 100 steps
