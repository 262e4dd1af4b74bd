"""payments' view (simulations/payments/view.py): the words and numbers the widget shows,
decided once in Python. "Alice should have" is the bank's truth (one price per order it
charged), so with a stable key and a bank that loses most replies, where jobs die after the
bank charged, it names what she does owe, not the queue's done jobs."""
import pytest

from simulations import Payments
from tests.support.runs import settle as settled

SEEDS = range(30)


def settle(params, seed):
    return settled(Payments(params, seed=seed))


def figures(snapshot):
    return {f["key"]: f for f in snapshot["view"]["figures"]}


def dollars(text):
    return int(text.replace("\u2212", "-").replace("$", ""))


def test_should_have_is_what_the_bank_charged_once_per_order_even_when_jobs_die():
    """Chapter 8's stable key at reply loss 0.9: jobs die after charging. The queue's books
    say more than she should have; the figure says what she owes, and so equals what she has."""
    differed = 0
    for seed in SEEDS:
        s = settle({"key": "stable", "lose_reply": 0.9, "lose_request": 0.3, "max_attempts": 6,
                    "charges": 5}, seed)
        shown, book = figures(s), s["ledger"]
        should, has = dollars(shown["expected"]["text"]), dollars(shown["actual"]["text"])
        assert should - has == book["overcharge"] == 0, seed   # a stable key: never overcharged
        if book["dead_charged"]:
            differed += 1
            assert should != book["expected_balance"]
            assert "done jobs alone would say" in shown["expected"]["help"]
    assert differed > 0   # the case the words are about did happen


@pytest.mark.parametrize("key", ["none", "per-attempt", "stable"])
def test_the_gap_between_the_balances_is_the_overcharge(key):
    for seed in SEEDS:
        s = settle({"key": key, "max_attempts": 2}, seed)
        shown = figures(s)
        gap = dollars(shown["expected"]["text"]) - dollars(shown["actual"]["text"])
        assert gap == s["ledger"]["overcharge"], seed


def test_jobs_still_to_run_counts_every_unfinished_job_and_dead_says_which_charged():
    sim = Payments({"key": "none", "max_attempts": 2, "charges": 8}, seed=3)
    sim.run(until=0.5)
    s = sim.snapshot()
    jobs = s["ledger"]["jobs"]
    assert figures(s)["queued"]["text"] == str(jobs["queued"] + jobs["running"])
    done = settle({"key": "none", "max_attempts": 1, "lose_reply": 0.5, "charges": 8}, 1)
    dead = figures(done)["dead"]
    book = done["ledger"]
    assert dead["text"] == f"{book['jobs']['dead']} ({book['dead_charged']} charged)"
    assert dead["tone"] == ("bad" if book["dead_charged"] else "")
