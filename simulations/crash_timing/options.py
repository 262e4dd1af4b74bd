"""crash-timing's further controls (the casebook's): when the ack comes by a timer, and a job that is a
batch of sends. Their parameters, the auto-commit policy's script, and the words of the steps and
crash points once these settings change them.

Auto-commit (policy "auto-commit"): the worker never acks by itself; a timer in its process
commits `commit_interval` seconds after the claim, wherever the work is then. If that is before
the work ends, the commit comes first and a crash after it loses the work; if after, the email
comes first and a crash between the two repeats it. The timer dies with its process. This is a
Kafka consumer with `enable.auto.commit`: librdkafka stores a message's offset just before it
hands the message over, and commits it every `auto.commit.interval.ms` (5,000 ms by default)
(https://github.com/confluentinc/librdkafka/issues/1122,
https://github.com/confluentinc/librdkafka/blob/master/CONFIGURATION.md).

Batch (`batch` > 1, every policy but one-transaction): the job sends `batch` emails, one after
another, spread over its work (the work's seconds divided equally among them), as a task that
emails a batch of 50 users does (https://github.com/hypothesis/lms/issues/5346). With `marker`
on, each send is recorded in the worker's database as it happens, and a later attempt skips the
recipients already recorded (the fix: https://github.com/hypothesis/lms/pull/5347). Here the
record is written at the very moment of its send; a real worker can still die between the two,
which that pull request names as the fix's one gap.

A later step fails (`fail_after_effect`, policies ack-after-work, ack-before-work and
idempotency-key): in worker A's attempt, once the email (or the batch) has gone out, the
handler's next step raises an ordinary exception, and the worker fails the job instead of acking
it (tinyq's fail(): back to queued, due after a backoff of 0.5-1 s, the attempt counted). Worker
B claims it when it is due and does it all again: under ack-after-work the email goes out twice.
A key or a record per send absorbs the repeat. Under ack-before-work the job was already acked,
so the fail is refused and nobody retries.

The later step fails on every attempt (`fail_every_attempt`, with `fail_after_effect`): not only
in A's attempt but in each retry, which worker B makes when the backoff has passed (tinyq's:
0.5-1 s, then doubling, with jitter). Every attempt sends the email again before its next step
fails, until the attempts cap (`max_attempts`, tinyq's max_attempts, 5 by default) makes the job
dead: a retry storm of the steps before the failing one. Under ack-after-work the email goes out
once per attempt; a key absorbs every repeat.
"""
import math

from ..engine.capstone import tinyq
from ..engine.params import boolean, choice, integer, number, show_number
from ..engine.simulation import plural

AUTO_COMMIT = "auto-commit"
BATCH_MAX = 100


def extra_params():
    """The PARAMS entries this module adds to crash-timing."""
    return (
        number("commit_interval", "Auto-commit interval (s)", 1.5, 0.1, 10.0,
               "How long after the claim the auto-commit timer acks, whatever the work has done "
               "by then (only with \"Ack on a timer (auto-commit)\"). The work takes 1 s when A "
               "crashes and 4.5 s when it is slow."),
        integer("batch", "Emails in the job", 1, 1, BATCH_MAX,
                "How many emails the job sends, one after another during its work (not with "
                "\"Effect and ack in one transaction\", whose effect is points)."),
        boolean("marker", "Record each send", False,
                "Write a record of each email as it is sent, so a later attempt skips the people "
                "already recorded."),
        boolean("fail_after_effect", "A later step fails after the email", False,
                "In A's attempt, a step after the email raises an exception: the worker fails "
                "the job, which is retried after a backoff (not with auto-commit or \"Effect "
                "and ack in one transaction\")."),
        boolean("fail_every_attempt", "It fails on every attempt", False,
                "With \"A later step fails after the email\": the step fails in each retry too, "
                "so every attempt repeats what comes before it until the attempts cap."),
        integer("max_attempts", "Attempts cap", 5, 1, 20,
                "How many attempts the job gets before a failure makes it dead."),
    )


FAILS_AFTER_EFFECT = ("ack-after-work", "ack-before-work", "idempotency-key")


class LaterStepFailed(Exception):
    """A step of the handler after the effect raised: an ordinary error, the worker lives on."""


def later_step_fails(sim, who):
    """True when this send is A's, and the setting makes the handler's next step fail."""
    return ((who == "A" or sim.params["fail_every_attempt"]) and sim.params["fail_after_effect"]
            and sim.policy in FAILS_AFTER_EFFECT and sim.scenario != "producer")


def handler(sim, script, who, job, work):
    """Run the policy's script; if a later step fails, the worker fails the job (tinyq's
    fail(): queued again after a backoff) and B comes for it when it is due."""
    try:
        yield from script(sim, who, job, work)
    except LaterStepFailed:
        after = "emails" if sim.batch > 1 else "email"
        try:
            state = sim.queue.fail(job, f"a later step failed after the {after}")
        except tinyq.LeaseLost:
            token, status = sim.queue.db.execute("SELECT token, status FROM jobs WHERE id = ?",
                                                 (job.id,)).fetchone()
            if token != job.token:
                sim.refused.append(who)
                why = f"token {job.token} no longer holds the job"
            else:
                why = f"the job was acked before the work and is {status}"
            sim.moment(who, "refused", f"{who}'s next step fails after the {after}, but its fail "
                                       f"is refused: {why}, so nobody retries it")
            return
        if state == "dead":   # its last attempt: the cap makes it dead, nobody retries it
            cap = sim.queue.max_attempts
            sim.moment(who, "dead", f"{who}'s next step fails after the {after} again, on attempt "
                                    f"{job.attempts} of {cap}: the job is dead, out of attempts")
            return
        due = sim.queue.db.execute("SELECT run_at FROM jobs WHERE id = ?", (job.id,)).fetchone()[0]
        due = math.ceil(due * 1000) / 1000   # B looks on the next millisecond: a short time
        sim.moment(who, "fail", f"{who}'s next step fails after the {after}: the job is failed "
                                f"and will be retried (queued again, due in about "
                                f"{show_number(round(due - sim.clock.now, 2))} s, its backoff)")
        sim.agenda.schedule(due, "B", sim._attempt("B"))


def out_of_attempts(sim, what):
    """The outcome of a job the attempts cap made dead; `what` is its effect in words."""
    attempts = sim.job_rows()[0]["attempts"]
    return (f"Dead: {what} in {plural(attempts, 'attempt')}, and a later step failed in each; "
            f"the attempts cap ({sim.queue.max_attempts}) made the job dead.")


def auto_commit(sim, who, job, work):
    """Claim, then a timer acks `commit_interval` seconds later, apart from the work."""
    interval = sim.params["commit_interval"]
    if interval < work:   # the timer fires while the work goes on: the ack comes first
        yield from sim.pause(who, "after-claim", interval)
        sim.ack(who, job, timer=True)
        yield from sim.work_and_send(who, "after-ack", work - interval)
        yield from sim.pause(who, "after-effect", 0.5)
    else:
        yield from sim.work_and_send(who, "after-claim", work)
        yield from sim.pause(who, "after-effect", interval - work)
        sim.ack(who, job, timer=True)
        yield from sim.pause(who, "after-ack", 0.5)


AUTO_COMMIT_WORDS = {
    "label": "Ack on a timer (auto-commit)",
    "steps": {"effect": "send the email", "ack": "the timer commits (ack)"},
    ("ack", "effect"): {"after-claim": "after the claim, before the timer's commit",
                        "after-ack": "after the timer's commit, before the email",
                        "after-effect": "after the email"},
    ("effect", "ack"): {"after-claim": "after the claim, before the email",
                        "after-effect": "after the email, before the timer's commit",
                        "after-ack": "after the timer's commit"},
}


def order(policy, base_order, interval, work):
    """The policy's steps after the claim: ("effect", "ack") or ("ack", "effect")."""
    if policy != AUTO_COMMIT:
        return base_order[policy]
    return ("ack", "effect") if interval < work else ("effect", "ack")


def for_batch(text, batch):
    """A step's or a point's words with the one email made `batch` emails."""
    if batch == 1:
        return text
    return (text.replace("before the email", "before the last email")
                .replace("the email", f"the {batch} emails")
                .replace("its key", "their keys"))


def words(sim, base_steps, base_points):
    """({step: label}, {point: label}) for the simulation's policy and settings."""
    policy = sim.policy
    if policy == AUTO_COMMIT:
        steps, points = AUTO_COMMIT_WORDS["steps"], AUTO_COMMIT_WORDS[sim.order()]
    else:
        steps, points = base_steps[policy], base_points[policy]
    batch = sim.batch
    return ({name: for_batch(text, batch) for name, text in steps.items()},
            {name: for_batch(text, batch) for name, text in points.items()})


def steps_and_points(sim, base_steps, base_points):
    """The snapshot's `steps` ([{name, label}], the claim first) and `points`."""
    step_words, point_words = words(sim, base_steps, base_points)
    names = sim.order()
    steps = [{"name": "claim", "label": "claim the job"}] + [
        {"name": step, "label": step_words[step]} for step in names]
    points = [{"name": name, "label": point_words[name]}
              for name in ("after-claim",) + tuple(f"after-{step}" for step in names)]
    return steps, points


def policy_choice(policies, labels):
    """The policy menu with auto-commit added after the four of policies.py."""
    return choice("policy", "Policy", "ack-after-work", policies + (AUTO_COMMIT,),
                  "When the worker acks, relative to the work, or how it makes a repeat harmless.",
                  {**labels, AUTO_COMMIT: AUTO_COMMIT_WORDS["label"]})
