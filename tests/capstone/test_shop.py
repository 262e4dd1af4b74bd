"""shop.py: the signup transaction, the three handlers, and one worker's loop (in-process)."""
import sqlite3
import subprocess
import sys
import time

import pytest

from tests.capstone.chaosrun import prepare
from tests.support.capstone import forget, import_as_run


@pytest.fixture
def shop(monkeypatch, tmp_path):
    """A fresh shop module whose shop.db and world.db live in an empty folder."""
    module = import_as_run("shop", monkeypatch, tmp_path, also=("world", "tinyq"))
    yield module
    module.queue.close()
    forget("shop", "world", "tinyq")


def jobs(shop):
    return shop.queue.db.execute(
        "SELECT kind, args, status, unique_key FROM jobs ORDER BY id").fetchall()


def customers(shop):
    return shop.queue.db.execute("SELECT email, points FROM customers").fetchall()


def perfect_network(shop):
    shop.world.lose_request = shop.world.lose_reply = 0


def test_signup_writes_the_customer_and_three_jobs(shop):
    shop.signup("ada@example.com")
    assert customers(shop) == [("ada@example.com", 0)]
    assert jobs(shop) == [
        (kind, '{"email": "ada@example.com"}', "queued", f"{kind}:ada@example.com")
        for kind in ("send_welcome_email", "charge_signup_fee", "award_points")]


def test_a_second_signup_for_the_same_email_changes_nothing(shop):
    shop.signup("ada@example.com")
    with pytest.raises(sqlite3.IntegrityError):
        shop.signup("ada@example.com")
    assert len(customers(shop)) == 1 and len(jobs(shop)) == 3
    assert not shop.queue.db.in_transaction


def test_signup_is_all_or_nothing(shop, monkeypatch):
    real_enqueue, calls = shop.queue.enqueue, []

    def enqueue_then_fail(*args, **kwargs):
        calls.append(args[0])
        if len(calls) == 2:
            raise OSError("the disk is full")
        return real_enqueue(*args, **kwargs)

    monkeypatch.setattr(shop.queue, "enqueue", enqueue_then_fail)
    with pytest.raises(OSError):
        shop.signup("ada@example.com")
    assert customers(shop) == [] and jobs(shop) == []      # not even the first job


def test_a_ctrl_c_that_lands_just_after_the_commit_is_not_hidden(shop, monkeypatch):
    """Ctrl-C during COMMIT: Python raises KeyboardInterrupt once the COMMIT has returned, so the
    signup is saved and no transaction is open. A blind ROLLBACK would fail ("no transaction is
    active") and bury the Ctrl-C under a database error; chaos.py could not then stop quietly."""
    real = shop.queue.db

    class CtrlCAfterCommit:
        def __getattr__(self, name):
            return getattr(real, name)

        def execute(self, sql, *params):
            cursor = real.execute(sql, *params)
            if sql == "COMMIT":
                raise KeyboardInterrupt
            return cursor

    monkeypatch.setattr(shop.queue, "db", CtrlCAfterCommit())
    with pytest.raises(KeyboardInterrupt):
        shop.signup("ada@example.com")
    assert customers(shop) == [("ada@example.com", 0)] and len(jobs(shop)) == 3
    assert not real.in_transaction


def test_one_worker_on_a_perfect_network_gets_the_books_right(shop):
    perfect_network(shop)
    for email in ("ada@example.com", "alan@example.com"):
        shop.signup(email)
    shop.work()
    statuses = {status for _, _, status, _ in jobs(shop)}
    assert statuses == {"done"}
    for email in ("ada@example.com", "alan@example.com"):
        assert shop.world.emails_to(email) == 1
        assert shop.world.charged(email) == shop.SIGNUP_FEE
    assert customers(shop) == [("ada@example.com", 10), ("alan@example.com", 10)]


def test_lost_requests_and_replies_are_retried_and_absorbed(shop):
    shop.world.seed = 4
    shop.world.lose_request = shop.world.lose_reply = 0.3
    shop.queue.backoff_base, shop.queue.backoff_cap = 0.001, 0.01
    for n in range(6):
        shop.signup(f"c{n}@example.com")
    shop.work()
    tally = shop.world.tally()
    assert tally["requests lost"] > 0 and tally["replies lost"] > 0
    assert tally["repeats absorbed"] >= tally["replies lost"]
    for n in range(6):
        assert shop.world.emails_to(f"c{n}@example.com") == 1
        assert shop.world.charged(f"c{n}@example.com") == shop.SIGNUP_FEE


class Crash(BaseException):
    """Stands in for os._exit inside one process: not an Exception, so nothing catches it."""


def test_a_crash_inside_award_points_leaves_no_points_and_no_ack(shop, monkeypatch):
    shop.signup("ada@example.com")
    shop.queue.db.execute("UPDATE jobs SET status = 'done' WHERE kind != 'award_points'")

    def crash_inside(job, moment):
        if moment == "in the transaction, before the commit":
            raise Crash(moment)

    monkeypatch.setattr(shop, "maybe_crash", crash_inside)
    shop.queue.lease = 0.05
    with pytest.raises(Crash):
        shop.queue.work_one()
    assert customers(shop) == [("ada@example.com", 0)]        # the points were rolled back
    assert jobs(shop)[2][2] == "running"                      # and the job was not acked
    monkeypatch.setattr(shop, "maybe_crash", lambda job, moment: None)
    time.sleep(0.06)                                          # the lease runs out
    shop.work()
    assert customers(shop) == [("ada@example.com", 10)]
    assert jobs(shop)[2][2] == "done"


def test_maybe_crash_never_fires_without_chaos(shop, monkeypatch):
    def exit_called(status):
        raise AssertionError("os._exit was called")
    monkeypatch.setattr(shop.os, "_exit", exit_called)
    shop.signup("ada@example.com")
    job = shop.queue.claim()
    for attempt in range(50):
        job.attempts = attempt
        shop.maybe_crash(job, "before the email")


def test_maybe_crash_fires_on_the_seeded_dice(shop, monkeypatch, capsys):
    exits = []
    monkeypatch.setattr(shop.os, "_exit", exits.append)
    shop.chaos = 0.5
    shop.signup("ada@example.com")
    job = shop.queue.claim()
    fired = []
    for attempt in range(1, 41):
        job.attempts = attempt
        before = len(exits)
        shop.maybe_crash(job, "before the email")
        fired.append(len(exits) > before)
    assert 10 < sum(fired) < 30 and exits == [shop.CRASHED] * sum(fired)
    assert "CRASH before the email (job 1, attempt" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["work", "--chaos", "0.9"], "--chaos must be between 0 and 0.5, not 0.9"),
    (["work", "--lease", "-1"], "--lease must be a number of seconds above 0, not -1.0"),
    (["play"], "argument command: invalid choice: 'play'"),
])
def test_the_worker_refuses_bad_options_by_name(tmp_path, args, message):
    folder = prepare(tmp_path)
    done = subprocess.run([sys.executable, "shop.py", *args], cwd=folder, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr


def test_an_old_sqlite_is_refused_with_a_clear_message(monkeypatch, tmp_path):
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 31, 1))
    monkeypatch.setattr(sqlite3, "sqlite_version", "3.31.1")
    with pytest.raises(SystemExit, match="needs SQLite 3.35 or newer .* has SQLite 3.31.1"):
        import_as_run("shop", monkeypatch, tmp_path, also=("world", "tinyq"))
    forget("shop")
    assert list(tmp_path.iterdir()) == []          # nothing was written
