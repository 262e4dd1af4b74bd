"""What the casebook's live-queue controls cost a step: python3 bench/bench_live_queue_modes.py

Each mode runs bench/core_scenarios.py's scenario (16 workers, 1,000 jobs waiting, leases of 5 s,
jobs of 2 s) with one control switched on, timed by bench/step_timing.py as bench_widgets.py's
"step" is: the median seconds per step() over `--steps` steps (after 20 uncounted), taken over
`--runs` fresh runs after one not counted, is printed beside the plain queue's as a ratio.
CPython only: the page's step costs 2 to 3 times as much in Pyodide (bench_widgets.py, "step"),
for every mode alike. The machine is shared and noisy: read the figures as ratios from one run,
not as limits.
"""
import argparse
import sys
from pathlib import Path

import step_timing

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulations import LiveQueue  # noqa: E402

MODES = {
    "plain queue": {},
    "heartbeat every 0.5 s": {"heartbeat": 0.5, "grace": 1},
    "durations 1 to 4 s": {"duration": 1, "duration_max": 4},
    "deploy at 5 s, 2 s grace, hand back": {"deploy_at": 5, "shutdown_grace": 2, "hand_back": True},
    "poison fails, new copy": {"poison": "fails", "cap_counts": "new-copy"},
    "poison kills, failures only": {"poison": "kills", "cap_counts": "failures", "supervisor": True},
    "busy service, no jitter": {"service_capacity": 8, "jitter": False, "backoff_base": 10},
    "all of them": {"heartbeat": 0.5, "duration": 1, "duration_max": 4, "deploy_at": 5,
                    "shutdown_grace": 2, "hand_back": True, "poison": "kills",
                    "cap_counts": "failures", "supervisor": True, "crash": 0.05,
                    "service_capacity": 8},
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1500, help="steps timed per run (0.1 s each)")
    parser.add_argument("--runs", type=int, default=3, help="fresh runs per mode (the median is kept)")
    args = parser.parse_args()
    figures = {name: step_timing.seconds_per_step(LiveQueue, args.steps, args.runs, params)
               for name, params in MODES.items()}
    base = figures["plain queue"]
    print(f"live-queue, 16 workers, 1,000 jobs: seconds per step (CPython {sys.version.split()[0]})")
    for name, seconds in figures.items():
        print(f"  {name:<38} {seconds * 1e6:8.1f} µs   {seconds / base:5.2f}x")


if __name__ == "__main__":
    main()
