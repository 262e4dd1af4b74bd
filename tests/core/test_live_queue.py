"""live-queue: the guide's claims about workers, leases and crashes, as assertions."""
import json

import pytest

from simulations import LiveQueue, ParamError
from simulations.live_queue.model import MAX_JOBS, MAX_WORKERS, WORKER_STATES


def run_to_end(sim, limit=10_000.0):
    while not sim.run(until=limit):
        pass
    return sim.snapshot()


def job(snapshot, job_id):
    return next(row for row in snapshot["jobs"] if row["id"] == job_id)


def events(snapshot):
    return [event["text"] for event in snapshot["events"]]


def test_a_killed_workers_job_is_done_on_attempt_2_after_the_lease():
    sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 5, "duration": 2})
    sim.run(until=1.0)
    start = sim.snapshot()
    holder = job(start, 1)["worker"]
    assert job(start, 1)["status"] == "running" and holder is not None
    claimed_at = 0.1
    sim.act("kill", worker=holder)
    sim.run(until=claimed_at + 5 - 0.1)  # just before the lease runs out
    assert job(sim.snapshot(), 1)["status"] == "running"  # nobody may touch it yet
    end = run_to_end(sim)
    row = job(end, 1)
    assert row["status"] == "done" and row["attempts"] == 2 and row["emails"] == 1
    texts = events(end)
    lease_ran_out = next(i for i, text in enumerate(texts) if "lease ran out" in text)
    reclaimed = next(i for i, text in enumerate(texts) if "claimed job 1 again" in text)
    assert lease_ran_out < reclaimed
    assert end["workers"][holder - 1]["state"] == "killed"
    assert end["outcome"] == "1 of 1 job done, 1 email sent."


def test_the_reclaim_happens_exactly_when_the_lease_runs_out():
    sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 3})
    sim.run(until=0.1)
    sim.act("kill", worker=1)
    sim.snapshot()
    sim.run(until=3.2)   # claimed at 0.1 s: the lease covers [0.1, 3.1]; it has run out after 3.1
    texts = [(e["time"], e["text"]) for e in sim.snapshot()["events"]]
    assert (3.2, "worker 2 claimed job 1 again (attempt 2, token 2)") in texts
    assert not any("claimed job 1 again" in text for time, text in texts if time <= 3.1)


def test_a_stalled_worker_loses_its_ack_to_the_token_but_its_email_went_out():
    sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 3, "duration": 2})
    sim.run(until=0.5)
    sim.act("stall", worker=1, seconds=5)
    end = run_to_end(sim)
    texts = events(end)
    assert any("worker 1's ack of job 1 was refused: token 1" in text for text in texts)
    assert any("worker 2 acked job 1: done" in text for text in texts)
    row = job(end, 1)
    assert row["status"] == "done" and row["attempts"] == 2 and row["emails"] == 2
    assert end["stats"]["duplicate_emails"] == 1 and end["stats"]["acks_refused"] == 1
    assert "(1 duplicate)" in end["outcome"]


def test_with_no_crashes_every_job_is_done_once_and_work_is_shared():
    sim = LiveQueue({"workers": 4, "jobs": 40, "lease": 5, "duration": 1})
    end = run_to_end(sim)
    assert end["finished"]
    assert end["stats"]["done"] == 40 and end["stats"]["emails_sent"] == 40
    assert end["stats"]["duplicate_emails"] == 0 and end["stats"]["attempts_per_job"] == 1.0
    # 10 rounds of 4 jobs, each 1 s from claim to ack; the first claim is at 0.1 s
    assert end["time"] == pytest.approx(10.1)


def test_crashes_with_a_supervisor_finish_every_job_at_least_once():
    sim = LiveQueue({"workers": 3, "jobs": 30, "lease": 3, "duration": 1, "crash": 0.3,
                     "supervisor": True}, seed=4)
    end = run_to_end(sim)
    stats = end["stats"]
    assert stats["done"] == 30 and all(row["emails"] >= 1 for row in end["jobs"])
    assert stats["retried"] > 0  # some crashes happened mid-job
    assert stats["emails_sent"] == 30 + stats["duplicate_emails"]
    assert stats["attempts_per_job"] > 1.0


def test_every_worker_dead_leaves_the_queue_stuck_and_says_so():
    sim = LiveQueue({"workers": 1, "jobs": 2})
    sim.run(until=0.5)
    sim.act("kill", worker=1)
    sim.run(until=100)
    snap = sim.snapshot()
    assert snap["stuck"] and snap["finished"]   # nothing more happens unless the reader acts
    assert "every worker is dead, so 2 jobs will wait forever" in snap["outcome"]
    sim.act("add_worker")
    end = run_to_end(sim)
    assert end["stats"]["done"] == 2 and not end["stuck"]


def test_the_supervisor_restarts_a_killed_worker_which_then_waits_for_the_lease():
    sim = LiveQueue({"workers": 1, "jobs": 1, "lease": 6, "supervisor": True})
    sim.run(until=0.5)
    sim.act("kill", worker=1)
    end = run_to_end(sim)
    texts = events(end)
    assert "the supervisor restarted worker 1 (a fresh process)" in texts
    assert job(end, 1)["attempts"] == 2 and job(end, 1)["emails"] == 1


def test_a_burst_is_absorbed_and_depth_and_age_are_reported():
    sim = LiveQueue({"workers": 2, "duration": 1})
    sim.act("burst", count=20)
    sim.run(until=2.0)
    stats = sim.snapshot()["stats"]
    assert stats["depth"] == 16 and stats["running"] == 2
    assert stats["oldest_wait"] == pytest.approx(2.0)
    assert stats["throughput"] > 0
    end = run_to_end(sim)
    assert end["stats"]["depth"] == 0 and end["stats"]["done"] == 20


def test_a_steady_producer_adds_jobs_at_about_its_rate():
    sim = LiveQueue({"workers": 8, "rate": 5, "duration": 0.5}, seed=1)
    sim.run(until=40)
    total = sim.snapshot()["stats"]["jobs_total"]
    assert 140 <= total <= 260  # 200 expected from a Poisson process at 5 jobs/s


def test_same_seed_same_run():
    params = {"workers": 3, "jobs": 20, "lease": 2, "duration": 1.5, "crash": 0.2,
              "supervisor": True}
    first, second = LiveQueue(params, seed=9), LiveQueue(params, seed=9)
    while not (first.finished and second.finished):
        first.step(), second.step()
        assert json.dumps(first.snapshot()) == json.dumps(second.snapshot())
    assert json.dumps(LiveQueue(params, seed=10).snapshot()) == json.dumps(
        LiveQueue(params, seed=10).snapshot())


def test_snapshots_are_json_and_carry_the_agreed_keys():
    sim = LiveQueue({"jobs": 3})
    snap = sim.snapshot()
    for key in ("sim", "time", "jobs", "outcome", "events", "finished", "workers", "stats"):
        assert key in snap
    assert snap["sim"] == "live-queue"
    assert set(snap["jobs"][0]) >= {"id", "status", "attempts", "lease_left"}
    assert WORKER_STATES == ("idle", "claimed", "working", "acking", "finished", "killed")
    assert {w["state"] for w in snap["workers"]} <= set(WORKER_STATES)
    json.dumps(snap, allow_nan=False)
    assert events(snap) == ["jobs 1–3 enqueued"]
    assert sim.snapshot()["events"] == []  # events are handed over once


def test_lease_left_counts_down():
    sim = LiveQueue({"jobs": 1, "lease": 5, "duration": 10})
    sim.run(until=2.1)
    assert job(sim.snapshot(), 1)["lease_left"] == pytest.approx(3.0)


def test_many_jobs_show_a_bounded_table():
    sim = LiveQueue({"workers": 16, "jobs": 1000})
    sim.run(until=1)
    snap = sim.snapshot()
    assert len(snap["jobs"]) == 50 and snap["stats"]["jobs_total"] == 1000
    assert sum(row["status"] == "running" for row in snap["jobs"]) == 16


@pytest.mark.parametrize("action, args, field", [
    ("kill", {"worker": 3}, "worker"),
    ("kill", {"worker": "two"}, "worker"),
    ("stall", {"worker": 1}, "worker"),          # idle: nothing to stall
    ("burst", {"count": 0}, "count"),
    ("burst", {"count": MAX_JOBS + 1}, "count"),
    ("set", {"param": "workers", "value": 3}, "param"),
    ("set", {"param": "lease", "value": -1}, "lease"),
    ("explode", {}, "action"),
    ("kill", {}, "action"),
])
def test_bad_actions_name_the_field(action, args, field):
    sim = LiveQueue({"workers": 2})
    with pytest.raises(ParamError) as caught:
        sim.act(action, **args)
    assert caught.value.field == field


def test_caps_keep_a_tab_from_running_away():
    sim = LiveQueue({"workers": MAX_WORKERS, "jobs": MAX_JOBS})
    with pytest.raises(ParamError, match="at most 64 workers"):
        sim.act("add_worker")
    with pytest.raises(ParamError, match="room for 0 more"):
        sim.act("enqueue")
    assert sim.run(until=1e9) is False  # one call stops at its step cap
    assert sim.clock.now == pytest.approx(LiveQueue.MAX_RUN_STEPS / 10)


def test_settings_can_change_while_it_runs():
    sim = LiveQueue({"workers": 2, "jobs": 3, "duration": 1})
    sim.act("set", param="duration", value="3")
    sim.act("set", param="lease", value=1)
    end = run_to_end(sim)
    assert end["stats"]["acks_refused"] >= 1  # jobs of 3 s outlive a 1 s lease
    assert end["stats"]["duplicate_emails"] >= 1
    assert end["settings"]["lease"] == 1.0


def test_events_between_snapshots_are_capped():
    sim = LiveQueue({"workers": 64, "jobs": 5000, "duration": 0.3})
    for _ in range(200):
        sim.step()
    snap = sim.snapshot()
    assert len(snap["events"]) == 500 and snap["events_dropped"] > 0


def test_n_workers_finish_n_over_duration_jobs_a_second():
    """Chapter 10's backpressure scene: one worker, 300 jobs of 1 s, depth falls one a second."""
    sim = LiveQueue({"workers": 1, "jobs": 300, "duration": 1})
    while not sim.run(until=100.1):
        pass
    stats = sim.snapshot()["stats"]
    assert stats["done"] == 100 and stats["depth"] == 199
    assert stats["oldest_wait"] == pytest.approx(100.1) and stats["throughput"] == 1.0
    sim.act("add_worker")
    sim.act("add_worker")
    sim.run(until=110.1)
    # the first worker acks 10 more; the new two claim at 100.2 s and ack 9 each by 110.1 s
    assert sim.snapshot()["stats"]["done"] == 100 + 10 + 2 * 9


def test_every_job_can_be_found_a_page_at_a_time_and_the_table_leaves_the_run_alone():
    """A snapshot carries one page of the table (50 rows), yet every job is on some page
    of "every job, by number", and the pages of queued, running, done and dead share them out."""
    sim = LiveQueue({"workers": 8, "jobs": 230, "duration": 1, "crash": 0.2, "lease": 1}, seed=3)
    twin = LiveQueue({"workers": 8, "jobs": 230, "duration": 1, "crash": 0.2, "lease": 1}, seed=3)
    sim.run(until=12)
    twin.run(until=12)

    def pages(view):
        seen, page = [], 1
        while True:
            sim.act("table", view=view, page=page)
            snap = sim.snapshot()
            seen += [(row["id"], row["status"]) for row in snap["jobs"]]
            if page >= snap["table"]["pages"]:
                return seen, snap["table"]
            page += 1

    every, table = pages("all")
    assert [job_id for job_id, _ in every] == list(range(1, 231)) and table["count"] == 230
    assert table["note"] == "(every job, by number: 201–230 of 230 jobs)"
    by_status = {}
    for view in ("queued", "running", "done", "dead"):
        rows, table = pages(view)
        assert {status for _, status in rows} <= {view} and table["count"] == len(rows)
        by_status.update(rows)
    assert by_status == dict(every)
    assert {"done", "queued", "running"} <= set(by_status.values())
    sim.act("table", view="watch", page=999)                 # past the end: the last page
    assert sim.snapshot()["table"]["page"] == sim.snapshot()["table"]["pages"]
    with pytest.raises(ParamError, match="view: must be one of watch, all"):
        sim.act("table", view="everything")
    sim.run(until=20)
    twin.run(until=20)
    assert sim.snapshot()["stats"] == twin.snapshot()["stats"]   # looking changed nothing
    assert sim.outcome() == twin.outcome()
