"""Print the queue core's figures: python3 bench/bench_core.py

- live-queue: microseconds per step() (median, and the 95th percentile) with 16 workers and
  1,000 jobs, and per frame (step + snapshot);
- tinyq: claim+ack round trips per second on ":memory:" and on a file.
Figures from one run on one machine: compare them as ratios, not against fixed limits.
"""
import statistics
import sys

import core_scenarios as scenarios


def main():
    steps = scenarios.live_queue_step_times()
    frames = scenarios.live_queue_frame_times()
    memory = scenarios.claim_ack_seconds(":memory:", 1000)
    on_file = scenarios.claim_ack_on_file(1000)
    print(f"python {sys.version.split()[0]}, sqlite {scenarios.tinyq.sqlite3.sqlite_version}")
    print(f"live-queue step, 16 workers, 1,000 jobs:  median {scenarios.median_microseconds(steps):8.1f} us"
          f"   p95 {statistics.quantiles(steps, n=20)[-1] * 1e6:8.1f} us")
    print(f"live-queue frame (step + snapshot):       median {scenarios.median_microseconds(frames):8.1f} us")
    print(f"tinyq claim+ack on :memory:               {1000 / memory:10,.0f} per second "
          f"({memory * 1000:.1f} ms for 1,000)")
    print(f"tinyq claim+ack on a file                 {1000 / on_file:10,.0f} per second "
          f"({on_file * 1000:.1f} ms for 1,000)")
    print(f"file / memory time ratio:                 {on_file / memory:10.1f}")


if __name__ == "__main__":
    main()
