"""live-queue's levels: which of its parts and controls an embed shows, by how far the guide has
got (its `level:`). The model reads LEVELS for the level menu and for how the log names a claim;
the view leaves out what the level keeps back."""

# What an embed shows, by how far the guide has got (its `level:`): level -> the parts it keeps
# back until a later chapter teaches them. The run is the same whatever the level (a hidden setting
# keeps its value); the page hides a part whose name is in the snapshot's "hidden":
#   token       the fencing token: the table's Token column and the token on a worker's card (ch. 12)
#   stall       the Stall buttons and their "Stall for (s)" field (chapter 5)
#   kill        the Kill buttons on the picture, and its key's "2nd try" (chapters 4 and 5; a link
#               that kills still replays: the act itself is allowed)
#   crash, supervisor           the fields "Crash chance per job" and "Restart dead workers" (ch. 8, 12)
#   duplicate_emails, acks_refused          the figures of those names (chapters 4 and 5)
# The casebook's controls, by the level that shows them: every chapter before the casebook
# keeps them back, and a case's embed (content/19-casebook.md) shows the group it needs.
EXTRAS = {"heartbeats": ("heartbeat", "grace", "duration_max"),
          "deploys": ("deploy_at", "shutdown_grace", "hand_back"),
          "poison": ("poison", "max_attempts", "cap_counts"),
          "retries": ("service_capacity", "backoff_base", "backoff_cap", "jitter"),
          "library": ("library", "what_if", "ack", "eta", "eta_wait", "lost_claim", "orphan",
                      "max_depth", "drop_lock")}
EVERY_EXTRA = tuple(name for group in EXTRAS.values() for name in group)
LEVELS = {
    "queue": ("token", "stall", "kill", "crash", "supervisor", "duplicate_emails", "acks_refused")   # ch. 3
             + EVERY_EXTRA,
    "all": EVERY_EXTRA,
    **{level: tuple(n for n in EVERY_EXTRA if n not in group) for level, group in EXTRAS.items()},
    "free": (),   # free play: every control of every level at once, whatever the chapter
}
