"""A flaky bank: it loses some requests before they arrive and some replies after it has
charged, and it remembers idempotency keys, as a payment API such as Stripe's does
(https://docs.stripe.com/api/idempotent_requests).

The bank's tables live in their own in-memory database, attached to the simulation's
connection as `bank`: the queue cannot see them, only the simulation's ledger does.
"""
from ._core import tinyq

BANK_SCHEMA = """
CREATE TABLE bank.accounts (name TEXT PRIMARY KEY, balance INTEGER NOT NULL);   -- dollars
CREATE TABLE bank.requests (idempotency_key TEXT PRIMARY KEY, answer TEXT NOT NULL);
CREATE TABLE bank.charges (id INTEGER PRIMARY KEY, account TEXT NOT NULL,
                           amount INTEGER NOT NULL, order_id INTEGER);
"""

REMEMBER_KEY = ("INSERT INTO bank.requests (idempotency_key, answer) VALUES (?, 'charged') "
                "ON CONFLICT (idempotency_key) DO NOTHING")


class FlakyBank:
    """charge() succeeds, or raises ConnectionError (the request never arrived: nothing
    happened) or TimeoutError (the bank acted, but its reply was lost). The two look the
    same to the caller, which is the whole trouble.

    rng: a random.Random that decides the losses; it is drawn from twice per request,
    whatever happens, so two runs with the same seed lose the same requests and replies
    whatever key the caller sends.
    """

    def __init__(self, db, rng, lose_request, lose_reply):
        self.db, self.rng = db, rng
        self.lose_request, self.lose_reply = lose_request, lose_reply
        self.lost_requests = self.lost_replies = self.absorbed = 0
        self.last_answer = None   # what the bank did with the latest request that arrived
        db.execute("ATTACH DATABASE ':memory:' AS bank")
        db.executescript(BANK_SCHEMA)

    def open_account(self, name, balance):
        self.db.execute("INSERT INTO bank.accounts VALUES (?, ?)", (name, balance))

    def balance(self, name):
        return self.db.execute("SELECT balance FROM bank.accounts WHERE name = ?",
                               (name,)).fetchone()[0]

    def charges_by_order(self):
        """{order id: how many times the bank charged for it}: the truth, which only the bank has."""
        return dict(self.db.execute(
            "SELECT order_id, count(*) FROM bank.charges GROUP BY order_id"))

    def charge(self, account, amount, key=None, order_id=None):
        """Charge `amount` dollars, once per `key` (None: no protection). Returns
        'charged' or 'already done' (a key seen before). Raises as the class says."""
        request_lost = self.rng.random() < self.lose_request
        reply_lost = self.rng.random() < self.lose_reply
        self.last_answer = None
        if request_lost:
            self.lost_requests += 1
            raise ConnectionError("the request never reached the bank")
        # Inside the bank: the key check and the charge are one transaction.
        with tinyq.transaction(self.db):
            if key is None or self.db.execute(REMEMBER_KEY, (key,)).rowcount == 1:
                self.db.execute("UPDATE bank.accounts SET balance = balance - ? WHERE name = ?",
                                (amount, account))
                self.db.execute("INSERT INTO bank.charges (account, amount, order_id) "
                                "VALUES (?, ?, ?)", (account, amount, order_id))
                self.last_answer = "charged"
            else:
                self.absorbed += 1
                self.last_answer = "already done"
        if reply_lost:
            self.lost_replies += 1
            raise TimeoutError("no reply from the bank")
        return self.last_answer
