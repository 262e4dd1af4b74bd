"""The outside world for the capstone: a flaky mail provider and a flaky bank.

Both services keep their records in one SQLite file (world.db), apart from the
shop's own database, because in real life they belong to somebody else. Between
the shop and each service sits an unreliable network: some requests never
arrive, and some are carried out but their reply is lost on the way back.

Each service remembers the idempotency keys it has seen, and it checks a key
and does the work in one transaction, so a repeat with a known key does nothing
(Stripe's idempotent requests work this way: https://docs.stripe.com/api/idempotent_requests).

Break it: run with TINYQ_NO_KEYS=1 and the world replaces every key it is given
with a random one, the way a client that makes a fresh uuid4() on every attempt
would. Repeats can no longer be recognised.
"""
import os
import random
import sqlite3
import uuid

from tinyq import transaction

LOSE_REQUEST = 0.15   # chance that a request never reaches the service
LOSE_REPLY = 0.15     # chance that the service does the work but the reply is lost

SCHEMA = """
CREATE TABLE IF NOT EXISTS requests (      -- every request that set off, and its fate
    n         INTEGER PRIMARY KEY,
    service   TEXT NOT NULL,               -- 'mail' or 'bank'
    about     TEXT NOT NULL,               -- the recipient or the account
    key       TEXT,
    outcome   TEXT NOT NULL CHECK (outcome IN ('lost', 'done', 'repeat')),
    reply     TEXT NOT NULL CHECK (reply IN ('none', 'lost', 'delivered'))
);
CREATE TABLE IF NOT EXISTS seen_keys (     -- what each service remembers
    key       TEXT PRIMARY KEY,
    answer    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS emails (        -- the mail provider's outbox
    id        INTEGER PRIMARY KEY,
    recipient TEXT NOT NULL,
    subject   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS charges (       -- the bank's ledger
    id        INTEGER PRIMARY KEY,
    account   TEXT NOT NULL,
    dollars   INTEGER NOT NULL
);
"""


def dice(*about):
    """Return a number in [0, 1) that depends only on `about`.

    The same arguments always give the same number, in any process, so a seeded
    run of the chaos test meets the same bad luck whichever worker gets there.
    (random.Random seeds itself from all the bits of a string, not from hash().)
    """
    return random.Random(":".join(str(part) for part in about)).random()


def keys_switched_off():
    """True when TINYQ_NO_KEYS=1 is set; raise ValueError for any other value."""
    value = os.environ.get("TINYQ_NO_KEYS", "0")
    if value not in ("0", "1", ""):
        raise ValueError(f"TINYQ_NO_KEYS must be 1 (keys off) or 0 (keys on), not {value!r}")
    return value == "1"


class World:
    """The mail provider and the bank, behind a network that loses messages.

    seed: the bad luck of a run; lose_request and lose_reply: chances in [0, 1].
    """

    def __init__(self, path="world.db", seed=0, lose_request=LOSE_REQUEST,
                 lose_reply=LOSE_REPLY):
        if not (0 <= lose_request and 0 <= lose_reply and lose_request + lose_reply <= 1):
            raise ValueError("lose_request and lose_reply must be chances that add up to at most 1")
        self.seed = seed
        self.lose_request = lose_request
        self.lose_reply = lose_reply
        self.keys = not keys_switched_off()
        self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode = WAL")   # as tinyq does: readers never block writers
        self.db.executescript(SCHEMA)

    # --- the two services ----------------------------------------------------

    def send_email(self, to, subject, idempotency_key=None):
        """Send one email. Return 'sent', or 'already sent' for a known key.

        Raises ConnectionError (request lost: nothing happened) or TimeoutError
        (reply lost: the email may well have gone out).
        """
        def deliver(db):
            db.execute("INSERT INTO emails (recipient, subject) VALUES (?, ?)", (to, subject))
            return "sent"
        return self._request("mail", to, idempotency_key, deliver, "already sent")

    def charge(self, account, dollars, idempotency_key=None):
        """Take `dollars` from `account`. Return 'charged', or 'already charged'.

        Raises ConnectionError or TimeoutError, as send_email does.
        """
        def take_money(db):
            db.execute("INSERT INTO charges (account, dollars) VALUES (?, ?)", (account, dollars))
            return "charged"
        return self._request("bank", account, idempotency_key, take_money, "already charged")

    def _request(self, service, about, key, work, repeat_answer):
        if key is not None and not self.keys:
            key = uuid.uuid4().hex          # the mistake: a key nobody has seen before
        with transaction(self.db) as db:    # one request at a time: check, work, remember
            earlier = db.execute("SELECT count(*) FROM requests WHERE service = ? AND about = ?",
                                 (service, about)).fetchone()[0]
            roll = dice(self.seed, service, about, earlier)
            if roll < self.lose_request:
                outcome, reply = "lost", "none"
            else:
                seen = None
                if key is not None:
                    seen = db.execute("SELECT answer FROM seen_keys WHERE key = ?",
                                      (key,)).fetchone()
                if seen is None:
                    outcome, answer = "done", work(db)
                    if key is not None:
                        db.execute("INSERT INTO seen_keys (key, answer) VALUES (?, ?)",
                                   (key, answer))
                else:
                    outcome, answer = "repeat", repeat_answer
                lost = roll < self.lose_request + self.lose_reply
                reply = "lost" if lost else "delivered"
            db.execute("INSERT INTO requests (service, about, key, outcome, reply) "
                       "VALUES (?, ?, ?, ?, ?)", (service, about, key, outcome, reply))
        if reply == "none":
            raise ConnectionError(f"the {service} request about {about} never arrived")
        if reply == "lost":
            raise TimeoutError(f"no reply from the {service} about {about}")
        return answer

    # --- what an auditor can see ---------------------------------------------

    def emails_to(self, recipient):
        """How many emails went out to `recipient`."""
        return self.db.execute("SELECT count(*) FROM emails WHERE recipient = ?",
                               (recipient,)).fetchone()[0]

    def charged(self, account):
        """How many dollars the bank took from `account`, in all."""
        return self.db.execute("SELECT coalesce(sum(dollars), 0) FROM charges WHERE account = ?",
                               (account,)).fetchone()[0]

    def tally(self):
        """Counts of what the network and the services did: a dict of ints."""
        lost, replies_lost, repeats = self.db.execute("""
            SELECT coalesce(sum(outcome = 'lost'), 0), coalesce(sum(reply = 'lost'), 0),
                   coalesce(sum(outcome = 'repeat'), 0)
            FROM requests""").fetchone()
        return {"requests lost": lost, "replies lost": replies_lost, "repeats absorbed": repeats}

    def reset(self):
        """Forget everything: no emails, no charges, no keys, no requests."""
        self.db.executescript("DELETE FROM requests; DELETE FROM seen_keys; "
                              "DELETE FROM emails; DELETE FROM charges;")
