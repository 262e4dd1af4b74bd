"""What the payments widget shows in words and numbers (view.py's shape): Alice's two balances,
the ledger's figures and the table of charge jobs, from a snapshot of payments.py.

What Alice should have is the bank's truth, not the queue's belief: her starting money less one
price for each order the bank charged, once however many times it charged it. The queue's records
(its done jobs) say less than that whenever a dead job's charge did reach the bank, which a bank
that loses most replies does often; the help under the figure says so then, so "should have"
never names an amount she was not in fact owed.
"""
from .money import money
from ..engine.simulation import plural
from ..engine.view import bad_if, chip, dash, secs, table, tile, view


def balances(s):
    book = s["ledger"]
    start, price = book["start_balance"], book["price"]
    owed = start - price * book["orders_charged"]
    help_owed = (f"{money(start)}, less {money(price)} once for each order the bank charged "
                 f"({plural(book['orders_charged'], 'order')}).")
    if owed != book["expected_balance"]:
        help_owed += (f" The queue’s done jobs alone would say {money(book['expected_balance'])}: "
                      f"a dead job’s charge can reach the bank all the same.")
    return [tile("expected", "Alice should have", money(owed), group="balances", help=help_owed),
            tile("actual", "Alice has", money(book["actual_balance"]), group="balances",
                 tone=bad_if(book["actual_balance"] < owed),
                 help="What the bank actually took from her.")]


def figures(s):
    book, jobs = s["ledger"], s["ledger"]["jobs"]
    dead = jobs["dead"]
    return [
        tile("attempts", "Attempts", str(book["attempts"])),
        tile("lost_requests", "Requests lost", str(book["lost_requests"])),
        tile("lost_replies", "Replies lost", str(book["lost_replies"])),
        tile("duplicate_charges", "Duplicate charges", str(book["duplicate_charges"]),
             bad_if(book["duplicate_charges"] > 0)),
        tile("duplicates_absorbed", "Repeats the key absorbed", str(book["duplicates_absorbed"])),
        tile("declines", "Cards declined", str(book["declines"])),
        tile("declines_replayed", "Old declines repeated", str(book["declines_replayed"]),
             bad_if(book["declines_replayed"] > 0)),
        tile("done", "Jobs done", f"{jobs['done']} of {s['jobs_total']}"),
        # Every job not finished: waiting for its first try or a retry, or being tried now.
        tile("queued", "Jobs still to run", str(jobs["queued"] + jobs["running"])),
        tile("dead", "Dead jobs", f"{dead} ({book['dead_charged']} charged)" if dead else "0",
             bad_if(book["dead_charged"] > 0)),
    ]


def charges(s):
    rows = [(job["id"], [str(job["id"]), str(job["order"]), chip(job["status"]),
                         str(job["attempts"]),
                         {"text": str(job["charged"]), "tone": bad_if(job["charged"] > 1)},
                         dash(job["retry_in"], secs),
                         {"text": job["tries"], "class": "sim-wrap"},
                         {"text": job["last_error"] or "—", "class": "sim-wrap"}])
            for job in s["jobs"]]
    shown, total = len(s["jobs"]), s["jobs_total"]
    return table("jobs", "Charge jobs",
                 ["Job", "Order", "Status", "Attempts", "Charged by the bank", "Retry in (s)",
                  "Attempts, in order", "Last error"], rows,
                 note=f"(showing {shown} of {total})" if total > shown else "",
                 empty="No charge jobs.")


def payments_view(s):
    """The snapshot's "view" (view.py)."""
    return view(figures=balances(s) + figures(s), tables=[charges(s)], outcome=s["outcome"],
                alt=picture_words(s))


def picture_words(s):
    """What the picture shows, for a reader who cannot see it (the table says it row by row)."""
    return (f"Each row is one {money(s['ledger']['price'])} charge, and each square one attempt "
            f"at it, left to right, with the idempotency key it sent written under it (k1, k2…: "
            f"the same name, the same key; none: no key). The table of charge jobs below says "
            f"the same in words.")
