"""crash-timing's further controls (issue 15): when the ack comes by a timer, and a job that is a
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
"""
from .params import boolean, choice, integer, number

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
    )


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
    """The policy menu with auto-commit added after the four of crash_policies.py."""
    return choice("policy", "Policy", "ack-after-work", policies + (AUTO_COMMIT,),
                  "When the worker acks, relative to the work, or how it makes a repeat harmless.",
                  {**labels, AUTO_COMMIT: AUTO_COMMIT_WORDS["label"]})
