"""The casebook (content/12-casebook.md): each replayed incident's two embeds give the numbers the
chapter quotes, the failure with the parameters as it happened and the correct outcome with the fix.

The parameters are read from the chapter's own embeds, section by section, so the text and the test
cannot drift apart: change an embed and the number it claims is checked again.
"""
import re
from pathlib import Path

import pytest

from simulations import SIMULATIONS

CHAPTER = Path(__file__).resolve().parents[2] / "content" / "12-casebook.md"
EMBED = re.compile(r"^```sim ([a-z-]+)(?: id=([a-z0-9-]+))?\n(.*?)\n---\n", re.S | re.M)


def embeds(heading, prefix=""):
    """The (simulation name, params) of each embed in the `## heading` section, in order; with
    `prefix`, only the embeds whose id starts with it (a section that tells two cases)."""
    text = CHAPTER.read_text(encoding="utf-8")
    section = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section, f"the casebook has no section {heading!r}"
    found = []
    for name, ident, body in EMBED.findall(section.group(1)):
        if ident.startswith(prefix):
            found.append((name, dict(line.split(": ", 1) for line in body.splitlines())))
    assert len(found) == 2, f"{heading!r}: expected two embeds (as it happened, with the fix), found {len(found)}"
    return found


def build(embed):
    name, params = embed
    return SIMULATIONS[name](params)


def run_to_the_end(sim):
    for _ in range(10_000):
        if not sim.step():
            return sim.snapshot()
    raise AssertionError("the simulation did not finish")


def live_queue_at(embed, seconds):
    sim = build(embed)
    while not sim.run(until=seconds):   # run() covers at most 60 s per call
        pass
    return sim.stats()


def test_oban_two_orphans_stay_running_until_the_lease_is_short():
    as_it_happened, fixed = embeds("Stuck as running: Oban's orphaned jobs")
    assert as_it_happened[1]["lease"] == "600" and fixed[1]["lease"] == "10"
    assert {k: v for k, v in as_it_happened[1].items() if k != "lease"} == \
           {k: v for k, v in fixed[1].items() if k != "lease"}, "only the lease may differ"
    stats = live_queue_at(as_it_happened, 60)
    assert (stats["done"], stats["running"]) == (4, 2)
    stats = live_queue_at(fixed, 60)
    assert (stats["done"], stats["running"]) == (6, 0)


def test_sidekiq_pop_loses_the_email_and_ack_after_work_sends_it_once():
    as_it_happened, fixed = embeds("Popped and lost: Sidekiq's BRPOP and Kafka's auto-commit", "popped-")
    lost = run_to_the_end(build(as_it_happened))
    assert (lost["result"], lost["effects"]) == ("lost", 0)
    assert lost["jobs"][0]["status"] == "done"
    once = run_to_the_end(build(fixed))
    assert (once["result"], once["effects"]) == ("exactly once", 1)


def test_pretix_four_emails_by_70_seconds_and_one_with_a_longer_lease():
    as_it_happened, fixed = embeds("Four hours of work, a one-hour lease: pretix")
    assert as_it_happened[1]["duration"] == fixed[1]["duration"] == "36"
    stats = live_queue_at(as_it_happened, 70)
    # Not done: still running, or dead once the delivery cap (issue 20) has counted five claims.
    assert (stats["emails_sent"], stats["done"]) == (4, 0)
    stats = live_queue_at(fixed, 70)
    assert (stats["emails_sent"], stats["done"]) == (1, 1)


def test_pretix_fixed_job_is_done_36_seconds_after_its_claim():
    _, fixed = embeds("Four hours of work, a one-hour lease: pretix")
    assert live_queue_at(fixed, 36.0)["done"] == 0    # claimed at 0.1 s, the first step
    assert live_queue_at(fixed, 36.1)["done"] == 1


def test_hypothesis_crash_after_the_email_sends_it_twice_and_the_key_absorbs_it():
    as_it_happened, fixed = embeds("Fifty emails, sent again: Hypothesis's digests", "digests-")
    twice = run_to_the_end(build(as_it_happened))
    assert (twice["result"], twice["effects"]) == ("duplicated", 2)
    once = run_to_the_end(build(fixed))
    assert (once["result"], once["effects"], once["absorbed"]) == ("exactly once", 1, 1)


def test_adyen_a_key_per_attempt_overcharges_30_dollars_and_a_stable_key_none():
    as_it_happened, fixed = embeds("A key that changes with every try: Adyen and akash")
    ledger = run_to_the_end(build(as_it_happened))["ledger"]
    assert (ledger["lost_replies"], ledger["overcharge"]) == (3, 30)
    ledger = run_to_the_end(build(fixed))["ledger"]
    assert (ledger["lost_replies"], ledger["overcharge"]) == (3, 0)   # the same bad luck, absorbed


def test_djjob_naive_claim_sends_three_emails_for_two_jobs_and_atomic_two():
    as_it_happened, fixed = embeds("Two workers, one job: djjob and Akeneo")
    naive = run_to_the_end(build(as_it_happened))
    assert len(naive["emails"]) == 3 and naive["duplicates"] == {"alan@example.com": ["B", "A"]}
    atomic = run_to_the_end(build(fixed))
    assert len(atomic["emails"]) == 2 and atomic["duplicates"] == {}


@pytest.mark.parametrize("heading", [
    "Retries that arrive together: Sidekiq's splay",
    "Poison: the job that comes back for ever",
])
def test_cases_without_a_replay_embed_nothing_and_name_an_exercise(heading):
    text = CHAPTER.read_text(encoding="utf-8")
    section = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.S | re.M).group(1)
    assert "```sim" not in section
    assert re.search(r"\(\.\./code/[\w/]+\.py\)", section), "name the exercise that comes closest"


def test_kafka_auto_commit_loses_the_message_and_a_commit_after_the_work_does_not():
    as_it_happened, fixed = embeds("Popped and lost: Sidekiq's BRPOP and Kafka's auto-commit", "kafka-")
    assert as_it_happened[1]["policy"] == "auto-commit" and fixed[1]["policy"] == "ack-after-work"
    lost = run_to_the_end(build(as_it_happened))
    assert (lost["result"], lost["effects"]) == ("lost", 0)
    assert lost["jobs"][0]["status"] == "done" and lost["jobs"][0]["attempts"] == 1   # nobody retried it
    assert [m["time"] for m in lost["timeline"] if m["kind"] == "ack"] == [0.5]      # the timer, mid-work
    once = run_to_the_end(build(fixed))
    assert (once["result"], once["effects"]) == ("exactly once", 1)


def test_hypothesis_batch_of_50_sent_twice_without_a_record_and_once_with_one():
    as_it_happened, fixed = embeds("Fifty emails, sent again: Hypothesis's digests", "fifty-")
    assert as_it_happened[1]["batch"] == fixed[1]["batch"] == "50"
    assert {k: v for k, v in fixed[1].items() if k != "marker"} == as_it_happened[1], "only the record differs"
    twice = run_to_the_end(build(as_it_happened))
    assert (twice["result"], twice["effects"]) == ("duplicated", 100)
    once = run_to_the_end(build(fixed))
    assert (once["result"], once["effects"]) == ("exactly once", 50)


def test_queue_classic_enqueue_before_commit_finds_no_row_and_after_commit_sends_the_email():
    heading = "The job that ran too early, and the job that never was"
    as_it_happened, fixed = embeds(heading, "qc-")
    assert {k: v for k, v in fixed[1].items() if k != "enqueue"} == \
           {k: v for k, v in as_it_happened[1].items() if k != "enqueue"}, "only the enqueue differs"
    early = run_to_the_end(build(as_it_happened))
    assert (early["result"], early["effects"], early["jobs"][0]["status"]) == ("lost", 0, "dead")
    claimed = [m["time"] for m in early["timeline"] if m["kind"] == "claim"]
    committed = [m["time"] for m in early["timeline"] if m["kind"] == "ack"]
    assert claimed == [0.75] and committed == [1.5]   # the job ran three quarters of a second early
    later = run_to_the_end(build(fixed))
    assert (later["result"], later["effects"]) == ("exactly once", 1)


def test_brandur_crash_after_the_commit_loses_the_job_and_the_outbox_keeps_it():
    heading = "The job that ran too early, and the job that never was"
    as_it_happened, fixed = embeds(heading, "brandur-")
    assert as_it_happened[1]["fault"] == fixed[1]["fault"] == "crash"
    lost = run_to_the_end(build(as_it_happened))
    assert (lost["result"], lost["effects"], lost["jobs"]) == ("lost", 0, [])
    kept = run_to_the_end(build(fixed))
    assert (kept["result"], kept["effects"]) == ("exactly once", 1)
