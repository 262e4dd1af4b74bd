"""crash-timing's outcome in words: the headline verdict and the sentence under it, so far or
once the run has ended; and, when the job is left running with no worker coming for it, why.

Each function takes the CrashTiming simulation (model.py) and only reads it.
"""
from .options import out_of_attempts
from ..engine.params import show_number
from ..engine.simulation import plural

# A verdict's words, one vocabulary for the headline and the outcome sentence that opens with it.
VERDICT_WORDS = {"lost": "Lost", "exactly once": "Exactly once", "duplicated": "Duplicated",
                 "unfinished": "Unfinished", "orphaned": "Orphaned job", "consistent": "Consistent",
                 "dead": "Dead"}


def verdict(sim):
    """The headline: {code, words}; the code is sim.result() once finished, else None."""
    code = sim.result() if sim.finished else None
    return {"code": code, "words": "not yet known" if code is None else VERDICT_WORDS[code]}


def nobody_left(sim):
    """True when the job is not finished (done, or dead out of attempts) and no worker will
    ever work on it again: none is working, and none is on its way (B after A's death or A's
    lease)."""
    if sim._status() in ("done", "dead") or "working" in sim.fate.values():
        return False
    return not any(actor in ("A", "B") or (actor == "lease" and sim.scenario == "lease-too-short")
                   for actor in sim.agenda.actors())


def stuck(sim):
    """Why the job stays running forever, in words (see nobody_left)."""
    dead = [who for who in ("A", "B") if sim.fate[who] == "killed"]
    gone = [who for who in ("A", "B") if sim.fate[who] == "finished"]
    why = " and ".join(dead) + (" are dead" if len(dead) > 1 else " is dead")
    if gone:
        why += f" and {' and '.join(gone)} has already ended its attempt"
    ends = sim._lease_end()
    if ends > sim.clock.now:
        lease = f"when its lease runs out at {show_number(ends)} s no worker will claim it again"
    else:
        lease = f"its lease ran out at {show_number(ends)} s with no worker to claim it again"
    return f"The job is still running and nobody is left to finish it: {why}; {lease}"


def outcome(sim):
    """The outcome sentence: "So far: ..." while the run goes on, else the verdict's words and
    what happened (the producer scenario has its own, producer.py)."""
    if sim.scenario == "producer":
        return sim.producer_outcome()
    what = sim.what_happened(sim.effects())
    if sim.finished and sim._status() == "dead":
        return out_of_attempts(sim, what)
    refused = (f"the token refused {' and '.join(sim.refused)}'s late finish"
               if sim.refused else "")
    if nobody_left(sim):
        head = "Unfinished" if sim.finished else "So far"
        tail = f"; {refused}" if refused else ""
        return f"{head}: {what}. {stuck(sim)}{tail}."
    if not sim.finished:
        pending = " (not committed yet)" if sim.queue.db.in_transaction else ""
        return f"So far: {what}{pending}."
    sentence = f"{VERDICT_WORDS[sim.result()]}: {what}"
    if sim.result() == "lost":
        sentence += ", yet the queue says the job is done"
    if sim.absorbed:
        sentence += f"; {plural(sim.absorbed, 'repeat')} absorbed by the idempotency key"
    sentence += sim.skipped_words()
    if refused:
        sentence += f"; {refused}"
    return sentence + "."
