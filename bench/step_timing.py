"""Seconds per live-queue step(), as bench_widgets.py compares them between CPython and Pyodide.

The scenario is bench/core_scenarios.py's (16 workers, 1,000 jobs, leases of 5 s, jobs of 2 s),
SCENARIO below, to which a caller may add settings (bench_live_queue_modes.py's modes).
A browser's clock is too coarse (about 0.1 ms) to time one step of some 30 microseconds, so
`steps` steps are timed together. One run first, not counted, lets the engine settle (V8 compiles
the wasm again, optimised, in the background while the first run goes); then the median of
`runs` runs, each on a fresh simulation.
"""
import statistics
import time


SCENARIO = {"workers": 16, "jobs": 1000, "lease": 5, "duration": 2}


def run_seconds(simulation_class, steps, params=None):
    """Seconds per step() over `steps` steps of a fresh simulation, after 20 uncounted."""
    sim = simulation_class({**SCENARIO, **(params or {})}, seed=0)
    for _ in range(20):
        sim.step()
    started = time.perf_counter()
    for _ in range(steps):
        sim.step()
    return (time.perf_counter() - started) / steps


def seconds_per_step(simulation_class, steps=1000, runs=3, params=None):
    """The median of `runs` run_seconds(), after one run not counted."""
    run_seconds(simulation_class, steps, params)
    return statistics.median(run_seconds(simulation_class, steps, params) for _ in range(runs))


def frame_cost(simulation_class, workers, jobs, speed, duration=2, frames=120, fps=60):
    """What one animation frame of a playing live queue costs Python, as the bridge spends it:
    run() on by speed/fps virtual seconds, snapshot(), json.dumps() of the reply. Returns
    (median seconds per frame, median bytes of the reply), over `frames` frames after 10 uncounted."""
    import json
    sim = simulation_class({"workers": workers, "jobs": jobs, "lease": 5, "duration": duration}, seed=0)
    times, sizes = [], []
    for frame in range(frames + 10):
        started = time.perf_counter()
        sim.run(sim.clock.now + speed / fps)
        reply = json.dumps({"ok": True, "snapshot": sim.snapshot()})
        if frame >= 10:
            times.append(time.perf_counter() - started)
            sizes.append(len(reply))
    return statistics.median(times), statistics.median(sizes)


def frame_costs(simulation_class, rows):
    """frame_cost() for each (workers, jobs, speed, duration) of `rows`: a list of [seconds, bytes]."""
    return [list(frame_cost(simulation_class, *row)) for row in rows]
