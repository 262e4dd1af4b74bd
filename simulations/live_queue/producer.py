"""live-queue: the producer, which adds jobs at random moments (Poisson arrivals at `rate` jobs a
second), and every enqueue, the reader's too: through the queue's capacity, with each job's ETA.
A mixin of LiveQueue (model.py), which holds the state it changes."""
import math

from ..engine.capstone import tinyq


class Producer:
    def _produce(self):
        rate = self.settings["rate"]
        if rate <= 0:
            return
        # Arrivals in one tick follow a Poisson distribution (Knuth's method, TAOCP vol. 2).
        limit, arrivals, product = math.exp(-rate / self.TICKS_PER_SECOND), 0, self.rng.random()
        while product > limit:
            arrivals += 1
            product *= self.rng.random()
        room = self.MAX_JOBS - self.total
        if arrivals and not room and not self.cap_reported:
            self.cap_reported = True
            self.emit(f"the producer stops: {self.MAX_JOBS:,} jobs is the most one run may hold")
        if arrivals and room:
            self._enqueue(min(arrivals, room))

    def _enqueue(self, count):
        count = self._room_in_queue(count)   # a full queue refuses the rest, in words
        if not count:
            return
        first = self.total + 1
        with tinyq.transaction(self.queue.db):
            for _ in range(count):
                job_id = self.queue.enqueue("send_email", {"n": len(self.emails)},
                                            delay=self._delay())
                self.emails.append(0)
                self._scheduled(job_id)
        ids = f"job {first}" if count == 1 else f"jobs {first}–{first + count - 1}"
        self.emit(f"{ids} enqueued")
