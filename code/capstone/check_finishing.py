"""The checks of stages 2 and 3, for check.py: the ways a claim is finished.

Stage 2 fails jobs and watches their backoff, jitter and dead letters. Stage 3 plays
the scene from chapter 5: worker A's lease runs out while it is still working, worker B
claims the job, and A then tries to finish it. Stage 4 is in check_complete.py. Times
are seconds.
"""
import sqlite3

from check_stages import (SETTINGS, Problem, check, claim_one, expect, expect_refused,
                          expect_status, lease_lost_class, queues, row, rows_in, stolen)


# --- stage 2: fail, with backoff, jitter and dead letters -------------------------------------

def wait_after_fail(path, job_id, failed_at):
    return row(path, job_id)["run_at"] - failed_at


@check(2, "fail() puts the job back to queued and keeps the error")
def fail_requeues(tinyq, path, rng):
    q, _ = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "ada"})
    said = q.fail(claim_one(q), "ConnectionError: mail server down")
    expect_status(path, 1, "queued", "fail() on its first attempt", q)
    expect(said == "queued", f"fail() returned {said!r}; it should return 'queued' for a retry")
    error = row(path, 1)["last_error"]
    expect(error is not None and "mail server down" in error,
           f"after fail(), last_error is {error!r}; it should hold the error given to fail()")


@check(2, "a failed job waits out its backoff, which doubles up to the cap, with jitter")
def backoff_doubles(tinyq, path, rng):
    q, clock = queues(tinyq, path, rng, max_attempts=6)
    q.enqueue("email", {"to": "ada"})
    base, cap = SETTINGS["backoff_base"], SETTINGS["backoff_cap"]
    for attempt in range(1, 5):
        job = claim_one(q, f"claim() of job 1 for attempt {attempt}")
        q.fail(job, "TimeoutError: no answer")
        delay = min(cap, base * 2 ** (attempt - 1))
        wait = wait_after_fail(path, 1, clock())
        expect(delay / 2 - 1e-9 <= wait <= delay + 1e-9,
               f"after failed attempt {attempt}, job 1 waits {wait:.2f} seconds; with "
               f"backoff_base {base} and backoff_cap {cap} it should wait between "
               f"{delay / 2:.2f} and {delay:.2f} (the backoff {delay:.2f}, jittered)")
        clock.advance(wait - 0.01)
        expect(q.claim() is None, f"job 1 was claimed again {wait - 0.01:.2f} seconds after "
                                  f"failed attempt {attempt}, before its backoff had passed")
        clock.advance(0.01)


@check(2, "jitter spreads out jobs that failed together, using the rng you pass in")
def jitter_spreads(tinyq, path, rng):
    runs = []
    for copy in range(2):
        seeded = type(rng)(7)
        q, clock = queues(tinyq, path.with_suffix(f".{copy}.db"), seeded)
        for n in range(5):
            q.enqueue("email", {"n": n})
        for _ in range(5):
            q.fail(claim_one(q), "503 Service Unavailable")
        runs.append([wait_after_fail(path.with_suffix(f".{copy}.db"), n, clock())
                     for n in range(1, 6)])
    expect(len(set(runs[0])) > 1, "five jobs that failed at the same moment all come back at "
                                  f"the same moment ({runs[0][0]:.2f} seconds later): add jitter")
    expect(runs[0] == runs[1], "two queues given random.Random(7) chose different waits: draw "
                               "the jitter from the queue's rng, not from the random module")


@check(2, "after max_attempts, fail() makes the job dead, and it stays dead")
def dead_letters(tinyq, path, rng):
    q, clock = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "nobody"})
    said = None
    for attempt in range(1, SETTINGS["max_attempts"] + 1):
        clock.advance(SETTINGS["backoff_cap"])
        job = claim_one(q, f"claim() for attempt {attempt}")
        said = q.fail(job, "ValueError: no such mailbox")
    expect_status(path, 1, "dead", f"failing all {SETTINGS['max_attempts']} of its attempts "
                                   f"(max_attempts={SETTINGS['max_attempts']})", q)
    expect(said == "dead", f"the last fail() returned {said!r}; it should return 'dead'")
    clock.advance(SETTINGS["lease"] * 100)
    expect(q.claim() is None, "a dead job was claimed again; only a person should revive it")


@check(2, "work_one() fails a job whose handler raises, and carries on")
def work_one_fails(tinyq, path, rng):
    q, _ = queues(tinyq, path, rng)

    @q.handler("email")
    def send(job):
        raise ValueError("no such mailbox")
    q.enqueue("email", {"to": "nobody"})
    q.enqueue("fax", {"to": "1970"})
    q.work_one()
    expect_status(path, 1, "queued", "work_one() with a handler that raised", q)
    error = row(path, 1)["last_error"]
    expect(error is not None and "no such mailbox" in error,
           f"last_error is {error!r}; it should hold the handler's exception")
    q.work_one()
    expect_status(path, 2, "queued", "work_one() on a kind with no handler", q)

@check(2, "a job whose lease runs out on its last attempt is made dead, not handed out again")
def delivery_cap(tinyq, path, rng):
    q, clock = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "ada"})
    for attempt in range(1, SETTINGS["max_attempts"] + 1):
        claim_one(q, f"claim() for attempt {attempt}")
        clock.advance(SETTINGS["lease"] + 1)          # the worker died: no ack, no fail
    again = q.claim()
    expect(again is None, f"job 1's lease ran out on its last attempt ({SETTINGS['max_attempts']}"
                          f" of max_attempts={SETTINGS['max_attempts']}), yet claim() handed it "
                          "out again: make such a job dead first (the delivery cap)")
    expect_status(path, 1, "dead", "its last lease ran out", q)


@check(2, "work_one() makes a job dead at once when its handler raises Permanent")
def permanent_failure(tinyq, path, rng):
    permanent = getattr(tinyq, "Permanent", None)
    expect(isinstance(permanent, type) and issubclass(permanent, Exception),
           "tinyq has no exception class Permanent (it is in the skeleton: copy it back)")
    q, _ = queues(tinyq, path, rng)

    @q.handler("charge")
    def charge(job):
        raise permanent("card declined")
    q.enqueue("charge", {"amount": 10})
    q.work_one()
    expect_status(path, 1, "dead", "work_one() with a handler that raised Permanent on its "
                                   "first attempt", q)


# --- stage 3: the fencing token --------------------------------------------------------------

@check(3, "every claim gets a new token, larger than any before it")
def tokens_grow(tinyq, path, rng):
    q, clock = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "ada"})
    q.enqueue("email", {"to": "alan"})
    tokens = [claim_one(q).token, claim_one(q).token]
    clock.advance(SETTINGS["lease"] + 1)
    tokens.append(claim_one(q, "claim() of an expired job").token)
    expect(all(isinstance(t, int) for t in tokens),
           f"the claims' tokens are {tokens!r}; each should be a whole number")
    expect(tokens[0] < tokens[1] < tokens[2],
           f"three claims in a row got the tokens {tokens!r}; each should be larger than "
           "every token before it")
    expect(row(path, 1)["token"] == tokens[2], "the jobs table's token column does not hold "
                                               "the latest claim's token")


@check(3, "tokens keep growing after old jobs are deleted")
def tokens_outlive_deletes(tinyq, path, rng):
    q, _ = queues(tinyq, path, rng)
    q.enqueue("email", {"to": "ada"})
    q.enqueue("email", {"to": "alan"})
    first = claim_one(q)
    second = claim_one(q)
    q.ack(first)
    q.ack(second)
    db = sqlite3.connect(str(path))
    with db:
        db.execute("DELETE FROM jobs WHERE status = 'done'")    # as a queue in real use does
    db.close()
    q.enqueue("email", {"to": "grace"})
    third = claim_one(q, "claim() after the done jobs were deleted")
    expect(isinstance(third.token, int) and third.token > second.token,
           f"after the done jobs were deleted, a new claim got the token {third.token!r}, though "
           f"{second.token!r} had been handed out already: a stale worker holding that old token "
           "could finish the new claim's job. Take the next token from the tokens table (and "
           "move it on with TOKEN_TAKEN), not from the largest token left in jobs, which was "
           "deleted with the old rows")


@check(3, "ack() by a worker that lost its lease raises LeaseLost and changes nothing")
def stale_ack(tinyq, path, rng):
    a, b, job_a, job_b = stolen(tinyq, path, rng)
    expect(job_a.token != job_b.token, f"worker A and worker B got the same token "
                                       f"{job_a.token!r} for two claims of job 1")
    expect_refused(tinyq, path, lambda: a.ack(job_a), "ack()", job_b)
    b.ack(job_b)
    expect_status(path, 1, "done", "worker B's ack()", b)


@check(3, "fail() by a worker that lost its lease raises LeaseLost and changes nothing")
def stale_fail(tinyq, path, rng):
    a, _, job_a, job_b = stolen(tinyq, path, rng)
    expect_refused(tinyq, path, lambda: a.fail(job_a, "TimeoutError: too slow"), "fail()",
                   job_b)
    # The other way a failure ends: straight to dead (MARK_DEAD needs the guard as well).
    expect_refused(tinyq, path, lambda: a.fail(job_a, "ValueError: no such user", permanent=True),
                   "fail(..., permanent=True)", job_b)
    expect(row(path, 1)["last_error"] is None, "worker A's refused fail() still wrote its "
                                               "error into last_error")


@check(3, "work_one() moves on when its lease was lost while the handler ran")
def work_one_lease_lost(tinyq, path, rng):
    a, b, clock = queues(tinyq, path, rng, count=2)
    taken = []

    @a.handler("email")
    def slow(job):
        clock.advance(SETTINGS["lease"] + 1)        # A stalls past its lease ...
        taken.append(claim_one(b, "worker B's claim() while A stalled"))   # ... B takes over
    a.enqueue("email", {"to": "ada"})
    try:
        job = a.work_one()
    except lease_lost_class(tinyq) as error:
        raise Problem(f"worker A's work_one() let LeaseLost out ({error}). A lost its lease while "
                      "the handler ran, so its ack() was refused, as it should be; now work_one() "
                      "must catch LeaseLost, set job.outcome = 'lease lost' and return the job: "
                      "worker B holds it now, and A simply moves on") from None
    outcome = getattr(job, "outcome", None)
    expect(outcome == "lease lost", f"worker A's work_one() lost its lease and returned a job "
                                    f"whose outcome is {outcome!r}; it should be 'lease lost'")
    found = row(path, 1)
    expect(found["status"] == "running" and found["token"] == taken[0].token,
           f"job 1 is '{found['status']}' with token {found['token']!r} after worker A's "
           "work_one() lost its lease; it should still be worker B's running job")
