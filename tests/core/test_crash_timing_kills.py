"""crash-timing with the reader's "Kill worker" buttons: every policy x scenario x fencing x
crash point, with worker A, worker B or both killed at every moment they can be, and at every
step the outcome sentence, the verdict and the slow-worker note checked against the queue's
real state (the job's row, the effects, who is alive, who is still coming).

The defect this guards against (breaker report 12, #2): killing A and then B left the job
`running`, yet the outcome said "Lost: 0 emails sent, yet the queue says the job is done"."""
import re

import pytest

from simulations import CrashTiming
from simulations.crash_timing.model import CRASH_POINTS, POLICIES
from simulations.engine.simulation import plural

VERDICTS = {"Lost:": "lost", "Exactly once:": "exactly once", "Duplicated:": "duplicated"}

CONFIGS = [{"policy": policy, "scenario": "crash", "crash": crash, "fencing": fencing}
           for policy in POLICIES for crash in ("none",) + CRASH_POINTS for fencing in (True, False)]
CONFIGS += [{"policy": policy, "scenario": "lease-too-short", "crash": "none", "fencing": fencing}
            for policy in POLICIES for fencing in (True, False)]


def replay(params, path):
    sim = CrashTiming(params)
    for move in path:
        if move == "step":
            sim.step()
        else:
            sim.act("crash", worker=move)
    return sim


def paths(params):
    """Every sequence of Step and Kill A / Kill B presses a reader can make, to the end."""
    todo, done = [()], []
    while todo:
        path = todo.pop()
        sim = replay(params, path)
        snap = sim.snapshot()
        moves = [w["name"] for w in snap["workers"] if w["state"] == "working"]
        if not snap["finished"]:
            moves.append("step")
        if not moves:
            done.append(path)
        todo.extend(path + (move,) for move in moves)
    return done


def truth(sim):
    """What the queue and the workers really are, read from the database and the timeline."""
    status, locked_until, token = sim.queue.db.execute(
        "SELECT status, locked_until, token FROM jobs").fetchone()
    return {"status": status, "locked_until": locked_until, "token": token,
            "effects": sim.effects(), "now": sim.clock.now,
            "fates": dict(sim.fate), "in_transaction": sim.queue.db.in_transaction}


def will_be_done(params, path):
    """Does the job ever become done if the reader presses nothing more (time runs on)?"""
    sim = replay(params, path)
    while not sim.run(until=1000):
        pass
    return truth(sim)["status"] == "done"


def check(params, path):
    sim = replay(params, path)
    real = truth(sim)
    snap = sim.snapshot()
    text = snap["outcome"]
    where = f"{params} after {list(path)}: {text!r} with {real}"
    # the count it names is the real one
    what = (plural(real["effects"] * 10, "loyalty point") + " awarded"
            if params["policy"] == "one-transaction" else plural(real["effects"], "email") + " sent")
    assert what in text, where
    # a verdict (Lost, Exactly once, Duplicated) only once the job is done and nothing more happens
    verdict = next((v for word, v in VERDICTS.items() if text.startswith(word)), None)
    if verdict or snap["result"] in VERDICTS.values():
        assert snap["finished"] and real["status"] == "done", where
        assert verdict == snap["result"], where
    if "the queue says the job is done" in text:
        assert real["status"] == "done", where
    if "still running" in text:
        assert real["status"] == "running", where
    # a finished run whose job is not done must say so, and say that nobody will finish it
    if snap["finished"] and real["status"] != "done":
        assert snap["result"] == "unfinished", where
        assert "still running" in text and "nobody is left to finish it" in text, where
    if "nobody is left to finish it" in text:
        assert not any(f == "working" for f in real["fates"].values()), where
        assert not will_be_done(params, path), where
    # the lease, in the right tense and at the right time
    ends = re.search(r"its lease (runs|ran) out at ([0-9.]+) s", text)
    if ends:
        assert float(ends.group(2)) == pytest.approx(real["locked_until"]), where
        assert (ends.group(1) == "ran") == (real["locked_until"] <= real["now"]), where
    assert ("not committed yet" in text) == (real["in_transaction"] and not snap["finished"]), where
    for who in "AB":
        if f"the token refused {who}" in text:
            assert any(m["worker"] == who and m["kind"] == "refused" for m in snap["timeline"]), where
    # "Nobody dies here" only while nobody has died
    anyone_dead = "killed" in real["fates"].values()
    if snap["scenario_note"]:
        assert "Nobody dies here" in snap["scenario_note"]
        assert params["scenario"] == "lease-too-short" and not anyone_dead, where
    else:
        assert params["scenario"] == "crash" or anyone_dead, where
    # the lease moments say who is dead or working as it really is
    for moment in snap["timeline"]:
        if moment["kind"] == "lease" and "is dead" in moment["text"]:
            assert real["fates"][moment["text"][0]] == "killed", where
    return snap


def prefixes(path):
    return [path[:n] for n in range(len(path) + 1)]


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: "-".join(str(v) for v in p.values()))
def test_every_kill_at_every_moment_gives_a_true_outcome(params):
    seen = set()
    for path in paths(params):
        for prefix in prefixes(path):
            if prefix not in seen:
                seen.add(prefix)
                check(params, prefix)
        # and once time has run on past every lease
        sim = replay(params, path)
        sim.run(until=1000)
        real, snap = truth(sim), sim.snapshot()
        if real["status"] != "done":
            assert "its lease ran out at" in snap["outcome"], (params, path, snap["outcome"])
    assert len(seen) > 5


def test_killing_a_then_b_in_the_slow_scenario_says_the_job_is_stuck():
    """The breaker's exact steps: Step 3 times (B has just claimed), kill A, kill B."""
    sim = replay({"policy": "ack-after-work", "scenario": "lease-too-short"}, ["step"] * 3 + ["A", "B"])
    snap = sim.snapshot()
    assert snap["jobs"][0]["status"] == "running"
    assert snap["outcome"] == ("So far: 0 emails sent. The job is still running and nobody is left "
                               "to finish it: A and B are dead; when its lease runs out at "
                               "4.5 s no worker will claim it again.")
    assert snap["scenario_note"] is None and not snap["finished"]
    sim.step()   # B's lease runs out
    snap = sim.snapshot()
    assert snap["finished"] and snap["result"] == "unfinished"
    assert snap["outcome"] == ("Unfinished: 0 emails sent. The job is still running and nobody is "
                               "left to finish it: A and B are dead; its lease ran out at "
                               "4.5 s with no worker to claim it again.")
    assert snap["timeline"][-1]["text"] == ("B's lease runs out (B is dead): the job may be claimed "
                                            "again, but no worker is coming to claim it")


def test_one_email_and_a_stuck_job_is_not_exactly_once():
    sim = replay({"policy": "ack-after-work", "scenario": "lease-too-short"}, ["step"] * 4 + ["A", "B"])
    sim.run(until=1000)
    snap = sim.snapshot()
    assert snap["jobs"][0]["status"] == "running" and snap["effects"] == 1
    assert snap["outcome"].startswith("Unfinished: 1 email sent. The job is still running")


def test_the_slow_note_is_there_until_someone_dies():
    sim = CrashTiming({"scenario": "lease-too-short"})
    assert sim.snapshot()["scenario_note"] == ("Nobody dies here: worker A is slow, and its "
                                               "2-second lease runs out while it is still working.")
    sim.step()
    sim.act("crash", worker="A")
    assert sim.snapshot()["scenario_note"] is None
    assert CrashTiming({"scenario": "crash"}).snapshot()["scenario_note"] is None
