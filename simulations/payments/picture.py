"""What the payments picture draws, as plain data: each charge as a row of its attempts, and
Alice's money as coins (her wallet, and what the bank took, duplicates marked).

The widget (theme/js/sims/payments.js) and the build's starting state draw exactly this; the
jobs table says the same attempts in words, so the picture has a text alternative.
"""
import json

from .money import money

MAX_ORDERS = 20   # charge rows in the picture (the table lists up to 100)
MAX_COINS = 40    # coins the bank took, drawn one by one; the rest are counted

# Each attempt's code, as the picture's legend says it (in this order).
ATTEMPT_WORDS = {
    "lost": "request lost: nothing happened",
    "charged": "charged",
    "duplicate": "charged again: a duplicate",
    "absorbed": "absorbed by the key: no charge",
    "declined": "card declined: nothing charged",
    "redeclined": "old decline repeated by the key",
}

# What the keys under the squares show, by the key mode (payments.py's `key`), after the
# picture's "Under each square, the key it sent:", so "k1, k1" and "k1, k2" read as what they are.
KEY_WORDS = {
    "none": "no key (none): every request that reaches the bank is a new charge.",
    "stable": "one key per charge: every attempt at an order sends k1 again, so the bank "
              "knows a retry and charges once.",
    "per-attempt": "a new key each attempt (k1, k2, k3…): to the bank, every retry is a new "
                   "charge.",
    "rotate-after-decline": "one key per charge (k1), a new one only after a decline's reply "
                            "(k2): a retry is known; a fixed card is tried afresh.",
}


def attempt_record(answer, reply_lost, charges_for_order, key=None):
    """One attempt as the picture draws it: {"code", "reply", "words", "key"}.

    answer: what the bank did (bank.ANSWERS, or None when the request never arrived);
    reply_lost: whether its reply was lost; charges_for_order: how many times the bank has
    now charged for this order (a second charge is a duplicate); key: the idempotency key the
    request carried (None: no key). `reply` is None for a request that never arrived, else
    'received' or 'lost'."""
    if answer is None:
        code = "lost"
    elif answer == "charged":
        code = "duplicate" if charges_for_order > 1 else "charged"
    else:
        code = {"already done": "absorbed", "declined": "declined",
                "declined before": "redeclined"}[answer]
    reply = None if answer is None else ("lost" if reply_lost else "received")
    words = ATTEMPT_WORDS[code].split(":")[0]
    if reply == "lost":
        words += ", reply lost"
    return {"code": code, "reply": reply, "words": words, "key": key}


def key_names(records):
    """The short name of the key each attempt of one charge sent, as its square's label says:
    "k1", "k2"... numbered by first use within the charge (the same name, the same key), or
    "none" for a request without a key. A new key each attempt reads k1, k2, k3; one key per
    charge k1, k1, k1."""
    names = {}
    return ["none" if record["key"] is None else
            names.setdefault(record["key"], f"k{len(names) + 1}") for record in records]


def sent_with(key):
    """A square's tooltip: the key its request carried, in words."""
    return "sent with no idempotency key" if key is None else f"sent with idempotency key {key}"


def history_words(records):
    """A charge's attempts in words, for its row of the table, each with the key it sent:
    "request lost (key k1); charged (key k2)", "charged (no key)"."""
    return "; ".join(record["words"] + (" (no key)" if name == "none" else f" (key {name})")
                     for record, name in zip(records, key_names(records))) or "none yet"


def picture(sim, start_balance, price):
    """The picture of a payments simulation `sim` (its queue, bank and history), in dollars:

    {"orders": [{"order", "job", "status", "charged", "name": "Order 3",
                 "attempts": [attempt_record + {"key_name": key_names' label,
                                                "title": the key in words (sent_with)}]}],
     "orders_hidden": charges not drawn (past MAX_ORDERS), "orders_more": that in words or "",
     "coins": {"value": "$10", "start": coins Alice started with,
               "wallet": coins she still has (0 once overdrawn),
               "taken": [{"order", "duplicate", "nth"}] in the order the bank took them,
                        nth: 1 for an order's first charge, 2 for its second (a duplicate)...,
               "taken_hidden": coins taken past MAX_COINS, "taken_more": that in words or "",
               "overdrawn": "$20" or None, "overdrawn_words": "Overdrawn by $20" or ""},
     "legend": [{"code", "words"}],
     "key_words": what the keys under the squares show, for the key mode (KEY_WORDS)}"""
    db = sim.queue.db
    orders = []
    for job_id, status, args in db.execute(
            "SELECT id, status, args FROM jobs ORDER BY id LIMIT ?", (MAX_ORDERS,)):
        order = json.loads(args)["order"]
        records = sim.history.get(order, [])
        orders.append({"order": order, "job": job_id, "status": status, "name": f"Order {order}",
                       "charged": sum(1 for record in records
                                      if record["code"] in ("charged", "duplicate")),
                       "attempts": [{**record, "key_name": name, "title": sent_with(record["key"])}
                                    for record, name in zip(records, key_names(records))]})
    times, taken = {}, []   # how many times the bank has taken each order's money so far
    for (order,) in db.execute("SELECT order_id FROM bank.charges ORDER BY id LIMIT ?", (MAX_COINS,)):
        times[order] = times.get(order, 0) + 1   # the first coins: all counted
        taken.append({"order": order, "duplicate": times[order] > 1, "nth": times[order]})
    taken_total = db.execute("SELECT count(*) FROM bank.charges").fetchone()[0]
    balance = sim.bank.balance("alice")
    orders_hidden = max(0, sim.params["charges"] - len(orders))
    taken_hidden = taken_total - len(taken)
    return {
        "orders": orders,
        "orders_hidden": orders_hidden,
        "orders_more": f"and {orders_hidden} more charges, in the table below" if orders_hidden else "",
        "coins": {"value": money(price), "start": start_balance // price,
                  "wallet": max(0, balance) // price, "taken": taken,
                  "taken_hidden": taken_hidden,
                  "taken_more": f"and {taken_hidden} more" if taken_hidden else "",
                  "overdrawn": money(-balance) if balance < 0 else None,
                  "overdrawn_words": f"Overdrawn by {money(-balance)}" if balance < 0 else ""},
        "legend": [{"code": code, "words": words} for code, words in ATTEMPT_WORDS.items()],
        "key_words": KEY_WORDS[sim.params["key"]],
    }
