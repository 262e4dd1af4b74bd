"""The one fake clock of the tests: seconds that move only when a test moves them."""
from __future__ import annotations

import random


class FakeClock:
    """A clock in seconds that stands still until `now` is set, `sleep()` is called or (with
    `noise`) it is read.

    Call it, as tinyq calls its `clock` (like time.time); or put it where an exercise imports the
    `time` module: it answers `time()` and `sleep(seconds)`, and sleeping moves it on at once.
    With `noise`, every reading first adds up to `noise` seconds drawn from a generator seeded
    with `seed`: a slow, busy machine, repeatable.
    """

    def __init__(self, now: float = 0.0, noise: float = 0.0, seed: int = 0):
        self.now, self.noise, self.rng = now, noise, random.Random(seed)

    def time(self) -> float:
        if self.noise:
            self.now += self.rng.uniform(0, self.noise)
        return self.now

    __call__ = time

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
