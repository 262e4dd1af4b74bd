"""The reader's handlers, run in one interpreter and judged in another: the effects between them.

The reader's code runs in a Python of its own (the page's throwaway reader worker), in a world
that records every effect a handler asks for, with the answer the world gave:

    ["email", to, subject, key, outcome]       world.send_email(to, subject, idempotency_key=key)
    ["charge", account, dollars, key, outcome] world.charge / bank.charge
    ["sql", sql, params, outcome]              db.execute(sql, params), on queue.db or in complete()
    ["enter", outcome]                         `with job.complete() as db:` begins
    ["exit", raised, outcome]                  ...and ends (raised: the exception leaving the block)

outcome is ["ok", value] (the world's answer; for SQL, the rows as lists) or ["raise", name].
Each handler call is {"job": id, "attempt": n, "events": [...], "end": ["return"] or
["raise", name]}; names are those of EXCEPTIONS. That list, plain JSON, is all that leaves the
reader's interpreter.

The judge (judge/replay.py's Replayer) runs the same seeded run in its own interpreter and, where the run calls a
handler, performs the recorded effects in its own world instead. Every answer its world gives
must equal the recorded one, and every handler call must be the one its run makes next (same job,
same attempt): a trace that does not fit is Diverged, and the verdict is a failure. So nothing the
code does inside its own interpreter writes the verdict: only effects the judge's world performed
itself are audited, and the audit counts them there, not in anything the reader's side sent.
"""
import math
import sqlite3
from contextlib import contextmanager

from ..engine.capstone import tinyq
from .sandbox import no_attach

MAX_EVENTS = 20_000          # effects in one trace: more cannot come from an honest run
READER_SQL_STEPS = 200_000   # SQLite virtual-machine steps per statement of the reader's
TABLES_WRITABLE = ("customers",)


class WorkerKilled(BaseException):
    """The chaos monkey pulled the plug on this worker: no except, no ack, no commit."""


class Diverged(BaseException):
    """The recorded effects do not fit the judge's run. A BaseException: nothing in tinyq or the
    run catches it."""


class HandlerFailed(Exception):
    """Stands for an exception of the reader's own (not one the world raised) in a replay."""


EXCEPTIONS = {"ConnectionError": ConnectionError, "TimeoutError": TimeoutError,
              "LeaseLost": tinyq.LeaseLost, "WorkerKilled": WorkerKilled}


def name_of(error):
    """The name a trace gives `error`: a key of EXCEPTIONS, or 'other'."""
    for name, kind in EXCEPTIONS.items():
        if isinstance(error, kind):
            return name
    return "other"


def make(name):
    """An instance of the exception a trace names."""
    return EXCEPTIONS.get(name, HandlerFailed)(f"replayed {name}")


def scalar(value):
    """A value of a row or a parameter as plain JSON (bytes as hex, a non-finite float as text)."""
    if value is None or type(value) in (str, int):
        return value
    if type(value) is bool:
        return int(value)
    if type(value) is float:
        return value if math.isfinite(value) else repr(value)
    if type(value) is bytes:
        return value.hex()
    raise TypeError(f"a SQL parameter must be text, a number or None, not {type(value).__name__}")


def plain_params(params):
    """params (a tuple, list or dict of scalars) as JSON: a list, or a dict with text keys."""
    if type(params) in (tuple, list):
        return [scalar(value) for value in params]
    if type(params) is dict and all(type(key) is str for key in params):
        return {key: scalar(value) for key, value in params.items()}
    raise TypeError("SQL parameters must be a tuple, a list or a dict")


def reader_authorizer(action, table, *_):
    """What a statement of the reader's may do: read anything, write only the shop's own tables;
    no transactions, schema changes, ATTACH or recursive queries (a loop SQLite runs forever)."""
    if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION):
        return sqlite3.SQLITE_OK
    if action in (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE):
        return sqlite3.SQLITE_OK if table in TABLES_WRITABLE else sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_DENY


_reader_statement = [False]   # True while a statement of the reader's is being run


def guarded(action, table, *rest):
    """The judge's connections' one authorizer: reader_authorizer while a statement of the
    reader's is run, else no ATTACH. Installed once: changing a connection's authorizer expires
    every prepared statement, and tinyq's would all be prepared again after each of the reader's."""
    if _reader_statement[0]:
        return reader_authorizer(action, table, *rest)
    return no_attach(action, table, *rest)


READER_MARK = "/* the reader's */ "   # so no statement of the reader's is one tinyq prepared


def execute_readers(db, sql, params):
    """Run one statement of the reader's on `db` (whose authorizer is guarded) under
    reader_authorizer and a step limit; return its rows as lists of scalars. The mark makes its
    text unlike any of tinyq's, so SQLite's statement cache never hands it one prepared under
    tinyq's rules."""
    steps = [0]

    def progress():
        steps[0] += 1
        return steps[0] > READER_SQL_STEPS // 1000
    _reader_statement[0] = True
    db.set_progress_handler(progress, 1000)
    try:
        return [[scalar(value) for value in row]
                for row in db.execute(READER_MARK + sql,
                                      tuple(params) if type(params) is list else params)]
    finally:
        db.set_progress_handler(None, 0)
        _reader_statement[0] = False


def attempt(action):
    """['ok', value] or ['raise', name]: what the world answered."""
    try:
        return ["ok", action()]
    except Exception as error:
        return ["raise", name_of(error)]
    except WorkerKilled:
        return ["raise", "WorkerKilled"]


class Rows:
    """What db.execute() gives the reader's code: the rows, already read."""

    def __init__(self, rows):
        self._rows, self._at, self.rowcount = [tuple(row) for row in rows], 0, len(rows)

    def fetchone(self):
        self._at += 1
        return self._rows[self._at - 1] if self._at <= len(self._rows) else None

    def fetchall(self):
        rest, self._at = self._rows[self._at:], len(self._rows)
        return rest

    def __iter__(self):
        return iter(self.fetchall())


class Recorder:
    """The reader's side: wraps what the reader's code is given so each effect is recorded."""

    def __init__(self, run):
        self.run, self.calls, self.current, self.count = run, [], None, 0

    def note(self, event):
        self.count += 1
        if self.count > MAX_EVENTS:
            raise RuntimeError(f"your code asked for more than {MAX_EVENTS:,} effects")
        self.current["events"].append(event)
        return event

    def effect(self, event, action):
        """Record `event` with the world's answer to `action`; answer the reader as the world did."""
        if self.current is None:
            raise RuntimeError("the world and the database can be used only inside a handler, "
                               "while it handles a job")
        try:
            value = action()
        except BaseException as error:
            self.note([*event, ["raise", name_of(error)]])
            raise
        self.note([*event, ["ok", value]])
        return value

    def send_email(self, to, subject, idempotency_key=None):
        check_text(to, "the address"), check_text(subject, "the subject"), check_key(idempotency_key)
        return self.effect(["email", to, subject, idempotency_key],
                           lambda: self.run.send_email(to, subject, idempotency_key))

    def charge(self, account, dollars, idempotency_key=None):
        check_text(account, "the account")
        if type(dollars) not in (int, float) or not math.isfinite(dollars):
            raise TypeError("the dollars must be a number")
        check_key(idempotency_key)
        return self.effect(["charge", account, dollars, idempotency_key],
                           lambda: self.run.charge(account, dollars, idempotency_key))

    def execute(self, sql, params=()):
        check_text(sql, "the SQL")
        plain = plain_params(params)
        rows = self.effect(["sql", sql, plain],
                           lambda: execute_readers(self.run.queue.db, sql, plain))
        return Rows(rows)

    def handler(self, function):
        """Wrap the reader's handler: each call becomes one entry of the trace."""
        def recorded(job):
            self.current = {"job": job.id, "attempt": job.attempts, "events": [], "end": None}
            self.calls.append(self.current)
            try:
                function(ReaderJob(job, self))
            except BaseException as error:
                self.current["end"] = ["raise", name_of(error)]
                raise
            else:
                self.current["end"] = ["return"]
            finally:
                self.current = None
        return recorded


class ReaderDB:
    """queue.db and complete()'s db, as the reader's code sees them: execute() only."""

    def __init__(self, recorder):
        self.execute = recorder.execute


class ReaderJob:
    """The job a reader's handler receives: its id, kind, args (a copy), attempts, token and
    complete()."""

    def __init__(self, job, recorder):
        self.id, self.kind, self.attempts, self.token = job.id, job.kind, job.attempts, job.token
        self.args = dict(job.args)
        self._view, self._recorder = job, recorder

    @contextmanager
    def complete(self):
        recorder, block = self._recorder, self._view.complete()
        recorder.effect(["enter"], lambda: block.__enter__() and None)
        try:
            yield ReaderDB(recorder)
        except BaseException as error:
            recorder.effect(["exit", name_of(error)],
                            lambda: block.__exit__(type(error), error, None) and None)
            raise
        recorder.effect(["exit", None], lambda: block.__exit__(None, None, None) and None)


def check_text(value, what):
    if type(value) is not str:
        raise TypeError(f"{what} must be text (a str), not {type(value).__name__}")


def check_key(key):
    if key is not None and type(key) is not str:
        raise TypeError(f"idempotency_key must be text or None, not {type(key).__name__}")
