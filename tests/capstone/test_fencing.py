"""Chapter 9, pause and check 9.5: what the token catches that the status check cannot.

A stalled worker A wakes up while worker B, which took its job over, is still working. With the
token check kept (the real tinyq), A's fail is refused and B's ack counts. With the token check
cut out of every finishing statement but the status check kept, A's fail sends B's job back to
the queue (or, on A's last attempt, kills it), and B's finished work is refused.
"""
import importlib.util
import random
import sys

import pytest

from tests.capstone.chaosrun import CAPSTONE, tokens_out_of_every_finish


def load_file(path, text):
    path.write_text(text, encoding="utf-8")
    name = f"{path.stem}_{id(path)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module        # dataclasses look their module up while the class is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def load_tinyq(tmp_path, edit=None):
    """A fresh copy of tinyq whose SQL (tinyq_sql.py) has had `edit` applied, if given."""
    sql = (CAPSTONE / "tinyq_sql.py").read_text(encoding="utf-8")
    saved = sys.modules.get("tinyq_sql")
    sys.modules["tinyq_sql"] = load_file(tmp_path / "tinyq_sql_copy.py",
                                         edit(sql) if edit else sql)
    try:
        return load_file(tmp_path / "tinyq_copy.py",
                         (CAPSTONE / "tinyq.py").read_text(encoding="utf-8"))
    finally:
        if saved is None:
            del sys.modules["tinyq_sql"]
        else:
            sys.modules["tinyq_sql"] = saved


def stale_fail(tinyq, max_attempts=5):
    """A claims the job and stalls past its lease; B claims it; A fails; B acks.
    Returns (what A's fail did, the row after it, whether B's ack counted)."""
    now = [0.0]
    queue = tinyq.Queue(":memory:", lease=5, max_attempts=max_attempts, clock=lambda: now[0],
                        rng=random.Random(1))
    queue.enqueue("report", {})
    a = queue.claim()
    now[0] = 6.0                      # A's lease ran out at 5 s
    b = queue.claim()
    assert b.id == a.id and b.token != a.token
    try:
        a_did = queue.fail(a, "ValueError: A's handler raised")
    except tinyq.LeaseLost:
        a_did = "refused"
    row = queue.db.execute("SELECT status, token FROM jobs WHERE id = ?", (a.id,)).fetchone()
    try:
        queue.ack(b)
        b_counted = True
    except tinyq.LeaseLost:
        b_counted = False
    return a_did, row, b_counted


def test_with_the_token_the_stale_fail_is_refused_and_the_new_claim_finishes(tmp_path):
    tinyq = load_tinyq(tmp_path)
    a_did, row, b_counted = stale_fail(tinyq)
    assert a_did == "refused"
    assert row[0] == "running"
    assert b_counted


def test_with_only_the_status_check_the_stale_fail_lands_on_the_new_claim(tmp_path):
    tinyq = load_tinyq(tmp_path, tokens_out_of_every_finish)
    did, row, b_counted = stale_fail(tinyq)
    assert did == "queued"            # back to the queue while B is still working
    assert row[0] == "queued"
    assert not b_counted              # and B's finished work is refused


def test_on_the_last_attempt_nobody_takes_over_the_delivery_cap_makes_it_dead(tmp_path):
    tinyq = load_tinyq(tmp_path, tokens_out_of_every_finish)
    now = [0.0]
    queue = tinyq.Queue(":memory:", lease=5, max_attempts=1, clock=lambda: now[0])
    queue.enqueue("report", {})
    a = queue.claim()
    now[0] = 6.0
    assert queue.claim() is None
    assert queue.db.execute("SELECT status, last_error FROM jobs").fetchone() == (
        "dead", "lease expired on attempt 1 of 1")
    with pytest.raises(tinyq.LeaseLost):   # even without the token check: the job is not running
        queue.fail(a, "ValueError: late")
