"""live-queue: "your library" presets, each a real queue library's documented defaults, and the
one setting it offers against its typical failure ("what would change if...").

LIBRARIES maps a preset's name to its label, the live queue's parameters it sets, the source of
each value, and its what-if: the setting's name in the library, the parameters it changes, and
its source. A preset sets only parameters the reader did not give (a link may still change any
of them), the what-if after it. Every value is a default from the library's own documentation;
where a default does not exist or could not be checked, the preset leaves that parameter alone
and says so (Sidekiq's backoff formula, count⁴ + 15 s and jitter, is not the model's doubling:
its backoff is left as set). Left out for now, their defaults not yet checked against their
sources: Oban and procrastinate.
"""
from ..engine.params import boolean, choice, convert, show_number

CELERY_GLOSSARY = "https://docs.celeryq.dev/en/stable/glossary.html"
CELERY_REDIS = ("https://docs.celeryq.dev/en/stable/getting-started/backends-and-brokers/"
                "redis.html#redis-caveats")
CELERY_TASKS = "https://docs.celeryq.dev/en/stable/userguide/tasks.html#retrying"
CELERY_WORKER = "https://docs.celeryq.dev/en/stable/internals/worker.html"
CELERY_ACKS_LATE = ("https://docs.celeryq.dev/en/stable/userguide/configuration.html"
                    "#task-acks-late")
SIDEKIQ_RELIABILITY = "https://github.com/sidekiq/sidekiq/wiki/Reliability"
SIDEKIQ_RETRIES = "https://github.com/sidekiq/sidekiq/wiki/Error-Handling#automatic-job-retry"
SIDEKIQ_SIGNALS = "https://github.com/sidekiq/sidekiq/wiki/Signals"
SIDEKIQ_SCHEDULED = "https://github.com/sidekiq/sidekiq/wiki/Scheduled-Jobs"
SQS_VISIBILITY = ("https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/"
                  "sqs-visibility-timeout.html")
SQS_DLQ = ("https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/"
           "sqs-dead-letter-queues.html")
SQS_DELAY = ("https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/"
             "sqs-delay-queues.html")
BULLMQ_STALLED = "https://docs.bullmq.io/guide/jobs/stalled"
BULLMQ_WORKER = "https://github.com/taskforcesh/bullmq/blob/master/src/classes/worker.ts"
BULL_REFERENCE = "https://github.com/OptimalBits/bull/blob/develop/REFERENCE.md#queue"
BULLMQ_DELAYED = "https://docs.bullmq.io/guide/jobs/delayed"
RQ_WORKER = "https://github.com/rq/rq/blob/master/rq/worker.py"   # get_heartbeat_ttl
RQ_DEFAULTS = "https://github.com/rq/rq/blob/master/rq/defaults.py"
RQ_REGISTRY = "https://github.com/rq/rq/blob/master/rq/registry.py"   # StartedJobRegistry.cleanup
RQ_RETRY = "https://python-rq.org/docs/exceptions/"
RQ_SCHEDULING = "https://python-rq.org/docs/scheduling/"
RIVER_CONFIG = "https://pkg.go.dev/github.com/riverqueue/river#Config"
RIVER_RESCUER = ("https://github.com/riverqueue/river/blob/master/internal/maintenance/"
                 "job_rescuer.go")
NO_TIME_LIMIT = 86_400.0   # seconds: the longest lease the model takes, standing for "none"

# name -> {"label", "sets": {param: (value, what it is in the library, source)},
#          "what_if": (the library's setting, {param: value}, source)}
LIBRARIES = {
    "celery-redis": {
        "label": "Celery with Redis",
        "sets": {
            "ack": ("early", "acked just before the task runs (task_acks_late is off)",
                    CELERY_GLOSSARY),
            "lease": (3600.0, "the visibility timeout, one hour", CELERY_REDIS),
            "orphan": ("lease", "an unacked message comes back after the visibility timeout",
                       CELERY_GLOSSARY),
            "eta_wait": ("worker", "a worker keeps an ETA task, unacked, in its timer until "
                                   "it is due; past the visibility timeout it is delivered "
                                   "again", CELERY_REDIS),
            "max_attempts": (1, "a task that raises is not retried unless it asks to be "
                                "(autoretry_for, self.retry)", CELERY_TASKS),
            "cap_counts": ("failures", "redeliveries are not counted: Redis has no delivery "
                                       "cap", CELERY_REDIS),
        },
        "what_if": ("acks_late = True", {"ack": "late"}, CELERY_ACKS_LATE),
    },
    "celery-rabbitmq": {
        "label": "Celery with RabbitMQ",
        "sets": {
            "ack": ("early", "acked just before the task runs (task_acks_late is off)",
                    CELERY_GLOSSARY),
            "orphan": ("disconnect", "an unacked message comes back when the worker's "
                                     "connection or channel closes", CELERY_GLOSSARY),
            "lease": (NO_TIME_LIMIT, "no visibility timeout (RabbitMQ's consumer timeout is "
                                     "not modelled)", CELERY_GLOSSARY),
            "eta_wait": ("worker", "a worker keeps an ETA task, unacked, in its timer until "
                                   "it is due (classic queues)", CELERY_WORKER),
            "max_attempts": (1, "a task that raises is not retried unless it asks to be",
                             CELERY_TASKS),
            "cap_counts": ("failures", "redeliveries are not counted", CELERY_TASKS),
        },
        "what_if": ("acks_late = True", {"ack": "late"}, CELERY_ACKS_LATE),
    },
    "sidekiq-basic": {
        "label": "Sidekiq, basic fetch",
        "sets": {
            "ack": ("early", "BRPOP takes the job off Redis: a crash mid-job loses it",
                    SIDEKIQ_RELIABILITY),
            "eta_wait": ("broker", "scheduled jobs wait in Redis's schedule set",
                         SIDEKIQ_SCHEDULED),
            "max_attempts": (26, "25 more tries after the first", SIDEKIQ_RETRIES),
            "cap_counts": ("failures", "only failures count towards the 25", SIDEKIQ_RETRIES),
            "shutdown_grace": (25.0, "the shutdown timeout, 25 s", SIDEKIQ_SIGNALS),
            "hand_back": (True, "unfinished jobs are pushed back to Redis at shutdown",
                          SIDEKIQ_SIGNALS),
        },
        "what_if": ("super_fetch (Sidekiq Pro): the job stays in Redis until it is done; when a "
                    "dead process's job is recovered is not given there, so the lease decides "
                    "it here", {"ack": "late"}, SIDEKIQ_RELIABILITY),
    },
    "rq": {
        "label": "RQ",
        "sets": {
            "ack": ("late", "a job stays in the started-job registry until it finishes",
                    RQ_REGISTRY),
            "heartbeat": (30.0, "the worker renews the job's entry every "
                                "job_monitoring_interval, 30 s", RQ_DEFAULTS),
            "grace": (60.0, "each renewal runs the entry 60 s past the next one", RQ_WORKER),
            "lease": (90.0, "so a dead worker's entry runs out after at most 90 s", RQ_WORKER),
            "max_attempts": (1, "no retry unless the job is enqueued with Retry", RQ_RETRY),
            "cap_counts": ("claims", "an abandoned job (its entry ran out) moves to the failed "
                                     "job registry, as a failure does, unless it may be tried "
                                     "again (Retry)", RQ_REGISTRY),
            "eta_wait": ("broker", "enqueue_in and enqueue_at keep the job in the scheduled "
                                   "job registry", RQ_SCHEDULING),
        },
        "what_if": ("Retry(max=3)", {"max_attempts": 4}, RQ_RETRY),
    },
    "river": {
        "label": "River (PostgreSQL)",
        "sets": {
            "ack": ("late", "a job's row is set completed after its worker returns",
                    RIVER_CONFIG),
            "lease": (3600.0, "RescueStuckJobsAfter, one hour: a running job is rescued "
                              "only then", RIVER_RESCUER),
            "max_attempts": (25, "MaxAttempts, 25", RIVER_CONFIG),
            "cap_counts": ("claims", "every attempt counts, a rescued one too", RIVER_RESCUER),
            "eta_wait": ("broker", "a scheduled job waits in its row until scheduled_at",
                         RIVER_CONFIG),
        },
        "what_if": ("RescueStuckJobsAfter = 5 minutes (every job must finish sooner)",
                    {"lease": 300.0}, RIVER_CONFIG),
    },
    "sqs": {
        "label": "Amazon SQS with a redrive policy",
        "sets": {
            "ack": ("late", "a consumer deletes the message after it is processed",
                    SQS_VISIBILITY),
            "lease": (30.0, "the default visibility timeout, 30 s", SQS_VISIBILITY),
            "orphan": ("lease", "a message not deleted is visible again after the timeout",
                       SQS_VISIBILITY),
            "cap_counts": ("claims", "maxReceiveCount counts receives: a message received "
                                     "that often moves to the dead-letter queue", SQS_DLQ),
            "backoff_base": (30.0, "a failed message waits out its visibility timeout",
                             SQS_VISIBILITY),
            "backoff_cap": (30.0, "the same for every receive", SQS_VISIBILITY),
            "jitter": (False, "no jitter of its own", SQS_VISIBILITY),
            "eta_wait": ("broker", "a delay (DelaySeconds, at most 900 s) is kept by the queue",
                         SQS_DELAY),
        },
        "what_if": ("no redrive policy (a message is received until its retention period, "
                    "4 days by default, ends)", {"max_attempts": 1000}, SQS_DLQ),
    },
    "bullmq": {
        "label": "BullMQ",
        "sets": {
            "ack": ("late", "a job is moved to completed after its processor returns",
                    BULLMQ_STALLED),
            "lease": (30.0, "lockDuration, 30 s", BULLMQ_WORKER),
            "heartbeat": (15.0, "the lock is renewed every lockDuration / 2", BULLMQ_WORKER),
            "grace": (15.0, "so each renewal runs the lock 30 s from then", BULLMQ_WORKER),
            "lost_claim": ("carry", "a worker whose lock ran out goes on with the job, which "
                                    "may then be processed twice", BULL_REFERENCE),
            "max_attempts": (2, "maxStalledCount 1: a job may be recovered from a stall once, "
                                "then it fails", BULLMQ_WORKER),
            "cap_counts": ("claims", "a stall counts", BULLMQ_STALLED),
            "eta_wait": ("broker", "a delayed job waits in the queue until it is due",
                         BULLMQ_DELAYED),
        },
        "what_if": ("maxStalledCount = 0 (a stalled job fails instead of running again)",
                    {"max_attempts": 1}, BULLMQ_STALLED),
    },
}

NONE = "none"
# Every parameter a preset or its what-if may set: the page's form leaves these to the simulation
# when the reader picks a library or ticks the what-if (the snapshot's "presets", below), as it
# sends every other field's value with a change, and a value sent counts as the reader's.
PRESET_PARAMS = sorted({param for library in LIBRARIES.values()
                        for param in (*library["sets"], *library["what_if"][1])})


def _shown(spec, value, what, source):
    """One value in words with its source: a number or on/off as the form shows it; a choice
    by what it means (the form shows its label once the preset is chosen)."""
    if spec["type"] == "choice":
        return f"{spec['label']}: {what} ({source})"
    shown = ("on" if value else "off") if spec["type"] == "bool" else show_number(value)
    return f"{spec['label']} {shown} ({what}, {source})"


def _said(library, specs):
    """One preset in words, each value with its source."""
    parts = "; ".join(_shown(specs[param], value, what, source)
                      for param, (value, what, source) in library["sets"].items())
    setting, _, source = library["what_if"]
    return f"{library['label']}: {parts}. What would change if: {setting} ({source})."


def params(others):
    """The preset's two fields; `others` are the live queue's other PARAMS, whose labels the
    help text uses."""
    specs = {spec["name"]: spec for spec in others}
    labels = {NONE: "none: the settings below"}
    labels.update({name: library["label"] for name, library in LIBRARIES.items()})
    return (
        choice("library", "Your library", NONE, list(labels),
               "Sets the queue to a library's documented defaults (a setting given in the link "
               "keeps its value). " + " ".join(_said(lib, specs) for lib in LIBRARIES.values()),
               labels=labels),
        boolean("what_if", "What would change if…", False,
                "Turns on the one setting your library offers against its typical failure: " +
                "; ".join(f"{lib['label']}, {lib['what_if'][0]}" for lib in LIBRARIES.values())
                + "."),
    )


def apply_library(params, given, specs):
    """Set the chosen library's defaults (then its what-if) in `params` on every parameter the
    reader did not give (`given`); `specs` are the simulation's PARAMS. Changes `params`, so
    that the snapshot, and a link made from it, say what the run uses."""
    name = params["library"]
    if name == NONE:
        return
    library = LIBRARIES[name]
    values = {param: value for param, (value, _, _) in library["sets"].items()}
    if params["what_if"]:
        values.update(library["what_if"][1])
    specs = {spec["name"]: spec for spec in specs}
    for param, value in values.items():
        if param not in given:
            params[param] = convert(specs[param], value)


def with_presets(state):
    """The snapshot `state`, with "presets" where the form shows the library: {"by": the fields
    that choose a preset, "sets": the parameters a preset may set}."""
    if "library" not in state["hidden"]:
        state["presets"] = {"by": ["library", "what_if"], "sets": PRESET_PARAMS}
    return state
