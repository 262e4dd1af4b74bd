"""One vocabulary: every simulation's workers are in WORKER_STATES, defined
once, and no worker state borrows a job state's word."""
from simulations import SIMULATIONS, CrashTiming
from simulations.engine.simulation import WORKER_STATES
from tinyq import STATES as JOB_STATES


def test_worker_states_never_use_a_job_states_word():
    assert not set(WORKER_STATES) & set(JOB_STATES)


def test_every_worker_of_every_simulation_is_in_the_vocabulary():
    for cls in SIMULATIONS.values():
        sim = cls()
        for _ in range(50):
            for worker in sim.snapshot().get("workers", []):
                if "state" in worker:
                    assert worker["state"] in WORKER_STATES, (cls.NAME, worker)
            if not sim.step():
                break


def test_a_killed_worker_is_killed_in_crash_timing_as_in_live_queue():
    sim = CrashTiming({"crash": "after-claim"})
    while sim.step():
        pass
    assert sim.snapshot()["workers"][0]["state"] == "killed"
