"""tinyq_pg's connection to the server: session settings, transactions, and reconnecting.

A server restarts, a network blips, an idle-in-transaction timeout ends a session: the worker's
connection is gone. What may be done again after that depends on what was lost:
- a statement not yet sent (the connection was already known to be closed): send it on a new
  connection;
- a read outside any transaction (a SELECT): ask again, it changed nothing;
- a write whose answer never came: its commit is unknown. It is not simply sent again:
  tinyq_pg.Queue first reads the job's row, which says whether it was committed
  (Queue._guarded, Job.complete), and a claim is made again as a new claim;
- anything inside a transaction: the whole transaction was rolled back or committed, and only
  the code that opened it can tell which, so the error goes on to it.
Between tries to reconnect the worker waits backoff() with jitter() (tinyq's, with the
queue's rng and sleep), until the queue's reconnect_for seconds have passed.
"""
import itertools
import logging
from contextlib import contextmanager

import psycopg

from tinyq import backoff, jitter

log = logging.getLogger("tinyq")
RECONNECT_BASE, RECONNECT_CAP = 0.05, 2.0    # seconds: the first wait, and the longest
MAX_DROPS = 10          # drops in a row during one action before its error goes on


class ConnectionLost(psycopg.OperationalError):
    """The server could not be reached again within the queue's reconnect_for seconds."""


def is_read(query):
    """True for a SELECT that locks nothing and moves no sequence: safe to ask twice."""
    text = query.lstrip().upper()
    return text.startswith("SELECT") and not any(
        word in text for word in ("FOR UPDATE", "FOR SHARE", "NEXTVAL", "SETVAL", "PG_ADVISORY"))


class Connection:
    """A psycopg connection in autocommit mode that reconnects, and takes sqlite3's ?.

    execute() turns each ? into psycopg's %s, so that the shop's SQL and yours run unchanged
    (a shortcut that is only safe for SQL with no ? inside a quoted string, true of all the
    guide's SQL), and gives a statement that reads %(now)s and was given no `now` the queue's
    clock. Everything else is psycopg's own connection, which is `raw`.
    conninfo: libpq's connection string; session: {setting: seconds} set on every new
    session; check(raw): raises if the schema is not the one this tinyq_pg needs; queue: the
    tinyq_pg.Queue, for its clock, monotonic, rng, sleep and reconnect_for.
    """

    def __init__(self, conninfo, session, check, queue):
        self.conninfo, self.session, self.check, self.queue = conninfo, session, check, queue
        self.in_block = False        # inside transaction(): a drop must reach its code
        self.raw = None
        self.reconnect()             # a worker that starts while the server restarts waits too

    def _open(self):
        raw = psycopg.connect(self.conninfo, autocommit=True)
        try:
            names = list(self.session)
            raw.execute("SELECT " + ", ".join("set_config(%s, %s, false)" for _ in names),
                        [part for name in names
                         for part in (name, f"{round(self.session[name] * 1000)}ms")])
            self.check(raw)
        except BaseException:
            raw.close()
            raise
        return raw

    def lost(self):
        """True once psycopg has found the connection broken or closed."""
        return self.raw.closed

    def reconnect(self):
        """Open a new connection in place of the lost one (or the first), trying again with
        backoff and jitter; raise ConnectionLost after the queue's reconnect_for seconds."""
        queue = self.queue
        give_up = queue.monotonic() + queue.reconnect_for
        first = self.raw is None
        if not first:
            self.raw.close()
        for attempt in itertools.count(1):
            try:
                self.raw = self._open()
            except psycopg.OperationalError as error:
                if queue.monotonic() >= give_up:
                    raise ConnectionLost(f"could not reach the server again in "
                                         f"{queue.reconnect_for} s: {error}") from error
                # The cap is reached long before try 30; a larger exponent would only overflow
                # the float (2 ** 1024) on a server that stays away through a thousand quick tries.
                wait = jitter(backoff(min(attempt, 30), RECONNECT_BASE, RECONNECT_CAP), queue.rng)
                log.warning("could not reconnect (try %d): %s; next try in %.2f s",
                            attempt, str(error).strip().splitlines()[0], wait)
                queue.sleep(wait)
            else:
                if attempt > 1 or not first:
                    log.warning("connected to the server again (try %d)", attempt)
                return

    def execute(self, query, params=None):
        query = query.replace("?", "%s")
        if self.raw.closed and not self.in_block:
            self.reconnect()            # lost earlier: nothing of this statement was sent
        if isinstance(params, dict) and "now" not in params and "%(now)s" in query:
            params = {**params, "now": self.queue.clock()}
        alone = not self.in_block
        try:
            return self.raw.execute(query, params)
        except psycopg.Error:            # any error: lost() tells a dropped connection
            if not (alone and self.raw.closed and is_read(query)):
                raise
            log.warning("the connection dropped during a read; reconnecting to read again")
            self.reconnect()
            return self.raw.execute(query, params)

    def again_after_a_drop(self, action, what):
        """Return action(); if the connection drops during it, reconnect and run it again.
        Only for an action that is right to run again whatever the first run did (a claim:
        a job it claimed unseen comes back when that lease runs out)."""
        for drop in itertools.count(1):
            try:
                return action()
            except psycopg.Error:            # any error: lost() tells a dropped connection
                if self.in_block or not self.lost() or drop == MAX_DROPS:
                    raise
                log.warning("the connection dropped during %s; reconnecting to make it again", what)
                self.reconnect()

    def __getattr__(self, name):
        return getattr(self.raw, name)


@contextmanager
def transaction(db):
    """`with transaction(db) as db:` runs the block as one transaction: BEGIN, then COMMIT,
    or ROLLBACK if the block raises anything (which then goes on).

    Differs from tinyq.transaction: no IMMEDIATE, no write lock for the whole database.
    PostgreSQL locks each row as a statement writes it, so transactions that touch different
    jobs run side by side; one that needs a row another holds waits for that one to end.
    """
    if not isinstance(db, Connection):       # a psycopg connection of your own
        with db.transaction():
            yield db
        return
    outer = db.in_block
    if db.lost() and not outer:
        db.reconnect()                       # nothing of this transaction was sent yet
    db.in_block = True
    try:
        with db.raw.transaction():
            yield db
    finally:
        db.in_block = outer
