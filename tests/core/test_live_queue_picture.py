"""live-queue's picture (simulations/live_queue/picture.py): its counts add up to every job and
match the figures, its tokens are bounded however many jobs there are, a killed worker's job is
marked as dropped by it until its lease runs out, and duplicate emails are named by job."""
import json

from simulations import SIMULATIONS
from simulations.live_queue.picture import MAX_FINISHED, MAX_QUEUED

LiveQueue = SIMULATIONS["live-queue"]


def test_the_largest_run_sends_a_few_dozen_tokens_and_exact_counts():
    sim = LiveQueue({"workers": 64, "jobs": 5000, "duration": 2}, seed=1)
    sim.run(7)
    snap = sim.snapshot()
    picture, stats = snap["picture"], snap["stats"]
    assert picture["counts"] == {"queued": stats["depth"], "running": stats["running"],
                                 "done": stats["done"], "dead": stats["dead"]}
    assert sum(picture["counts"].values()) == 5000
    assert len(picture["queued"]) == MAX_QUEUED and len(picture["done"]) == MAX_FINISHED
    assert len(picture["running"]) == 64
    assert [job["id"] for job in picture["queued"]] == sorted(job["id"] for job in picture["queued"])
    done = [job["id"] for job in picture["done"]]
    assert done == sorted(done, reverse=True) and done[0] < picture["running"][0]["id"]
    assert len(json.dumps(picture)) < 13_500       # each running token says where it is drawn


def test_a_killed_workers_job_is_dropped_by_it_until_its_lease_runs_out():
    sim = LiveQueue({"workers": 2, "jobs": 3, "lease": 5, "duration": 2}, seed=0)
    sim.run(0.3)
    sim.act("kill", worker=1)
    job = next(job for job in sim.snapshot()["picture"]["running"] if job["id"] == 1)
    assert (job["worker"], job["dropped_by"], job["lease_left"]) == (None, 1, 4.8)
    assert 0.9 < job["lease"] < 1
    other = next(job for job in sim.snapshot()["picture"]["running"] if job["id"] == 2)
    assert (other["worker"], other["dropped_by"]) == (2, None)
    sim.run(5.2)                                    # the lease ran out at 5.1 s: worker 2 took it
    job = next(job for job in sim.snapshot()["picture"]["running"] if job["id"] == 1)
    assert (job["worker"], job["dropped_by"], job["attempts"]) == (2, None, 2)


def test_duplicate_emails_are_named_by_job():
    sim = LiveQueue({"workers": 2, "jobs": 4, "lease": 1, "duration": 3}, seed=0)
    sim.run(20)
    picture = sim.snapshot()["picture"]
    twice = [i for i in range(1, 5) if sim.emails[i] > 1]
    assert twice and picture["duplicates"] == {"jobs": len(twice), "latest": twice[::-1]}
    shown = picture["done"] + picture["dead"] + picture["running"]
    assert all(job["emails"] == sim.emails[job["id"]] for job in shown)


def test_a_dead_workers_card_shows_its_own_lease_never_the_new_holders():
    sim = LiveQueue({"workers": 2, "jobs": 3, "lease": 5, "duration": 2}, seed=0)
    sim.run(0.3)
    sim.act("kill", worker=1)
    dead = sim.snapshot()["workers"][0]
    assert (dead["state"], dead["abandoned"], dead["lease_left"]) == ("killed", 1, 4.8)
    sim.run(5.2)                                    # worker 2 took job 1 over with a new lease
    snap = sim.snapshot()
    dead, holder = snap["workers"]
    job = next(job for job in snap["picture"]["running"] if job["id"] == 1)
    assert (holder["job"], job["worker"]) == (1, 2) and job["lease_left"] > 4
    assert (dead["abandoned"], dead["lease_left"]) == (1, 0)   # its claim ran out: it holds nothing
    assert holder["lease_left"] == job["lease_left"]
    sim.act("restart", worker=1)
    assert sim.snapshot()["workers"][0]["lease_left"] is None


def test_a_refused_ack_is_drawn_on_its_worker_for_two_seconds():
    sim = LiveQueue({"workers": 2, "jobs": 4, "lease": 1, "duration": 3}, seed=0)
    at = 0
    while sim.refused == 0 and at < 20:
        at = round(at + 0.1, 1)
        sim.run(at)                                 # run() goes on to a time, in seconds
    snap = sim.snapshot()
    (number, job_id), = [(w, j) for w, (_, j) in sim.refusals.items()]
    assert snap["picture"]["refused"] == [{"worker": number, "job": job_id, "ago": 0}]
    assert any(f"worker {number}'s ack of job {job_id} was refused" in event["text"]
               for event in snap["events"])            # the log says it, and so does the picture
    sim.run(at + 2.1)
    assert all(r["ago"] <= 2 for r in sim.snapshot()["picture"]["refused"])
    assert {"worker": number, "job": job_id, "ago": 0} not in sim.snapshot()["picture"]["refused"]


def test_a_token_counts_its_claims():
    sim = LiveQueue({"workers": 2, "jobs": 3, "lease": 5, "duration": 2}, seed=0)
    sim.run(0.3)
    sim.act("kill", worker=1)
    sim.run(5.2)
    job = next(job for job in sim.snapshot()["picture"]["running"] if job["id"] == 1)
    assert job["attempts"] == 2                     # claimed by worker 1, then handed to worker 2


def test_a_job_taken_over_after_its_lease_ran_out_says_from_whom():
    # The picture says a job jumped ("2nd try, was worker 1"), from the snapshot.
    sim = LiveQueue({"workers": 2, "jobs": 3, "lease": 5, "duration": 2}, seed=0)
    sim.run(0.3)
    sim.act("kill", worker=1)

    def job_1():
        return next(job for job in sim.snapshot()["picture"]["running"] if job["id"] == 1)

    assert job_1()["was"] is None                   # worker 1's lease has not run out yet
    sim.run(5.2)                                    # it ran out at 5.1 s: worker 2 took it over
    assert (job_1()["worker"], job_1()["was"]) == (2, 1)
    others = [job for job in sim.snapshot()["picture"]["running"] if job["id"] != 1]
    assert all(job["was"] is None for job in others)   # claimed from the queue, never handed over


def test_a_stalled_workers_job_names_it_once_another_worker_took_it():
    sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 2, "duration": 3}, seed=0)
    sim.run(0.2)
    holder = next(w for w in sim.snapshot()["workers"] if w["job"] == 1)["id"]
    sim.act("stall", worker=holder, seconds=5)
    sim.run(2.5)                                    # its lease ran out at 2.1 s; the other took it
    job = next(job for job in sim.snapshot()["picture"]["running"] if job["id"] == 1)
    assert job["worker"] == 3 - holder and job["was"] == holder


def test_each_workers_actions_come_from_the_simulation():
    sim = LiveQueue({"workers": 2, "jobs": 1, "duration": 2}, seed=0)
    assert [w["actions"] for w in sim.snapshot()["workers"]] == [["kill"], ["kill"]]
    sim.run(0.2)
    actions = {w["id"]: w["actions"] for w in sim.snapshot()["workers"]}
    busy = next(w["id"] for w in sim.snapshot()["workers"] if w["job"] == 1)
    assert actions[busy] == ["kill", "stall"] and actions[3 - busy] == ["kill"]
    sim.act("kill", worker=busy)
    assert sim.snapshot()["workers"][busy - 1]["actions"] == ["restart"]
    sim.act("restart", worker=busy)
    assert sim.snapshot()["workers"][busy - 1]["actions"] == ["kill"]
