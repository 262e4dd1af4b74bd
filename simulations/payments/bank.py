"""A flaky bank: it loses some requests before they arrive and some replies after it has
acted, it declines some cards, and it remembers idempotency keys, as a payment API such as
Stripe's does (https://docs.stripe.com/api/idempotent_requests): the first answer given to a
key, a charge or a decline, is the answer every later request with that key gets.

The bank's tables live in their own in-memory database, attached to the simulation's
connection as `bank`: the queue cannot see them, only the simulation's ledger does.
"""
from ..engine.capstone import tinyq

BANK_SCHEMA = """
CREATE TABLE bank.accounts (name TEXT PRIMARY KEY, balance INTEGER NOT NULL);   -- dollars
CREATE TABLE bank.requests (idempotency_key TEXT PRIMARY KEY,
                            answer TEXT NOT NULL CHECK (answer IN ('charged', 'declined')));
CREATE TABLE bank.charges (id INTEGER PRIMARY KEY, account TEXT NOT NULL,
                           amount INTEGER NOT NULL, order_id INTEGER);
"""

REMEMBER_KEY = ("INSERT INTO bank.requests (idempotency_key, answer) VALUES (?, ?) "
                "ON CONFLICT (idempotency_key) DO NOTHING")

# What the bank did with the latest request (FlakyBank.last_answer): None when it never
# arrived; 'charged'; 'declined' (a definitive no, nothing charged); 'already done' (a key
# it had charged for: no new charge); 'declined before' (a key it had declined: the same no).
ANSWERS = ("charged", "declined", "already done", "declined before")


class CardDeclined(Exception):
    """The bank refused the charge: a definitive answer, and nothing was charged."""


class FlakyBank:
    """charge() succeeds, or raises ConnectionError (the request never arrived: nothing
    happened), TimeoutError (the bank acted, but its reply was lost) or CardDeclined (the
    bank said no, and the reply arrived). A lost request and a lost reply look the same to
    the caller, which is the whole trouble; a decline does not.

    rng: a random.Random that decides the losses; it is drawn from twice per request,
    whatever happens, so two runs with the same seed lose the same requests and replies
    whatever key the caller sends. decline_rng: another, drawn from once per request, so a
    decline chance of 0 leaves every other chance exactly as it was.
    """

    def __init__(self, db, rng, lose_request, lose_reply, decline_rng=None, decline=0.0):
        self.db, self.rng, self.decline_rng = db, rng, decline_rng
        self.lose_request, self.lose_reply, self.decline = lose_request, lose_reply, decline
        self.lost_requests = self.lost_replies = self.absorbed = 0
        self.declines = self.declines_replayed = 0
        self.last_answer = None   # what the bank did with the latest request (ANSWERS, or None)
        self.last_reply_lost = False
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

    def charges_for(self, order_id):
        """How many times the bank charged for one order."""
        return self.db.execute("SELECT count(*) FROM bank.charges WHERE order_id = ?",
                               (order_id,)).fetchone()[0]

    def charge(self, account, amount, key=None, order_id=None):
        """Charge `amount` dollars, once per `key` (None: no protection). Returns
        'charged' or 'already done' (a key charged before). Raises as the class says."""
        request_lost = self.rng.random() < self.lose_request
        reply_lost = self.rng.random() < self.lose_reply
        declined = self.decline_rng is not None and self.decline_rng.random() < self.decline
        self.last_answer, self.last_reply_lost = None, False
        if request_lost:
            self.lost_requests += 1
            raise ConnectionError("the request never reached the bank")
        # Inside the bank: the key check and the charge (or the decline) are one transaction.
        with tinyq.transaction(self.db):
            answer = "declined" if declined else "charged"
            if key is not None and self.db.execute(REMEMBER_KEY, (key, answer)).rowcount == 0:
                answer = self.db.execute("SELECT answer FROM bank.requests WHERE idempotency_key = ?",
                                         (key,)).fetchone()[0]
                self.last_answer = "already done" if answer == "charged" else "declined before"
            else:
                self.last_answer = answer
            if self.last_answer == "charged":
                self.db.execute("UPDATE bank.accounts SET balance = balance - ? WHERE name = ?",
                                (amount, account))
                self.db.execute("INSERT INTO bank.charges (account, amount, order_id) "
                                "VALUES (?, ?, ?)", (account, amount, order_id))
        if self.last_answer == "already done":
            self.absorbed += 1
        elif self.last_answer == "declined":
            self.declines += 1
        elif self.last_answer == "declined before":
            self.declines_replayed += 1
        if reply_lost:
            self.lost_replies += 1
            self.last_reply_lost = True
            raise TimeoutError("no reply from the bank")
        if self.last_answer in ("declined", "declined before"):
            raise CardDeclined("the bank declined the card")
        return self.last_answer
