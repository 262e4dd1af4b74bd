"""Seconds per live-queue step(), as bench_widgets.py compares them between CPython and Pyodide.

The scenario is bench/core_scenarios.py's (16 workers, 1,000 jobs, leases of 5 s, jobs of 2 s).
A browser's clock is too coarse (about 0.1 ms) to time one step of some 30 microseconds, so
`steps` steps are timed together. One run first, not counted, lets the engine settle (V8 compiles
the wasm again, optimised, in the background while the first run goes); then the median of
`runs` runs, each on a fresh simulation.
"""
import statistics
import time


def run_seconds(simulation_class, steps):
    sim = simulation_class({"workers": 16, "jobs": 1000, "lease": 5, "duration": 2}, seed=0)
    for _ in range(20):
        sim.step()
    started = time.perf_counter()
    for _ in range(steps):
        sim.step()
    return (time.perf_counter() - started) / steps


def seconds_per_step(simulation_class, steps=1000, runs=3):
    run_seconds(simulation_class, steps)
    return statistics.median(run_seconds(simulation_class, steps) for _ in range(runs))
