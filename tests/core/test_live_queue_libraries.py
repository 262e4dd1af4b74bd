"""live-queue: "your library" presets (live_queue/libraries.py), each a library's documented
defaults, reproduce the failure its documentation describes, and its what-if removes it."""
import pytest

from simulations import LiveQueue
from simulations.live_queue.libraries import LIBRARIES
from tests.support.runs import run_to as at, texts


def help_of(name):
    return next(spec["help"] for spec in LiveQueue.PARAMS if spec["name"] == name)


@pytest.mark.parametrize("name", list(LIBRARIES))
def test_each_presets_values_are_in_its_help_with_their_sources(name):
    library, said = LIBRARIES[name], help_of("library")
    part = said[said.index(library["label"] + ":"):]
    for param, (value, what, source) in library["sets"].items():
        assert what in part and source.startswith("https://") and source in part
    assert library["what_if"][0] in help_of("what_if")


@pytest.mark.parametrize("name", list(LIBRARIES))
def test_a_preset_sets_what_the_reader_did_not_give_and_the_snapshot_says_so(name):
    sim = LiveQueue({"library": name, "lease": 7})
    for param, (value, _, _) in LIBRARIES[name]["sets"].items():
        if param != "lease":
            assert sim.params[param] == value, param
    assert sim.params["lease"] == 7 and sim.snapshot()["params"]["lease"] == 7
    again = LiveQueue(sim.snapshot()["params"])   # a link made from the snapshot
    assert again.params == sim.params


def test_sidekiq_basic_fetch_loses_a_killed_workers_job_and_super_fetch_keeps_it():
    params = {"library": "sidekiq-basic", "workers": 2, "jobs": 1, "duration": 4, "lease": 5}
    basic = at(LiveQueue(params), 30, [(1.0, "kill", {"worker": 1})])
    assert basic.snapshot()["delivery"]["lost"] == [1]
    fetched = at(LiveQueue(dict(params, what_if=True)), 30, [(1.0, "kill", {"worker": 1})])
    assert fetched.params["ack"] == "late"
    assert fetched.snapshot()["stats"]["done"] == 1 and "delivery" not in fetched.snapshot()


def test_sidekiq_hands_unfinished_jobs_back_at_a_deploy():
    sim = at(LiveQueue({"library": "sidekiq-basic", "workers": 1, "jobs": 1, "duration": 60,
                        "deploy_at": 1}), 40)
    assert any("handed job 1 back unfinished" in t for t in texts(sim))
    assert "delivery" not in sim.snapshot()   # not lost


def test_celery_on_redis_runs_an_eta_beyond_the_visibility_timeout_twice():
    params = {"library": "celery-redis", "workers": 2, "jobs": 1, "eta": 4000}
    sim = at(LiveQueue(params), 4010)
    sent = [e["time"] for e in sim.snapshot()["events"] if "sent the email for job 1" in e["text"]]
    assert len(sent) == 2 and all(4000 <= t < 4005 for t in sent)
    fixed = at(LiveQueue(dict(params, lease=7200)), 4010)   # the visibility timeout raised
    assert fixed.snapshot()["stats"]["emails_sent"] == 1


def test_celery_acks_early_so_a_killed_worker_loses_its_task_unless_acks_late():
    for broker in ("celery-redis", "celery-rabbitmq"):
        params = {"library": broker, "workers": 2, "jobs": 1, "duration": 4}
        early = at(LiveQueue(params), 10, [(1.0, "kill", {"worker": 1})])
        assert early.snapshot()["delivery"]["lost"] == [1], broker
    late = at(LiveQueue({"library": "celery-rabbitmq", "what_if": True, "workers": 2, "jobs": 1,
                         "duration": 4}), 10, [(1.0, "kill", {"worker": 1})])
    assert any("queued the job again at once" in t for t in texts(late))   # its channel closed
    assert late.snapshot()["stats"]["done"] == 1


def test_an_sqs_message_past_max_receive_count_moves_to_the_dead_letter_queue():
    params = {"library": "sqs", "workers": 1, "jobs": 1, "poison": "kills", "supervisor": True}
    sim = at(LiveQueue(params), 400)
    snap = sim.snapshot()
    assert snap["jobs"][0]["status"] == "dead" and snap["jobs"][0]["attempts"] == 5
    assert snap["stats"]["poison_claims"] == 5
    kept = at(LiveQueue(dict(params, what_if=True)), 400)   # no redrive policy
    assert kept.snapshot()["jobs"][0]["status"] != "dead"
    assert kept.snapshot()["stats"]["poison_claims"] > 5


def test_a_bullmq_job_whose_lock_is_lost_runs_twice_unless_stalls_may_not_recover():
    params = {"library": "bullmq", "workers": 2, "jobs": 1, "duration": 20, "level": "library"}
    acts = [(1.0, "drop_lock", {"worker": 1})]
    twice = at(LiveQueue(params), 60, acts)
    said = texts(twice)
    assert any("but the worker carries on" in t for t in said)
    assert twice.snapshot()["stats"]["emails_sent"] == 2
    once = at(LiveQueue(dict(params, what_if=True)), 60, acts)
    snap = once.snapshot()
    assert snap["stats"]["emails_sent"] == 1 and snap["jobs"][0]["status"] == "dead"


def test_no_preset_leaves_every_parameter_as_given():
    assert LiveQueue({"library": "none"}).params == LiveQueue().params


def test_rq_fails_a_killed_workers_job_once_its_entry_runs_out_unless_it_may_retry():
    params = {"library": "rq", "workers": 2, "jobs": 1, "duration": 10}
    acts = [(1.0, "kill", {"worker": 1})]
    failed = at(LiveQueue(params), 120, acts)
    snap = failed.snapshot()
    assert snap["jobs"][0]["status"] == "dead" and snap["stats"]["emails_sent"] == 0
    retried = at(LiveQueue(dict(params, what_if=True)), 120, acts)
    assert retried.snapshot()["stats"]["done"] == 1


def test_river_rescues_a_killed_workers_job_after_an_hour_or_sooner_if_told():
    params = {"library": "river", "workers": 2, "jobs": 1, "duration": 10}
    acts = [(1.0, "kill", {"worker": 1})]
    waits = at(LiveQueue(params), 3000, acts)
    assert waits.snapshot()["stats"]["done"] == 0   # still running, nobody working on it
    at(waits, 3700)
    assert waits.snapshot()["stats"]["done"] == 1
    sooner = at(LiveQueue(dict(params, what_if=True)), 320, acts)
    assert sooner.snapshot()["stats"]["done"] == 1
