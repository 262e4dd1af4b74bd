"""crash-timing's levels: which of its controls an embed shows, by how far the
guide has got. A chapter's embed sets `level:`; the default, "all", shows everything (the
casebook). The run is the same whatever the level: a setting kept back keeps its value (the
chapter's, or a link's), and only the page's form leaves it out.

Each level adds to the one before it, in the order the chapters teach:
    crash-points  chapter 5, before the fencing token: worker A dies under "Ack after the work"
    leases        chapter 5, from "a lease shorter than the work": that scenario, the fencing token
    acks          chapter 9: the policy menu, with "Ack before the work"
    keys          chapter 11: an idempotency key, and the effect and the ack in one transaction
    outbox        chapter 11's outbox onwards: the web request that enqueues, its enqueue and fault
    all           the casebook: auto-commit, a batch of emails, a record per send, a later failure
The Policy menu always shows, as chapter 5 names the policy its embeds run ("Keep the Policy menu
at ..."), with only the policies taught so far to choose from; the Scenario menu is left out while
the level leaves it one choice.
"""
from ..engine.params import choice

# level -> (policies added, scenarios added, fields added), in teaching order.
STAGES = {
    "crash-points": (("ack-after-work",), ("crash",), ()),
    "leases": ((), ("lease-too-short",), ("fencing",)),
    "acks": (("ack-before-work",), (), ()),
    "keys": (("idempotency-key", "one-transaction"), (), ()),
    "outbox": ((), ("producer",), ("enqueue", "fault")),
    "all": (("auto-commit",), (), ("commit_interval", "batch", "marker", "fail_after_effect",
                                   "fail_every_attempt", "max_attempts")),
}
LEVELS = tuple(STAGES)
# The fields a level may keep back (the crash point's group, the seed and the level are always kept).
KEPT_BACK = tuple(name for stage in STAGES.values() for name in stage[2]) + ("scenario",)


def level_param():
    """crash-timing's `level` PARAMS entry: what the form shows, never what the run does."""
    return choice("level", "Shows", "all", LEVELS,
                  "Which controls the widget shows, as far as the guide has taught them (a "
                  "chapter's embed sets it; the run is the same at every level).",
                  {"crash-points": "where worker A dies (crash-points)",
                   "leases": "that, and leases with a fencing token (leases)",
                   "acks": "that, and when to ack (acks)",
                   "keys": "that, and idempotency keys (keys)",
                   "outbox": "that, and the producer's outbox (outbox)",
                   "all": "everything (all)"})


def shown(level):
    """What the form shows at `level`: {"hidden": [field names left out, and "token" while the
    token is untaught: the table's Token column], "options": {menu:
    [its choices shown]}}; a choice a link sets outside them still runs (the page keeps it)."""
    policies, scenarios, fields = [], [], []
    for name in LEVELS[:LEVELS.index(level) + 1]:
        more_policies, more_scenarios, more_fields = STAGES[name]
        policies += more_policies
        scenarios += more_scenarios
        fields += more_fields
    options = {"policy": policies, "scenario": scenarios}
    if len(scenarios) > 1:
        fields.append("scenario")
    hidden = [name for name in KEPT_BACK if name not in fields]
    if "fencing" in hidden:
        hidden.append("token")   # not a field: the job table's Token column, and "token N" in the log
    return {"hidden": hidden, "options": options}


def tokens_taught(level):
    """True once the guide has taught the fencing token (the words "token N" may appear)."""
    return "token" not in shown(level)["hidden"]
