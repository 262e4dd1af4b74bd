"""Exercises 7 and 8 run in-process, on a fake clock, with seeds: the claims chapters 6 and 8 make
about the money they charge.

- Chapter 6 says the overcharge is always $10 per lost reply; chapter 8 says a stable key makes
  every charge exact with the very same failures, and that --bad-key overcharges exactly as
  exercise 7 did.
- The seeded runs must retry in the same order however slow the machine is.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import random
import re
import sqlite3
from pathlib import Path

import pytest

from tests.support.clock import FakeClock

ROOT = Path(__file__).resolve().parents[2]
CODE = ROOT / "code"
SEEDS = range(200)           # seeded runs of exercises 7 and 8, on a fake clock (fast)
START = 1_000_000.0          # seconds: where the fake clock of an exercise starts


def load(name: str, monkeypatch, tmp_path: Path, clock: FakeClock | None = None):
    """Import code/<name>.py afresh, working in tmp_path, with a fake clock."""
    monkeypatch.chdir(tmp_path)
    spec = importlib.util.spec_from_file_location(f"part2_{name}", CODE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "time", clock or FakeClock(START))
    open_queue = module.open_queue

    def open_queue_unsynced():
        # Speed only: these tests count money, not crashes, so the disk need not be synced.
        db = open_queue()
        db.execute("PRAGMA synchronous = OFF")
        return db
    monkeypatch.setattr(module, "open_queue", open_queue_unsynced)
    return module


def commands(module, *argvs) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for argv in argvs:
            module.main(list(argv))
    return out.getvalue()


def counts(work_output: str) -> dict:
    last = work_output.strip().splitlines()[-1]
    return {name: int(n) for n, name in re.findall(r"(\d+) (\w+)", last.split(":", 1)[1])}


def overcharge(report: str) -> int:
    found = re.search(r"overcharged by \$(\d+)", report)
    return int(found.group(1)) if found else 0


class Recorder(random.Random):
    """A seeded generator that remembers what the bank drew for each attempt, so that a test can
    see which failures were lost requests and which were lost replies (the worker cannot)."""

    def __init__(self):
        super().__init__()
        self.rolls = []

    def random(self):
        roll = super().random()
        self.rolls.append(roll)
        return roll

    def uniform(self, a, b):
        # Jitter's draws (the same formula as random.Random.uniform), left out of the record.
        return a + (b - a) * super().random()


def test_the_worker_cannot_tell_a_lost_request_from_a_lost_reply(monkeypatch, tmp_path):
    """Both end in the same logged failure; only the bank's balance shows that each lost reply
    cost Alice $10 and each lost request nothing."""
    ex07 = load("ex07_retries", monkeypatch, tmp_path)
    seen_overcharge = seen_dead = seen_lost_request = 0
    for seed in SEEDS:
        recorder = Recorder()
        monkeypatch.setattr(ex07, "rng", recorder)
        work = commands(ex07, ["setup"], ["work", "--seed", str(seed)])
        report = commands(ex07, ["report"])
        failures = [line.split(":", 1)[1].split(";")[0] for line in work.splitlines()
                    if line.startswith(("fail ", "dead "))]
        lost_request = [r for r in recorder.rolls if r < ex07.LOSE_REQUEST]
        lost_reply = [r for r in recorder.rolls
                      if ex07.LOSE_REQUEST <= r < ex07.LOSE_REQUEST + ex07.LOSE_REPLY]
        assert len(failures) == len(lost_request) + len(lost_reply), (seed, work)
        assert set(failures) <= {" TimeoutError: bank did not answer"}, (seed, work)
        assert overcharge(report) == 10 * len(lost_reply), (seed, work, report)
        statuses = re.findall(r"^\s+\d+\s+(\w+)", report, re.MULTILINE)
        assert len(statuses) == 5 and set(statuses) <= {"done", "dead"}, (seed, report)
        seen_overcharge += overcharge(report) > 0
        seen_dead += "dead" in statuses
        seen_lost_request += bool(lost_request)
    # The seeds cover both cases, and runs where some timeouts were harmless.
    assert seen_overcharge > len(SEEDS) // 2 and seen_dead > 0 and seen_lost_request > 0


def test_a_stable_key_meets_the_same_failures_and_charges_each_order_at_most_once(
        monkeypatch, tmp_path):
    ex07 = load("ex07_retries", monkeypatch, tmp_path)
    ex08 = load("ex08_idempotency", monkeypatch, tmp_path)
    absorbed_somewhere = False
    for seed in SEEDS:
        before = commands(ex07, ["setup"], ["work", "--seed", str(seed)])
        after = commands(ex08, ["setup"], ["work", "--seed", str(seed)])
        bank_lines = [line for line in after.splitlines() if line.startswith("bank ")]
        # The same attempts, outcomes and order: only the bank's own lines are new.
        assert [line for line in after.splitlines() if not line.startswith("bank ")] \
            == before.splitlines(), seed
        absorbed_somewhere |= bool(bank_lines)
        db = sqlite3.connect("ex08.db")
        (balance,) = db.execute("SELECT balance FROM accounts").fetchone()
        keys = {key for (key,) in db.execute("SELECT key FROM bank_keys")}
        done = {f"charge-order-{json.loads(args)['order']}" for (args,) in db.execute(
            "SELECT args FROM jobs WHERE status = 'done'")}
        db.close()
        assert balance == 100 - 10 * len(keys), seed     # one charge per remembered key
        assert done <= keys, seed                          # every done order was charged
        report = commands(ex08, ["report"])
        if "dead" not in report:
            assert overcharge(report) == 0 and balance == 50, seed
    assert absorbed_somewhere


def test_a_new_key_each_attempt_overcharges_exactly_as_exercise_7_did(monkeypatch, tmp_path):
    ex07 = load("ex07_retries", monkeypatch, tmp_path)
    ex08 = load("ex08_idempotency", monkeypatch, tmp_path)
    for seed in SEEDS:
        commands(ex07, ["setup"], ["work", "--seed", str(seed)])
        commands(ex08, ["setup"], ["work", "--seed", str(seed), "--bad-key"])
        assert overcharge(commands(ex08, ["report"])) == overcharge(commands(ex07, ["report"])), seed


def test_the_bad_key_switch_is_what_breaks_it(monkeypatch, tmp_path):
    """The same seed with and without --bad-key: only the switch differs, and only it overcharges."""
    ex08 = load("ex08_idempotency", monkeypatch, tmp_path)
    commands(ex08, ["setup"], ["work", "--seed", "7"])
    assert overcharge(commands(ex08, ["report"])) == 0
    commands(ex08, ["setup"], ["work", "--seed", "7", "--bad-key"])
    assert overcharge(commands(ex08, ["report"])) == 50


@pytest.mark.parametrize("name", ["ex07_retries", "ex08_idempotency"])
def test_a_seeded_run_retries_in_the_same_order_however_busy_the_machine(
        name, monkeypatch, tmp_path):
    runs = set()
    for noise_seed in range(8):
        module = load(name, monkeypatch, tmp_path, FakeClock(START, noise=0.03, seed=noise_seed))
        runs.add(commands(module, ["setup"], ["work", "--seed", "7"]))
    assert len(runs) == 1


def test_scheduling_retries_from_the_wall_clock_would_not_be_repeatable(monkeypatch, tmp_path):
    """The control for the test above: the same noise reorders a worker that schedules a retry
    from the time it read on the clock, rather than from the moment the attempt was due."""
    runs = set()
    for noise_seed in range(8):
        clock = FakeClock(START, noise=0.03, seed=noise_seed)
        ex07 = load("ex07_retries", monkeypatch, tmp_path, clock)
        fail = ex07.fail
        monkeypatch.setattr(ex07, "fail", lambda db, job_id, attempts, error, now:
                            fail(db, job_id, attempts, error, clock.time()))
        runs.add(commands(ex07, ["setup"], ["work", "--seed", "7"]))
    assert len(runs) > 1
