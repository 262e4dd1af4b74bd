"""live-queue's time: ticks of a tenth of a second, and tinyq's clock that counts them.

tinyq runs on the tick count rather than on float seconds, so that a lease ending on a tick
ends exactly on it: in float seconds 0.3 + 2.0 and 2.3 are not always the same number.
"""
TICKS_PER_SECOND = 10


class TickClock:
    """tinyq's clock in a live queue: the simulation's tick count, read by calling it like
    time.time (a class, not a lambda, so that a checkpoint can pickle the simulation)."""

    def __init__(self, sim):
        self.sim = sim

    def __call__(self):
        return self.sim.ticks


def to_ticks(seconds):
    """A span of seconds in whole ticks, at least one."""
    return max(1, round(seconds * TICKS_PER_SECOND))


def lease_ticks(seconds):
    """A lease in ticks for tinyq: whole when it is a whole number of tenths (2.3 s: 23), so
    that it ends exactly on a tick; otherwise as it is (2.05 s: 20.5)."""
    ticks = seconds * TICKS_PER_SECOND
    return float(round(ticks)) if abs(ticks - round(ticks)) < 1e-9 else ticks


def in_seconds(ticks):
    """A time or span from the tick clock in seconds, to the millisecond (None stays None)."""
    return None if ticks is None else round(ticks / TICKS_PER_SECOND, 3)
