"""Copy a running simulation, database and all, so a timeline can come back to this moment.

Checkpoint(sim) freezes a moment as bytes; .thaw() gives an independent simulation in exactly
that state, as often as asked (clone(sim) does both). It knows nothing about any one
simulation: it pickles the simulation, and each sqlite3.Connection pickle meets is pickled as
its databases' images from serialize() (Python 3.11+, and Pyodide; attached databases too);
thawing deserializes each image into a fresh connection (once, however many objects share it).
pickle is used, not copy.deepcopy, because it is several times faster (bench/bench_timeline.py).

Some moments cannot be copied, and say so with CannotClone:
- a connection inside an open transaction (a copy would lose what it has not committed);
- objects pickle refuses, such as a generator (crash-timing's actors are generators): the
  timeline then replays from the start instead (for the small runs that do this).
"""
import io
import pickle
import sqlite3
import zlib


class CannotClone(Exception):
    """This moment of this simulation cannot be copied (the message says why)."""


class _Pickler(pickle.Pickler):
    """Pickles a simulation with each connection as its databases' image. (reducer_override
    is not even called for ints, strings, lists and dicts, so this costs little.)"""

    def reducer_override(self, obj):
        if isinstance(obj, sqlite3.Connection):
            return restore_connection, (image(obj),)
        return NotImplemented


class Checkpoint:
    """A moment of a simulation, frozen as bytes (the pickled objects, with each database's
    image inside; zlib-compressed if compress). thaw() gives a fresh, independent simulation
    in that state, as often as asked. Raises CannotClone."""

    def __init__(self, sim, compress=False):
        buffer = io.BytesIO()
        try:
            _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(sim)
        except (TypeError, AttributeError, pickle.PicklingError) as error:
            raise CannotClone(str(error)) from None
        # zlib level 1: a live-queue of 5,000 jobs shrinks from ~320 KB to ~90 KB, but it
        # costs ~40 ms to take and ~10 ms to restore in Pyodide (bench/bench_timeline.py)
        self.compressed = compress
        self.frozen = zlib.compress(buffer.getbuffer(), 1) if compress else buffer.getvalue()

    def thaw(self):
        return pickle.loads(zlib.decompress(self.frozen) if self.compressed else self.frozen)

    def size(self):
        """Bytes held, compressed (the database images are most of it)."""
        return len(self.frozen)


def image(conn):
    """(isolation_level, [(schema, bytes)]) of a connection's main and attached databases.
    Raises CannotClone inside an open transaction or with a custom row or text factory."""
    if conn.in_transaction:
        raise CannotClone("a database is inside an open transaction")
    if conn.row_factory is not None or conn.text_factory is not str:
        raise CannotClone("a connection has its own row_factory or text_factory")
    schemas = [(schema, conn.serialize(name=schema))
               for _, schema, _ in conn.execute("PRAGMA database_list").fetchall()
               if schema != "temp"]  # only its own connection sees temp; no simulation uses it
    return conn.isolation_level, schemas


def restore_connection(saved):
    isolation_level, schemas = saved
    fresh = sqlite3.connect(":memory:", isolation_level=isolation_level)
    for schema, data in schemas:
        if schema != "main":
            fresh.execute("ATTACH DATABASE ':memory:' AS " + quote(schema))
        fresh.deserialize(data, name=schema)
    return fresh


def quote(name):
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


def clone(sim):
    """An independent copy of `sim` in the same state. Raises CannotClone."""
    return Checkpoint(sim).thaw()
