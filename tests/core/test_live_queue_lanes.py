"""live-queue's picture draws each job where its claim and lease put it, never where its worker's
box alone would: the Queue lane holds queued jobs and jobs whose lease has run out (the next claim
takes them), and a running job whose lease still runs is drawn on its worker, on its dead worker's
box, or apart as held by no process, never in the lane. A learner met a job with 580 s of lease
left drawn "back from a lost lease" in the lane once the supervisor had restarted its worker."""
import random

import pytest

from simulations import LiveQueue


def rows(sim):
    """{id: (status, locked_until)} from the queue's own table (ticks)."""
    return {job_id: (status, until) for job_id, status, until in
            sim.queue.db.execute("SELECT id, status, locked_until FROM jobs")}


def to(sim, seconds):
    while not sim.run(seconds):                    # run() takes a bounded number of steps
        pass


def check(sim):
    snap = sim.snapshot()
    table, now = rows(sim), sim.ticks
    live = {w["token"]: w["id"] for w in snap["workers"] if w["state"] != "killed" and w["job"]}
    for job in snap["picture"]["queued"]:
        assert table[job["id"]][0] == "queued"
    for job in snap["picture"]["running"]:
        status, until = table[job["id"]]
        assert status == "running"
        leased = until >= now                      # tinyq claims it once now > locked_until
        if job["place"] == "queue":                # in the lane: claimable again
            assert not leased and job["worker"] is None, (sim.clock.now, job)
        elif job["place"] == "worker":             # on the box of the live worker holding it
            assert live.get(job["token"]) == job["worker"], (sim.clock.now, job)
        elif job["place"] == "dropped":            # on its dead worker's box, lease running
            dead = next(w for w in snap["workers"] if w["id"] == job["dropped_by"])
            assert dead["state"] == "killed" and leased, (sim.clock.now, job)
        else:                                      # held by no process, lease running
            assert job["place"] == "stuck" and leased and job["worker"] is None
            assert job["token"] not in live and job["dropped_by"] is None
        if leased:
            assert job["place"] != "queue", (sim.clock.now, job)
    return snap


def test_the_casebooks_oban_run_keeps_its_two_leased_jobs_out_of_the_lane():
    sim = LiveQueue({"workers": 2, "jobs": 6, "lease": 600, "duration": 2, "crash": 0.2,
                     "supervisor": True, "seed": 4})
    stuck = 0
    for tenth in range(1, 300):
        to(sim, tenth / 10)
        snap = check(sim)
        stuck = max(stuck, sum(job["place"] == "stuck" for job in snap["picture"]["running"]))
    assert stuck == 2                              # the casebook's two jobs stuck as running


def test_chapter_5s_restart_leaves_the_killed_workers_job_stuck_not_queued():
    # Chapter 5's embed with "Restart dead workers" ticked: ten steps, kill worker 1, thirty more.
    sim = LiveQueue({"workers": 3, "jobs": 6, "lease": 5, "duration": 2, "supervisor": True})
    for _ in range(10):
        sim.step()
    sim.act("kill", worker=1)
    for _ in range(30):
        sim.step()
        check(sim)
    snap = check(sim)
    job = next(job for job in snap["picture"]["running"] if job["place"] == "stuck")
    assert job["lease_left"] > 0 and snap["workers"][0]["state"] != "killed"


@pytest.mark.parametrize("seed", range(12))
def test_over_seeded_runs_every_job_is_drawn_where_its_claim_and_lease_put_it(seed):
    rng = random.Random(seed)
    sim = LiveQueue({"workers": rng.randint(1, 6), "jobs": rng.randint(3, 40),
                     "lease": rng.choice([1, 3, 10, 60]), "duration": rng.choice([0.5, 1, 2, 4]),
                     "crash": rng.choice([0, 0.1, 0.3]), "supervisor": rng.random() < 0.7,
                     "seed": seed})
    for tenth in range(1, 400, 3):
        to(sim, tenth / 10)
        if rng.random() < 0.05:
            worker = rng.choice(sim.snapshot()["workers"])
            for name in ("kill", "restart"):
                if name in worker["actions"]:
                    sim.act(name, worker=worker["id"])
                    break
        check(sim)


def test_retries_waiting_out_their_backoff_say_when_they_are_due():
    sim = LiveQueue({"workers": 64, "jobs": 64, "duration": 1, "lease": 30, "level": "retries",
                     "service_capacity": 8, "backoff_base": 10, "jitter": False})
    for seconds in (3, 9, 12, 14, 25, 40):
        to(sim, seconds)
        picture = sim.snapshot()["picture"]
        due = dict(sim.queue.db.execute("SELECT id, run_at FROM jobs WHERE status = 'queued'"))
        assert picture["backoff"] == sum(at > sim.ticks for at in due.values())
        for job in picture["queued"]:
            assert job["due_in"] == round(max(0, due[job["id"]] - sim.ticks) / 10, 3)
        if seconds == 3:                           # the first failures, all ten seconds away
            assert picture["backoff"] == picture["counts"]["queued"] > 0
            assert all(job["due_in"] > 0 for job in picture["queued"])


def test_a_stalled_worker_is_drawn_frozen_with_the_seconds_left_of_it():
    sim = LiveQueue({"workers": 2, "jobs": 3, "lease": 5, "duration": 2})
    to(sim, 0.3)
    sim.act("stall", worker=1, seconds=8)
    assert sim.snapshot()["picture"]["frozen"] == [{"worker": 1, "left": 8}]
    to(sim, 6.3)                                   # its lease ran out; worker 2 took job 1 over
    assert sim.snapshot()["picture"]["frozen"] == [{"worker": 1, "left": 2}]
    to(sim, 8.4)
    assert sim.snapshot()["picture"]["frozen"] == []
