"""Time travel: simulations/engine/timeline.py over every simulation.

Random seeded runs with random reader actions (each simulation's real actions, valid and
not): stepping back from any position gives exactly the snapshot the run had there, seek
equals a fresh replay, acting earlier branches and says so, fork + first_difference find the
first differing position, and the checkpoints stay bounded over 10,000 steps.
"""
import json
import random

import pytest

from simulations import SIMULATIONS, ParamError
from simulations.engine.timeline import Timeline
from simulations.engine.timeline_diff import first_difference

PARAMS = {
    "live-queue": lambda r: {"workers": r.randint(1, 4), "jobs": r.randint(0, 12),
                             "lease": r.choice([0.5, 1, 3]), "duration": r.choice([0.3, 1, 2]),
                             "crash": r.choice([0, 0.3]), "rate": r.choice([0, 2]),
                             "supervisor": r.choice([True, False])},
    "race": lambda r: {"claim": r.choice(["naive", "atomic"]), "jobs": r.randint(1, 3)},
    "crash-timing": lambda r: r.choice([
        {"policy": r.choice(["ack-after-work", "ack-before-work", "one-transaction",
                             "idempotency-key"]),
         "scenario": "crash", "crash": r.choice(["none", "after-claim", "after-effect"]),
         "fencing": r.choice([True, False])},
        {"scenario": "lease-too-short", "fencing": r.choice([True, False])}]),
    "payments": lambda r: {"charges": r.randint(1, 6), "key": r.choice(["none", "stable",
                                                                        "per-attempt"])},
}


def random_action(name, r):
    """(action, args) a reader could send to this simulation; some are refused, like a
    reader's can be."""
    if name == "live-queue":
        worker = r.randint(1, 5)
        return r.choice([("enqueue", {}), ("burst", {"count": r.randint(1, 8)}),
                         ("add_worker", {}), ("kill", {"worker": worker}),
                         ("restart", {"worker": worker}),
                         ("stall", {"worker": worker, "seconds": r.choice([0.5, 3])}),
                         ("set", r.choice([{"param": "lease", "value": r.choice([0.5, 4])},
                                           {"param": "rate", "value": r.choice([0, 3])},
                                           {"param": "crash", "value": 0.5},
                                           {"param": "supervisor", "value": True}])),
                         ("reset", {})])
    if name == "race":
        return r.choice([("step_a", {}), ("step_b", {}), ("step", {"worker": r.choice("AB")}),
                         ("reset", {})])
    if name == "crash-timing":
        return r.choice([("crash", {"worker": r.choice("AB")})] * 4 + [("reset", {})])
    return ("reset", {})


def plain(snapshot):
    snapshot = dict(snapshot)
    snapshot.pop("timeline", None)
    return json.dumps(snapshot, sort_keys=True)


def random_run(name, seed, moves=40, every=3, keep=5):
    """A timeline after a random run (small checkpoint spacing and count, so thinning and
    replaying from checkpoints happen), and the snapshot after each position, taken by
    driving a plain simulation through the same moves."""
    r = random.Random(seed)
    line = Timeline(name, PARAMS[name](r), seed=r.randint(0, 99), every=every, keep=keep)
    for _ in range(moves):
        if r.random() < 0.25:
            action, args = random_action(name, r)
            try:
                line.act(action, **args)
            except ParamError:
                pass
        elif r.random() < 0.1:
            line.run(line.sim.clock.now + r.choice([0.35, 2.5]))
        else:
            line.step()
    return line, reference(line)


def reference(line):
    sim = line.kind(line.params, line.seed)
    pictures = [plain(sim.snapshot())]
    for move in line.moves:
        if move[0] == "step":
            assert sim.step()
        elif move[0] == "act":
            sim.act(move[1], **move[2])
        else:
            sim.run(move[1])
        pictures.append(plain(sim.snapshot()))
    return pictures


SEEDS = range(5)


@pytest.mark.parametrize("name", sorted(SIMULATIONS))
def test_back_from_every_position_gives_the_snapshot_the_run_had(name):
    for seed in SEEDS:
        line, pictures = random_run(name, seed)
        assert len(pictures) == len(line.moves) + 1 > 1
        assert line.at == len(line.moves)
        while line.at:
            k = line.at
            assert line.back() == k - 1
            assert plain(line.snapshot()) == pictures[k - 1], (name, seed, k)
        assert line.back() == 0


@pytest.mark.parametrize("name", sorted(SIMULATIONS))
def test_seek_equals_a_fresh_replay_and_step_follows_the_branch(name):
    for seed in SEEDS:
        line, pictures = random_run(name, seed + 100)
        r = random.Random(seed)
        for _ in range(12):
            k = r.randint(0, len(line.moves))
            line.seek(k)
            assert plain(line.snapshot()) == pictures[k], (name, seed, k)
            if k < len(line.moves):
                assert line.step() is True  # forward along the branch, not a new move
                assert plain(line.snapshot()) == pictures[k + 1]
        with pytest.raises(ParamError):
            line.seek(len(line.moves) + 1)


@pytest.mark.parametrize("name", sorted(SIMULATIONS))
def test_a_record_rebuilds_the_run_and_the_moment(name):
    line, pictures = random_run(name, 7)
    line.seek(len(line.moves) // 2)
    record = json.loads(json.dumps(line.record()))
    again = Timeline.from_record(record, every=2, keep=3, compress=True)
    assert again.moves == line.moves and again.at == line.at
    assert plain(again.snapshot()) == pictures[line.at]
    for k in range(len(again.moves), -1, -1):  # compressed checkpoints are exact too
        again.seek(k)
        assert plain(again.snapshot()) == pictures[k]
    assert again.marks() == line.marks()
    assert all(mark["action"] for mark in line.marks())
    assert [mark["at"] for mark in line.marks()] == [
        at + 1 for at, move in enumerate(line.moves) if move[0] == "act"]


def test_acting_earlier_starts_a_new_branch_and_says_so():
    line = Timeline("live-queue", {"workers": 2, "jobs": 6}, seed=4, every=4, keep=3)
    for _ in range(30):
        line.step()
    old = line.fork()
    assert line.act("enqueue") == {"branched": False, "dropped": 0, "at": 31}
    line.seek(10)
    said = line.act("kill", worker=1)
    assert said == {"branched": True, "dropped": 21, "at": 11}
    assert len(line.moves) == 11 and line.marks() == [
        {"at": 11, "time": line.times[11], "action": "kill", "args": {"worker": 1}}]
    for _ in range(19):
        line.step()
    assert first_difference(old, line) == 11
    assert first_difference(line, old) == 11
    assert first_difference(old, old.fork()) is None
    assert old.at == 30 and line.at == 30  # neither was moved
    # the branches diverge: the killed worker's job is not done in the same way
    assert plain(old.snapshot()) != plain(line.snapshot())
    # the same action as the one recorded next is not a branch
    line.seek(10)
    assert line.act("kill", worker=1)["branched"] is False and len(line.moves) == 30


def test_choosing_what_the_table_lists_in_the_past_keeps_the_future():
    """The table's view is not one of the run's moves: changing it while looking at an earlier
    moment keeps the moves after it, and the view holds wherever the reader goes next."""
    line = Timeline("live-queue", {"workers": 2, "jobs": 40}, seed=4, every=4, keep=3)
    for _ in range(60):
        line.step()
    line.seek(20)
    assert line.act("table", view="done", page=1) == {"branched": False, "dropped": 0, "at": 20}
    assert len(line.moves) == 60 and line.marks() == []
    assert line.snapshot()["table"]["view"] == "done"
    for at in (45, 3, 60, 0):
        line.seek(at)
        assert line.snapshot()["table"]["view"] == "done", at
    assert line.fork(30).snapshot()["table"]["view"] == "done"


@pytest.mark.parametrize("name", sorted(SIMULATIONS))
def test_fork_is_independent_and_first_difference_finds_the_step(name):
    for seed in range(4):
        line, pictures = random_run(name, seed + 200)
        r = random.Random(seed)
        k = r.randint(0, len(line.moves))
        other = line.fork(k)
        assert plain(other.snapshot()) == pictures[k] and len(other.moves) == k
        for _ in range(len(line.moves) - k):  # the other branch: different actions
            action, args = random_action(name, r)
            try:
                other.act(action, **args)
            except ParamError:
                other.step()
        # line is untouched by the fork and what was done in it
        line.seek(len(line.moves))
        assert plain(line.snapshot()) == pictures[-1]
        mine = reference(other)
        expected = next((at for at in range(min(len(pictures), len(mine)))
                         if pictures[at] != mine[at]), None)
        assert first_difference(line, other) == expected


def test_checkpoints_stay_bounded_over_10000_steps():
    line = Timeline("live-queue", {"workers": 4, "jobs": 200, "rate": 2, "crash": 0.1,
                                   "supervisor": True}, seed=1, every=16, keep=24)
    most = 0
    for n in range(10_000):
        if n % 2500 == 1000:
            line.act("burst", count=50)
        assert line.step()
        most = max(most, len(line.checkpoints))
    assert most <= 24 and len(line.checkpoints) >= 12
    assert line.interval == 16 * 2 ** 5  # thinned five times: 10,000 / 512 < 24
    assert all(at % line.interval == 0 for at in line.checkpoints)
    k = len(line.moves)
    line.back()
    assert line.at == k - 1


def test_bad_arguments_are_refused_and_change_nothing():
    line = Timeline("race", seed=1)
    with pytest.raises(ParamError):
        Timeline("no-such-sim")
    with pytest.raises(ParamError):
        line.act("step", worker="C")
    assert line.moves == []
    with pytest.raises(ParamError):
        line.seek(-1)
    good = line.record()
    for bad in ({}, {**good, "length": "many"}, {**good, "length": 10**9},
                {**good, "length": 2, "actions": [[5, "step_a", {}]]},
                {**good, "length": 2, "actions": [[0, "no-such-action", {}]]}):
        with pytest.raises(ParamError):
            Timeline.from_record(bad)


def test_position_at_finds_the_moment_of_a_time():
    line = Timeline("live-queue", {"workers": 2, "jobs": 4, "rate": 1}, seed=2)
    for _ in range(50):
        line.step()
    assert line.position_at(2.0) == 20 and line.times[20] == pytest.approx(2.0)
    assert line.position_at(-1) == 0 and line.position_at(99) == 50


PYODIDE_PROGRAM = """
import hashlib, json
from simulations.engine.timeline import Timeline
out = {}
for name, params, act in %s:
    line = Timeline(name, params, seed=3, every=4, keep=4)
    pictures = [json.dumps(line.snapshot() | {"timeline": None}, sort_keys=True)]
    for n in range(40):
        line.act(act[0], **act[1]) if n == 9 else line.step()
        pictures.append(json.dumps(line.snapshot() | {"timeline": None}, sort_keys=True))
    exact, moves = [], line.at
    while line.at:
        k = line.back()
        exact.append(json.dumps(line.snapshot() | {"timeline": None}, sort_keys=True) == pictures[k])
    out[name] = {"exact": all(exact) and len(exact) == moves > 5,
                 "digest": hashlib.sha256("".join(pictures).encode()).hexdigest()}
print(json.dumps(out))
"""
PYODIDE_RUNS = [("live-queue", {"workers": 3, "jobs": 20, "crash": 0.2}, ["kill", {"worker": 1}]),
                ("payments", {"charges": 4}, ["reset", {}])]


def test_back_is_exact_in_pyodide_too(tmp_path):
    from .test_pyodide import run_in_pyodide
    import hashlib
    result = run_in_pyodide(tmp_path, PYODIDE_PROGRAM % json.dumps(PYODIDE_RUNS))
    for name, params, act in PYODIDE_RUNS:  # the same run, in CPython
        line = Timeline(name, params, seed=3)
        pictures = [json.dumps(line.snapshot() | {"timeline": None}, sort_keys=True)]
        for n in range(40):
            line.act(act[0], **act[1]) if n == 9 else line.step()
            pictures.append(json.dumps(line.snapshot() | {"timeline": None}, sort_keys=True))
        assert result[name]["exact"], name
        assert result[name]["digest"] == hashlib.sha256("".join(pictures).encode()).hexdigest()
