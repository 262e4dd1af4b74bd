"""What the crash-timing widget shows in words (view.py's shape): the job's row in the queue and
the sentence under the outcome naming each effect (who produced it, when, and whether it repeated
one), from a snapshot of model.py. The lanes are picture.py's."""
from ..engine.view import chip, dash, key_item, note, secs, table, view


def effects_words(s):
    """"The emails: by A at 1 s; by B at 6.5 s (2nd email: duplicate)." and what the key
    absorbed and whether a transaction is still open; "" before any effect."""
    points = s["policy"] == "one-transaction"
    repeats = [(s["timeline"][d["index"]], d["label"]) for d in s["duplicates"]]
    produced = []
    for item in s["produced"]:
        label = next((label for moment, label in repeats
                      if moment["worker"] == item["worker"] and moment["time"] == item["time"]), None)
        produced.append(f"{'10 ' if points else ''}by {item['worker']} at {secs(item['time'])} s"
                        + (f" ({label})" if label else ""))
    words = []
    if produced:
        what = "The points" if points else "The email" if s["effects"] == 1 else "The emails"
        words.append(f"{what}: {'; '.join(produced)}.")
    if s["absorbed"]:
        repeats = "a repeat" if s["absorbed"] == 1 else f"{s['absorbed']} repeats"
        words.append(f"The idempotency key absorbed {repeats}.")
    if s["in_transaction"]:
        words.append("A transaction is open: its points are not committed yet.")
    return " ".join(words)


def crash_timing_view(s):
    """The snapshot's "view" (view.py): the job's row (its token only at a level that has
    taught fencing tokens, levels.py) and the effects in words."""
    token = "token" not in s["shown"]["hidden"]
    columns = ["Job", "Status", "Attempts"] + ["Token"] * token + ["Lease left (s)"]
    rows = [(job["id"], [str(job["id"]), chip(job["status"]), str(job["attempts"])]
             + [dash(job["token"])] * token + [dash(job["lease_left"], secs)])
            for job in s["jobs"]]
    jobs = table("jobs", "The job in the queue", columns, rows,
                 empty="No job yet: the producer has not enqueued it.")
    key = [key_item("lease", "lease", ("ct-key-lease", "")),
           key_item("work", "working on the job", ("ct-key-work", "")),
           key_item("late", "still working after the lease ran out", ("ct-key-late", ""))]
    return view(tables=[jobs], outcome=s["outcome"], notes=[note("effects", effects_words(s))],
                key=key)
