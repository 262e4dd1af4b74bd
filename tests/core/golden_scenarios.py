"""The golden-trace scenarios and the trace format, with no test framework in sight, so the
same traces can be computed in CPython (test_golden.py) and in Pyodide (test_pyodide.py)."""
import json

from simulations import SIMULATIONS

END = 10_000.0  # seconds: later than any scenario here ends

# name: (simulation, params, seed, [(at seconds, action, args), ...])
SCENARIOS = {
    "live-queue-kill": ("live-queue", {"workers": 2, "jobs": 3, "lease": 5}, 0,
                        [(0.5, "kill", {"worker": 1})]),
    "live-queue-stall": ("live-queue", {"workers": 2, "jobs": 2, "lease": 3, "duration": 2}, 0,
                         [(0.5, "stall", {"worker": 1, "seconds": 4})]),
    "live-queue-crashes": ("live-queue", {"workers": 3, "jobs": 12, "lease": 3, "duration": 1,
                                          "crash": 0.25, "supervisor": True}, 2, []),
    "live-queue-burst": ("live-queue", {"workers": 4, "duration": 0.5, "rate": 2}, 5,
                         [(1.0, "burst", {"count": 10}), (3.0, "add_worker", {}),
                          (8.0, "set", {"param": "rate", "value": 0})]),
    "live-queue-crashes-seed-7": ("live-queue", {"workers": 2, "jobs": 8, "lease": 2,
                                                 "duration": 1.5, "crash": 0.3,
                                                 "supervisor": True}, 7, []),
    "race-naive-seed-1": ("race", {"claim": "naive", "jobs": 3}, 1, []),
    "race-naive-seed-4": ("race", {"claim": "naive", "jobs": 5}, 4, []),
    "race-atomic-seed-1": ("race", {"claim": "atomic", "jobs": 3}, 1, []),
    "crash-timing-after-effect": ("crash-timing", {"policy": "ack-after-work",
                                                   "crash": "after-effect"}, 0, []),
    "crash-timing-one-transaction-slow": ("crash-timing", {"policy": "one-transaction",
                                                           "scenario": "lease-too-short"}, 0, []),
    "crash-timing-unfenced-slow": ("crash-timing", {"policy": "one-transaction",
                                                    "scenario": "lease-too-short",
                                                    "fencing": False}, 0, []),
    "payments-none-seed-7": ("payments", {"key": "none"}, 7, []),
    "payments-stable-seed-7": ("payments", {"key": "stable"}, 7, []),
    "payments-per-attempt-seed-7": ("payments", {"key": "per-attempt"}, 7, []),
    "payments-dead-seed-11": ("payments", {"key": "stable", "max_attempts": 2, "charges": 8}, 11, []),
}


def trace(name):
    sim_name, params, seed, script = SCENARIOS[name]
    sim = SIMULATIONS[sim_name](params, seed=seed)
    lines = [f"# {sim_name} {json.dumps(params, sort_keys=True)} seed={seed}"]

    def collect():
        snap = sim.snapshot()
        lines.extend(f"{event['time']:9.3f}  {event['text']}" for event in snap["events"])
        return snap

    collect()
    for at, action, args in script + [(END, None, None)]:
        while not sim.run(until=at):
            collect()
        collect()
        if action:
            lines.append(f"{sim.clock.now:9.3f}  > {action} {json.dumps(args, sort_keys=True)}")
            sim.act(action, **args)
    snap = collect()
    lines.append(f"finished: {snap['finished']}   time: {snap['time']}")
    lines.append(f"outcome: {snap['outcome']}")
    for row in snap["jobs"]:
        lines.append("job " + json.dumps(row, sort_keys=True))
    extra = {key: snap[key] for key in ("stats", "ledger", "result", "duplicates") if key in snap}
    lines.append("state " + json.dumps(extra, sort_keys=True))
    return "\n".join(lines) + "\n"
