"""race: every interleaving of workers A and B, enumerated.

The naive (look-then-grab) claim has interleavings that send a duplicate email; the atomic
claim has none. The count covers every order of single statements until both workers stop:
orders that lead to the same state (workers, table, emails) are counted once and
multiplied, which a brute-force replay confirms for the small cases.
"""
import json

import pytest

from simulations import ParamError, Race


def explore(race):
    """(complete interleavings from here, how many of them send a duplicate email)."""
    memo = {}

    def visit(sim):
        key = sim.state_key()
        if key not in memo:
            if sim.finished:
                memo[key] = (1, 1 if sim.duplicates() else 0)
            else:
                total = duplicated = 0
                for name, worker in sim.workers.items():
                    if worker.step != "finished":
                        child = sim.clone()
                        child.act("step", worker=name)
                        more, bad = visit(child)
                        total, duplicated = total + more, duplicated + bad
                memo[key] = (total, duplicated)
        return memo[key]

    return visit(race)


def brute_force(params):
    """Replay every schedule from scratch, without any sharing: slow, but obviously right."""
    total = duplicated = 0
    pending = [""]
    while pending:
        schedule = pending.pop()
        sim = Race(params)
        for name in schedule:
            sim.act("step", worker=name)
        if sim.finished:
            total += 1
            duplicated += bool(sim.duplicates())
            continue
        pending += [schedule + name for name, worker in sim.workers.items()
                    if worker.step != "finished"]
    return total, duplicated


@pytest.mark.parametrize("claim, jobs", [("naive", 1), ("atomic", 1), ("atomic", 2)])
def test_the_shared_count_agrees_with_brute_force(claim, jobs):
    params = {"claim": claim, "jobs": jobs}
    assert explore(Race(params)) == brute_force(params)


@pytest.mark.parametrize("jobs", [1, 2, 3, 4, 5])
def test_the_naive_claim_has_interleavings_that_send_a_duplicate(jobs):
    total, duplicated = explore(Race({"claim": "naive", "jobs": jobs}))
    assert total > 1 and 0 < duplicated < total


@pytest.mark.parametrize("jobs", [1, 2, 3, 4, 5])
def test_no_interleaving_of_the_atomic_claim_sends_a_duplicate(jobs):
    total, duplicated = explore(Race({"claim": "atomic", "jobs": jobs}))
    assert total > 1 and duplicated == 0


def test_the_counts_for_one_job_match_a_count_by_hand():
    """Naive, one job. If one worker looks and grabs before the other looks, the other's
    look finds nothing and it stops: its single statement fits in any of the 4 gaps after
    the winner's grab (look, grab, send, done, final look), so 2 x 4 = 8 clean orders. If
    both look before either grabs, both run all 5 statements: the two looks come first in
    2 orders, then the remaining 4 + 4 statements interleave in C(8, 4) = 70 ways, so
    2 x 70 = 140 orders send two emails. Atomic: the winner's claim, send, ack and final
    claim with the loser's one claim anywhere after the winner's: 2 x 4 = 8, all clean."""
    assert explore(Race({"claim": "naive", "jobs": 1})) == (148, 140)
    assert explore(Race({"claim": "atomic", "jobs": 1})) == (8, 0)


def test_look_look_grab_grab_sends_two_emails():
    sim = Race({"claim": "naive", "jobs": 1})
    for name in "ABAB":
        sim.act("step", worker=name)
    assert [row["attempts"] for row in sim.snapshot()["jobs"]] == [2]
    for name in "ABABAB":
        sim.act("step", worker=name)
    snap = sim.snapshot()
    assert snap["finished"]
    assert snap["outcome"] == "ada@example.com got 2 emails (from A and B)."
    assert snap["duplicates"] == {"ada@example.com": ["A", "B"]}


def test_one_worker_at_a_time_is_fine_even_when_naive():
    sim = Race({"claim": "naive", "jobs": 2})
    while sim.workers["A"].step != "finished":
        sim.act("step_a")
    sim.act("step_b")
    snap = sim.snapshot()
    assert snap["finished"] and snap["duplicates"] == {}
    assert snap["outcome"] == "2 emails sent: every address got exactly one."


def test_the_atomic_claim_splits_the_jobs():
    sim = Race({"claim": "atomic", "jobs": 2})
    sim.act("step_a")
    sim.act("step_b")
    workers = {w["name"]: w["job"] for w in sim.snapshot()["workers"]}
    assert workers == {"A": 1, "B": 2}


def test_the_snapshot_shows_the_sql_each_worker_runs_next():
    sim = Race({"claim": "naive", "jobs": 1})
    sim.act("step_a")
    nexts = {w["name"]: w["next"] for w in sim.snapshot()["workers"]}
    assert nexts["A"] == {"kind": "sql", "text": "UPDATE jobs SET status = 'running', "
                                                 "attempts = attempts + 1, locked_until = :now + "
                                                 ":lease WHERE id = 1"}
    assert nexts["B"]["text"].startswith("SELECT id, args FROM jobs WHERE status = 'queued'")
    atomic = Race({"claim": "atomic"}).snapshot()
    assert atomic["workers"][0]["next"]["text"].startswith("UPDATE jobs")
    assert "RETURNING" in atomic["workers"][0]["next"]["text"]


def test_play_mode_is_a_seeded_interleaving():
    def play(seed):
        sim = Race({"claim": "naive", "jobs": 3}, seed=seed)
        while sim.step():
            pass
        return json.dumps(sim.snapshot())
    assert play(1) == play(1)
    assert len({play(seed) for seed in range(6)}) > 1


def test_a_finished_worker_cannot_step():
    sim = Race({"claim": "atomic", "jobs": 1})
    for _ in range(4):
        sim.act("step_a")
    with pytest.raises(ParamError, match="worker A has finished"):
        sim.act("step_a")
    with pytest.raises(ParamError, match="must be A or B"):
        sim.act("step", worker="C")


# --- the picture's keys (read at a glance) ----------------------------------------------------------------

def test_every_mark_a_row_shows_is_in_the_legend_and_a_double_take_is_red():
    """Shot 09: the marks were red on a row both took, the legend showed only a dark "took it".
    Each mark carries its legend kind; a take on a row two took is "took-twice"."""
    sim = Race({"claim": "naive", "jobs": 2, "workers": 3})
    legend = [kind["mark"] for kind in sim.snapshot()["mark_legend"]]
    assert legend == ["looked", "took", "took-twice"]
    seen = set()
    for name in "ABCABCABCABCABCABCABC":
        if sim.workers[name].step != "finished":
            sim.act("step", worker=name)
        for row in sim.snapshot()["jobs"]:
            for mark in row["marks"]:
                seen.add(mark["mark"])
                twice = row["flag"] == "taken-twice" and mark["hold"] == "took"
                assert mark["mark"] == ("took-twice" if twice else mark["hold"]), (row, mark)
    assert seen == set(legend)


def test_a_row_whose_email_went_out_twice_says_so():
    """Shot 10: the caption said only "both took job 1" while the email had gone out twice."""
    sim = Race({"claim": "naive", "jobs": 1})
    for name in "ABAB":
        sim.act("step", worker=name)
    assert sim.snapshot()["jobs"][0]["flag_words"] == "A and B both took job 1"
    sim.act("step", worker="A")                                   # A sends: one email so far
    assert sim.snapshot()["jobs"][0]["flag_words"] == "A and B both took job 1"
    sim.act("step", worker="B")                                   # B sends it again
    assert sim.snapshot()["jobs"][0]["flag_words"] == ("A and B both took job 1: "
                                                       "ada got the welcome email twice")
