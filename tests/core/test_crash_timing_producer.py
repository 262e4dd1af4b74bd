"""crash-timing's producer scenario: a web request (A) writes Ada's row and enqueues her
welcome email before its commit, after it, or in the same transaction (the outbox), with a crash
or a rollback between the two; worker B sends the email if it finds her row."""
import pytest

from simulations import CrashTiming

# (enqueue, fault) -> (result, emails, job status or None when no job was enqueued)
TABLE = {
    # the job is visible before the row: B runs it at 0.75 s, the commit comes at 1.5 s
    ("before-commit", "none"): ("lost", 0, "dead"),
    ("before-commit", "crash"): ("orphaned", 0, "dead"),
    ("before-commit", "rollback"): ("orphaned", 0, "dead"),
    ("after-commit", "none"): ("exactly once", 1, "done"),
    # the row is committed, the process dies before it enqueues: nothing will send the email
    ("after-commit", "crash"): ("lost", 0, None),
    ("after-commit", "rollback"): ("consistent", 0, None),
    # the outbox: the row and the job commit together, or neither does
    ("same-transaction", "none"): ("exactly once", 1, "done"),
    ("same-transaction", "crash"): ("exactly once", 1, "done"),
    ("same-transaction", "rollback"): ("consistent", 0, None),
}


def finish(params):
    sim = CrashTiming({"scenario": "producer", **params})
    while not sim.run(until=1000):
        pass
    return sim, sim.snapshot()


@pytest.mark.parametrize("enqueue, fault", sorted(TABLE))
def test_each_place_of_the_enqueue_and_each_fault(enqueue, fault):
    sim, snap = finish({"enqueue": enqueue, "fault": fault})
    result, emails, status = TABLE[enqueue, fault]
    assert (snap["result"], snap["effects"]) == (result, emails)
    assert [job["status"] for job in snap["jobs"]] == ([status] if status else [])
    assert snap["params"]["crash"] == "none" and snap["scenario_note"].startswith("Here worker A is")
    assert snap["verdict"]["words"] == snap["outcome"].split(":")[0]


def test_the_early_job_finds_no_row_before_the_commit():
    _, snap = finish({"enqueue": "before-commit"})
    told = [(m["time"], m["worker"], m["kind"]) for m in snap["timeline"]]
    assert told == [(0.0, "A", "effect"), (0.5, "A", "effect"), (0.75, "B", "claim"),
                    (0.75, "B", "refused"), (1.5, "A", "ack")]
    assert snap["outcome"] == "Lost: Ada's row is committed; her job is dead; 0 emails sent."
    assert [step["label"] for step in snap["steps"]] == [
        "insert Ada's row (not committed)", "enqueue the email job", "commit"]


def test_a_crash_after_the_commit_and_before_the_enqueue_loses_the_job():
    _, snap = finish({"enqueue": "after-commit", "fault": "crash"})
    assert snap["outcome"] == "Lost: Ada's row is committed; no job was ever enqueued; 0 emails sent."
    assert snap["workers"][0]["state"] == "killed"


def test_the_reader_can_kill_the_request_before_its_commit_and_nothing_of_it_stays():
    sim = CrashTiming({"scenario": "producer", "enqueue": "same-transaction"})
    sim.run(until=0.6)                   # the row and the job are written, not committed
    sim.act("crash", worker="A")
    while sim.step():
        pass
    assert (sim.result(), sim.effects(), sim.job_rows()) == ("consistent", 0, [])
    assert "A's open transaction is rolled back: Ada's row and her job are gone" in [
        m["text"] for m in sim.timeline]


def test_killing_the_worker_that_holds_the_job_leaves_it_unfinished():
    sim = CrashTiming({"scenario": "producer", "enqueue": "after-commit"})
    sim.run(until=1.5)                   # B claimed at 1.25 s and is working
    sim.act("crash", worker="B")
    while sim.step():
        pass
    assert sim.result() == "unfinished" and sim.job_rows()[0]["status"] == "running"


def test_a_producer_run_replays_exactly_and_ends():
    def run():
        sim, snap = finish({"enqueue": "before-commit", "fault": "rollback"})
        return [m["text"] for m in snap["timeline"]], snap["outcome"], snap["finished"]
    assert run() == run() and run()[2]
