"""Copy a running simulation, database and all, so a timeline can come back to this moment.

clone(sim) -> an independent simulation in exactly the same state, or raises CannotClone.
It knows nothing about any one simulation: it walks the object for every sqlite3.Connection,
copies each database through serialize()/deserialize() (Python 3.11+, and Pyodide), and lets
copy.deepcopy copy the rest with each connection already mapped to its copy.

Some moments cannot be copied, and say so with CannotClone:
- a connection inside an open transaction (a copy would lose what it has not committed);
- objects deepcopy refuses, such as a generator (crash-timing's actors are generators): the
  timeline then replays from the start instead (for the small runs that do this).
"""
import copy
import sqlite3
import types
from collections import deque

_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
         str, bytes, int, float, bool, type(None))


class CannotClone(Exception):
    """This moment of this simulation cannot be copied (the message says why)."""


def connections(root):
    """Every sqlite3.Connection reachable from `root` through attributes, dicts, lists,
    tuples, sets and deques (each once)."""
    found, seen, todo = [], set(), [root]
    while todo:
        obj = todo.pop()
        if isinstance(obj, _SKIP) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, sqlite3.Connection):
            found.append(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset, deque)):
            todo.extend(obj)
        elif isinstance(obj, types.MethodType):
            todo.append(obj.__self__)
        elif hasattr(obj, "__dict__"):
            todo.extend(vars(obj).values())
    return found


def copy_connection(conn):
    """A new in-memory connection holding the same databases (main and every attached one),
    with the same settings. Raises CannotClone inside an open transaction."""
    if conn.in_transaction:
        raise CannotClone("a database is inside an open transaction")
    fresh = sqlite3.connect(":memory:", isolation_level=conn.isolation_level)
    for _, schema, path in conn.execute("PRAGMA database_list").fetchall():
        if schema == "temp":
            continue  # only its own connection sees it; none of the simulations uses it
        if schema != "main":
            fresh.execute("ATTACH DATABASE ':memory:' AS " + quote(schema))
        fresh.deserialize(conn.serialize(name=schema), name=schema)
    fresh.row_factory, fresh.text_factory = conn.row_factory, conn.text_factory
    return fresh


def quote(name):
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


def clone(sim):
    """An independent copy of `sim` in the same state. Raises CannotClone."""
    memo = {id(conn): copy_connection(conn) for conn in connections(sim)}
    try:
        return copy.deepcopy(sim, memo)
    except (TypeError, copy.Error) as error:
        raise CannotClone(str(error)) from None


def size_in_bytes(sim):
    """The bytes of every database `sim` holds (what a checkpoint of it mostly costs)."""
    return sum(len(conn.serialize()) for conn in connections(sim))
