"""live-queue: how a broker delivers a job (live_queue/delivery.py): an ack on fetch, scheduled
jobs, a worker whose claim is lost, where a dead worker's job goes, and a queue that fills up."""
import pytest

from simulations import LiveQueue, ParamError
from tests.support.runs import run_to as at, texts


def test_a_worker_killed_after_an_early_ack_loses_its_job():
    sim = at(LiveQueue({"workers": 2, "jobs": 1, "duration": 4, "ack": "early"}), 30,
             [(1.0, "kill", {"worker": 1})])
    said = texts(sim)
    assert "worker 1 acked job 1 as it started: the job has left the queue" in said
    assert any("the job is lost, and nobody will run it again" in t for t in said)
    assert not any("worker 2 claimed" in t for t in said)   # nobody takes it up
    snap = sim.snapshot()
    assert snap["finished"] and snap["stats"]["done"] == 0 and snap["stats"]["dead"] == 0
    assert snap["jobs"] == [dict(snap["jobs"][0], lost=True)] and snap["jobs"][0]["lost"]
    assert snap["delivery"]["lost"] == [1]
    assert snap["outcome"] == ("0 of 1 job done, 0 emails sent; 1 job lost (acked early, its "
                               "worker died).")


def test_acked_late_the_same_kill_is_retried_after_the_lease():
    sim = at(LiveQueue({"workers": 2, "jobs": 1, "duration": 4, "lease": 5}), 30,
             [(1.0, "kill", {"worker": 1})])
    assert any("worker 2 claimed job 1 again" in t for t in texts(sim))
    assert sim.snapshot()["stats"]["done"] == 1 and "lost" not in sim.snapshot()["jobs"][0]


def test_a_job_acked_early_shows_no_lease_and_its_worker_card_says_so():
    sim = at(LiveQueue({"workers": 1, "jobs": 1, "duration": 4, "ack": "early"}), 1.0)
    snap = sim.snapshot()
    assert snap["jobs"][0]["acked_early"] and snap["jobs"][0]["lease_left"] is None
    assert snap["workers"][0]["acked_early"]


def test_an_eta_past_the_lease_held_by_workers_runs_two_copies_at_the_eta():
    params = {"workers": 2, "jobs": 1, "eta": 12, "eta_wait": "worker", "lease": 5,
              "ack": "early", "seed": 3}
    sim = at(LiveQueue(params), 30)
    said = texts(sim)
    assert "worker 1 holds job 1 unacked until its ETA at 12 s" in said
    assert "worker 2 holds job 1 unacked until its ETA at 12 s" in said
    sent = [e["time"] for e in at(LiveQueue(params), 30).snapshot()["events"]
            if "sent the email for job 1" in e["text"]]
    assert len(sent) == 2 and all(12 <= t < 14 for t in sent)   # both at the ETA, none before
    assert sim.snapshot()["stats"]["duplicate_emails"] == 1
    assert said == texts(at(LiveQueue(params), 30))   # the same for a seed


def test_an_eta_kept_by_the_broker_runs_once_at_its_time():
    sim = LiveQueue({"workers": 2, "jobs": 1, "eta": 12, "lease": 5})
    assert sim.snapshot()["jobs"][0]["eta"] == 12
    at(sim, 11.9)
    assert not any("claimed" in t for t in texts(sim))
    at(sim, 30)
    assert sim.snapshot()["stats"]["emails_sent"] == 1


def test_a_lost_claim_stops_its_worker_or_lets_it_carry_on():
    acts = [(1.0, "drop_lock", {"worker": 1})]
    base = {"workers": 2, "jobs": 1, "duration": 10, "lease": 4, "heartbeat": 1}
    stops = at(LiveQueue(base), 20, acts)
    assert any("so the worker stops that job" in t for t in texts(stops))
    assert stops.snapshot()["stats"]["emails_sent"] == 1
    carries = at(LiveQueue(dict(base, lost_claim="carry")), 5, acts)
    assert any("but the worker carries on" in t for t in texts(carries))
    assert carries.snapshot()["workers"][0]["carrying_on"]
    at(carries, 20)
    assert carries.snapshot()["stats"]["emails_sent"] == 2   # two workers ran it
    assert carries.snapshot()["stats"]["acks_refused"] == 1


def test_dropping_a_lock_is_offered_at_the_library_level_and_refused_without_one():
    sim = at(LiveQueue({"workers": 2, "jobs": 1, "duration": 4, "level": "library"}), 0.5)
    busy = {w["id"]: w["actions"] for w in sim.snapshot()["workers"]}
    assert "drop_lock" in busy[1] and "drop_lock" not in busy[2]
    with pytest.raises(ParamError, match="worker 2 holds no lock to drop"):
        sim.act("drop_lock", worker=2)
    sim.act("drop_lock", worker=1)
    with pytest.raises(ParamError, match="holds no lock"):
        sim.act("drop_lock", worker=1)   # once dropped, it is gone
    chapter = at(LiveQueue({"workers": 1, "jobs": 1, "duration": 4}), 0.5)
    assert "drop_lock" not in chapter.snapshot()["workers"][0]["actions"]


def test_a_dead_workers_job_comes_back_at_once_when_the_broker_sees_it_go():
    sim = at(LiveQueue({"workers": 2, "jobs": 1, "duration": 4, "lease": 60,
                        "orphan": "disconnect"}), 1.2, [(1.0, "kill", {"worker": 1})])
    said = texts(sim)
    assert any("the broker saw its connection close and queued the job again at once" in t
               for t in said)
    assert any("worker 2 claimed job 1" in t for t in said)


def test_a_full_queue_refuses_enqueues_in_words():
    sim = at(LiveQueue({"workers": 1, "duration": 5, "max_depth": 3}), 2,
             [(0.5, "burst", {"count": 6})])
    said = texts(sim)
    assert "the queue is full (3 waiting, its capacity): it refused 3 new jobs" in said
    snap = sim.snapshot()
    assert snap["stats"]["jobs_total"] == 3 and snap["delivery"]["refused"] == 3
    assert snap["outcome"].endswith("; 3 enqueues refused (the queue was full).")
    at(sim, 6)   # one job done, so there is room for one more
    sim.act("enqueue")
    assert sim.snapshot()["stats"]["jobs_total"] == 4


def test_the_new_controls_default_to_the_old_behaviour():
    sim = LiveQueue()
    assert (sim.params["ack"], sim.params["eta"], sim.params["eta_wait"], sim.params["lost_claim"],
            sim.params["orphan"], sim.params["max_depth"]) == ("late", 0.0, "broker", "stop",
                                                               "lease", 0)
    assert "delivery" not in at(LiveQueue({"jobs": 3}), 10).snapshot()
