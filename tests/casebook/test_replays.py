"""The casebook (content/19-casebook.md): each replayed incident's two embeds give the numbers the
chapter quotes, the failure with the parameters as it happened and the correct outcome with the fix.

The parameters are read from the chapter's own embeds, section by section, so the text and the test
cannot drift apart: change an embed and the number it claims is checked again.
"""
import re
from pathlib import Path

import pytest

from builder.markdown.sim import pair_words
from simulations import SIMULATIONS

CHAPTER = Path(__file__).resolve().parents[2] / "content" / "19-casebook.md"
EMBED = re.compile(r"^```sim ([a-z-]+)(?: id=([a-z0-9-]+))?\n(.*?)\n---\n", re.S | re.M)


def embeds(heading, prefix="", pair=0):
    """The (simulation name, params) of the `pair`-th two embeds (as it happened, with the fix) in
    the `## heading` section, in order; with `prefix`, only the embeds whose id starts with it (a
    section that tells two cases)."""
    text = CHAPTER.read_text(encoding="utf-8")
    section = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section, f"the casebook has no section {heading!r}"
    found = []
    for name, ident, body in EMBED.findall(section.group(1)):
        if ident.startswith(prefix):
            params = dict(line.split(": ", 1) for line in body.splitlines())
            fix = params.pop("compare", None)
            found.append((name, params))
            if fix:   # one embed, two runs: the fix's `compare:` words on top
                found.append((name, {**params, **pair_words(fix)[1]}))
    assert found and len(found) % 2 == 0, \
        f"{heading!r}: expected pairs of embeds (as it happened, with the fix), found {len(found)}"
    assert len(found) >= 2 * pair + 2, f"{heading!r}: no pair {pair}"
    return found[2 * pair:2 * pair + 2]


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
    # Not done: still running, or dead once the delivery cap has counted five claims.
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
    as_it_happened, fixed = embeds("Duplicate authorizations after a timeout: Adyen")
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


def only_differ_in(pair, *names):
    (_, failure), (_, fix) = pair
    assert {k: v for k, v in failure.items() if k not in names} == \
           {k: v for k, v in fix.items() if k not in names}, f"only {names} may differ"


def test_oban_deploy_leaves_two_jobs_running_and_handing_them_back_leaves_none():
    pair = embeds("Stuck as running: Oban's orphaned jobs", pair=1)
    only_differ_in(pair, "hand_back")
    as_it_happened, fixed = pair
    assert as_it_happened[1]["shutdown_grace"] == "15"   # Oban's default (oban#1076)
    stats = live_queue_at(as_it_happened, 70)
    assert (stats["running"], stats["done"], stats["handed_back"]) == (2, 0, 0)
    stats = live_queue_at(fixed, 70)
    assert (stats["running"], stats["done"], stats["handed_back"]) == (0, 2, 2)
    assert stats["emails_sent"] == 2   # handed back before the email: no duplicate


def test_pretix_heartbeats_send_one_email_and_bring_a_dead_workers_job_back_soon():
    pair = embeds("Four hours of work, a one-hour lease: pretix", pair=1)
    only_differ_in(pair, "heartbeat")
    as_it_happened, fixed = pair
    stats = live_queue_at(as_it_happened, 70)
    assert (stats["emails_sent"], stats["done"], stats["heartbeats"]) == (4, 0, 0)
    stats = live_queue_at(fixed, 70)
    assert (stats["emails_sent"], stats["done"]) == (1, 1)
    assert live_queue_at(fixed, 36.0)["done"] == 0 and live_queue_at(fixed, 36.1)["done"] == 1
    # the chapter's claim: worker 1 killed at 20 s, job 1 claimed again at 22.2 s
    sim = build(fixed)
    sim.run(until=20)
    sim.act("kill", worker=1)
    sim.run(until=22.1)
    assert sim.job_rows()[0]["attempts"] == 1
    sim.run(until=22.2)
    assert sim.job_rows()[0]["attempts"] == 2
    # and with the reaper's grace at 7 (renewals 10 s ahead): claimed again at 28.2 s
    name, params = fixed
    sim = build((name, {**params, "grace": "7"}))
    sim.run(until=20)
    sim.act("kill", worker=1)
    sim.run(until=28.1)
    assert sim.job_rows()[0]["attempts"] == 1
    sim.run(until=28.2)
    assert sim.job_rows()[0]["attempts"] == 2


def test_sidekiq_poison_pill_kills_24_workers_counting_failures_and_3_counting_claims():
    pair = embeds("Poison: the job that comes back for ever", pair=0)
    only_differ_in(pair, "cap_counts")
    as_it_happened, fixed = pair
    assert as_it_happened[1]["max_attempts"] == "3"   # sidekiq#4633: 3 recoveries
    stats = live_queue_at(as_it_happened, 120)
    assert (stats["poison_kills"], stats["dead"], stats["done"]) == (24, 0, 2)
    sim = build(as_it_happened)
    while not sim.run(until=120):
        pass
    assert sim.job_rows()[0]["attempts"] == 24   # what the table shows
    stats = live_queue_at(fixed, 120)
    assert (stats["poison_kills"], stats["dead"], stats["done"]) == (3, 1, 2)


def test_enqueue_sqs_requeue_as_new_never_dies_and_leaving_it_makes_it_dead():
    pair = embeds("Poison: the job that comes back for ever", pair=1)
    only_differ_in(pair, "cap_counts")
    as_it_happened, fixed = pair
    stats = live_queue_at(as_it_happened, 120)
    assert (stats["poison_claims"], stats["dead"]) == (44, 0)
    stats = live_queue_at(fixed, 120)
    assert (stats["poison_claims"], stats["dead"]) == (5, 1)


def test_sidekiq_splay_the_last_job_is_done_at_73_8_without_jitter_and_23_2_with_it():
    pair = embeds("Retries that arrive together: Sidekiq's splay")
    only_differ_in(pair, "jitter")
    results = []
    for embed in pair:
        sim = build(embed)
        snapshot = run_to_the_end(sim)
        results.append((snapshot["time"], snapshot["stats"]["done"], snapshot["stats"]["attempts_per_job"]))
    assert results == [(73.8, 64, 1.922), (23.2, 64, 1.578)]


def test_akash_no_key_charges_one_order_three_times_and_a_key_renewed_after_a_decline_once():
    heading = "Charged three times, then refused: akash and odoo"
    as_it_happened, fixed = embeds(heading)
    assert {k: v for k, v in as_it_happened[1].items() if k != "key"} == \
           {k: v for k, v in fixed[1].items() if k != "key"}, "only the key may differ"
    assert (as_it_happened[1]["key"], fixed[1]["key"]) == ("none", "rotate-after-decline")
    before = run_to_the_end(build(as_it_happened))
    ledger = before["ledger"]
    assert (ledger["most_charges_for_one_order"], ledger["declines"]) == (3, 2)
    assert [job["charged"] for job in before["jobs"]] == [3, 1, 1, 1, 1]   # order 1, three times
    after = run_to_the_end(build(fixed))
    ledger = after["ledger"]
    assert (ledger["most_charges_for_one_order"], ledger["duplicate_charges"]) == (1, 0)
    assert (ledger["declines"], ledger["jobs"]["done"], ledger["duplicates_absorbed"]) == (2, 5, 2)
    # The text's third run: the same key kept after a decline leaves orders 2 and 3 unpaid.
    kept = run_to_the_end(build(("payments", {**fixed[1], "key": "stable"})))
    ledger = kept["ledger"]
    assert (ledger["overcharge"], ledger["declines_replayed"]) == (0, 5)
    assert [job["order"] for job in kept["jobs"] if job["status"] == "dead"] == [2, 3]
    assert all(job["charged"] == 0 for job in kept["jobs"] if job["status"] == "dead")


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


def test_akeneo_ten_workers_send_13_emails_for_5_jobs_and_the_atomic_claim_5():
    as_it_happened, fixed = embeds("Ten daemons at once: Akeneo")
    assert as_it_happened[1]["workers"] == fixed[1]["workers"] == "10"
    assert {k: v for k, v in as_it_happened[1].items() if k != "claim"} == \
           {k: v for k, v in fixed[1].items() if k != "claim"}, "only the claim may differ"
    naive = run_to_the_end(build(as_it_happened))
    assert len(naive["emails"]) == 13
    copies = {address: len(names) for address, names in naive["duplicates"].items()}
    assert copies["alan@example.com"] == copies["grace@example.com"] == 4   # as the chapter says
    assert "ada@example.com" not in copies
    atomic = run_to_the_end(build(fixed))
    assert len(atomic["emails"]) == 5 and atomic["duplicates"] == {}
    # "Set Workers to 2 with the same seed and the run sends eight"
    two = run_to_the_end(build(("race", {**as_it_happened[1], "workers": "2"})))
    assert len(two["emails"]) == 8


def test_sidekiq_basic_fetch_loses_two_killed_jobs_and_super_fetch_none():
    pair = embeds("Gone without a trace: a Sidekiq job after `kill -9`")
    only_differ_in(pair, "what_if")
    as_it_happened, fixed = pair
    assert as_it_happened[1]["library"] == "sidekiq-basic" and fixed[1]["what_if"] == "true"
    lost = build(as_it_happened)
    while not lost.run(until=60):
        pass
    snapshot = lost.snapshot()
    assert (snapshot["stats"]["done"], snapshot["stats"]["running"]) == (4, 0)
    assert snapshot["delivery"]["lost"] == [2, 3]   # the two the Oban run leaves running
    oban = build(embeds("Stuck as running: Oban's orphaned jobs")[0])
    while not oban.run(until=60):
        pass
    assert [row["id"] for row in oban.job_rows() if row["status"] == "running"] == [2, 3]
    stats = live_queue_at(fixed, 60)
    assert (stats["done"], stats["running"]) == (6, 0)


def live_queue_to_the_end(embed):
    """The snapshot once the run has finished (run() covers 60 s a call; a countdown takes longer)."""
    return live_queue_run_on(build(embed))


def test_notify_a_countdown_past_the_visibility_timeout_runs_four_times_and_within_it_once():
    pair = embeds("Due later, run twice: GOV.UK Notify's nightly tasks")
    only_differ_in(pair, "eta")
    as_it_happened, fixed = pair
    assert as_it_happened[1]["lease"] == "310"   # 5 minutes 10 seconds (notifications-api#4228)
    many = live_queue_to_the_end(as_it_happened)
    assert (many["stats"]["emails_sent"], many["stats"]["done"]) == (4, 1)
    sent = [e["time"] for e in many["events"] if "sent the email for job 1" in e["text"]]
    assert len(sent) == 4 and all(1800 <= t < 1805 for t in sent)   # all at the countdown's end
    once = live_queue_to_the_end(fixed)
    assert (once["stats"]["emails_sent"], once["stats"]["done"]) == (1, 1)


def test_open_food_network_13_emails_in_13_failing_attempts_and_1_with_no_retry():
    pair = embeds("The same email, thirteen times: Open Food Network")
    only_differ_in(pair, "max_attempts")
    as_it_happened, fixed = pair
    retried = run_to_the_end(build(as_it_happened))
    assert (retried["result"], retried["effects"]) == ("dead", 13)
    assert retried["jobs"][0]["attempts"] == 13
    once = run_to_the_end(build(fixed))
    assert (once["result"], once["effects"], once["jobs"][0]["attempts"]) == ("dead", 1, 1)
    # the text's third run: 13 attempts with an idempotency key send one email
    keyed = run_to_the_end(build(("crash-timing", {**as_it_happened[1], "policy": "idempotency-key"})))
    assert (keyed["effects"], keyed["absorbed"], keyed["jobs"][0]["attempts"]) == (1, 12, 13)


def test_asset_manager_a_full_queue_refuses_44_enqueues_with_one_worker_and_none_with_four():
    pair = embeds("Enqueues refused: GOV.UK Asset Manager's migration")
    only_differ_in(pair, "workers")
    as_it_happened, fixed = pair
    sim = build(as_it_happened)
    while not sim.run(until=30):
        pass
    snapshot = sim.snapshot()
    assert snapshot["delivery"]["refused"] == 44 and snapshot["stats"]["depth"] == 20
    first = next(e["time"] for e in snapshot["events"] if "refused" in e["text"])
    assert 10 <= first < 12   # "the queue fills in about ten seconds"
    sim = build(fixed)
    while not sim.run(until=30):
        pass
    assert "delivery" not in sim.snapshot()   # nothing refused


def test_bullmq_a_dropped_lock_sends_two_emails_and_with_no_stalled_retry_one():
    pair = embeds("Could not renew lock: Bull's stalled jobs")
    only_differ_in(pair, "what_if")
    as_it_happened, fixed = pair
    results = []
    for embed in pair:
        sim = build(embed)
        sim.run(until=1.0)
        assert "drop_lock" in sim.snapshot()["workers"][0]["actions"]   # the page offers the button
        sim.act("drop_lock", worker=1)             # "Step to 1 second, then press ... Drop lock"
        results.append(live_queue_run_on(sim))
    twice, once = results
    assert (twice["stats"]["emails_sent"], twice["stats"]["done"]) == (2, 1)
    assert any("but the worker carries on" in e["text"] for e in twice["events"])
    assert (once["stats"]["emails_sent"], once["stats"]["done"], once["stats"]["dead"]) == (1, 0, 1)
    # without the press, each sends its one email: the number is the dropped lock's
    for embed in pair:
        assert live_queue_to_the_end(embed)["stats"]["emails_sent"] == 1


def live_queue_run_on(sim):
    for minute in range(1, 100):
        while not sim.run(until=60 * minute):
            pass
        if sim.finished:
            return sim.snapshot()
    raise AssertionError("the simulation did not finish")
