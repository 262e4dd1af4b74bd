"""What the race's picture draws: each worker's mark on a job row, the arrow on the statement it
just ran, and a clock that counts statements. Keys only, computed from a Race (race.py).

A worker's mark sits on the row it has looked at (its look saw that job queued) until it marks
the job done: hollow while it has only looked, filled once it has taken the job (a naive grab, or
an atomic claim, which looks and takes in one statement). A row that two or more workers have
looked at is flagged "looked-twice" (amber); one that two or more have taken, "taken-twice" (red).
Both flags stay on the row once raised: they tell what happened to that job.

Each mark's kind (`mark`) is one the legend shows (MARK_LEGEND): "looked" (a hollow, dashed ring),
"took" (a filled circle), "took-twice" (filled red: it took a job another worker took too). When a
job's email has gone out more than once, its row's words say so ("ada got the welcome email twice").
"""
from ..engine.simulation import plural

# Each program's statements as the picture lists them: the very statements the worker's card
# shows in full (race.py's next_statement), cut short only where "…" stands, never another version
# of them. "sql" is one statement against the table; "effect" is the email.
PROGRAM_LINES = {
    "naive": (
        ("look", "look", "sql", "SELECT id, args FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1"),
        ("grab", "grab", "sql", "UPDATE jobs SET status = 'running', attempts = attempts + 1, … "
                                "WHERE id = :id"),
        ("send", "send", "effect", "send the welcome email"),
        ("done", "mark done", "sql", "UPDATE jobs SET status = 'done', … WHERE id = :id"),
    ),
    "atomic": (
        ("claim", "claim", "sql", "UPDATE jobs SET status = 'running', … WHERE id = coalesce(…) "
                                  "RETURNING id, …"),
        ("send", "send", "effect", "send the welcome email"),
        ("ack", "ack", "sql", "UPDATE jobs SET status = 'done', … WHERE id = :id AND token = :token "
                              "AND status = 'running'"),
    ),
}

# Where a worker's mark is, by the statement it runs next: it has looked (a naive look found a
# job; it grabs next) or it has taken the job (until its last statement marks it done).
HOLD_BY_STEP = {"grab": "looked", "send": "took", "done": "took", "ack": "took"}

MARK_WORDS = {"looked": "looked at", "took": "took"}

# Every kind of mark the rows can show, in the legend's order, with the legend's words.
MARK_LEGEND = (("looked", "looked at it"), ("took", "took it"),
               ("took-twice", "took it, and so did another"))
TIMES = {2: "twice", 3: "three times"}


def names_in_words(names):
    """["A"] -> "A"; ["A", "B"] -> "A and B"; ["A", "B", "C"] -> "A, B and C"."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def program(mode):
    """[{step, words, kind, text}]: the statements every worker runs, in order, then again."""
    return [{"step": step, "words": words, "kind": kind, "text": text}
            for step, words, kind, text in PROGRAM_LINES[mode]]


def worker_keys(worker):
    """A worker's place in the picture: `row` (the job id its mark sits on, or None), `hold`
    ("looked", "took" or None), `last` (the index in `program` of the statement it just ran, or
    None before its first), and `last_words`."""
    hold = HOLD_BY_STEP.get(worker.step) if worker.job_id is not None else None
    just_ran = ("has run nothing yet" if worker.last is None
                else f"just ran statement {worker.last + 1}")
    return {"row": worker.job_id if hold else None, "hold": hold, "last": worker.last,
            "last_words": just_ran}


def mark_legend():
    """[{mark, words}]: every kind of mark the job rows can show, as the legend lists them."""
    return [{"mark": mark, "words": words} for mark, words in MARK_LEGEND]


def emails_words(race, job_id):
    """"ada got the welcome email twice" once a job's email has gone out more than once, else
    None (the person is the address's name)."""
    sent = [address for sent_for, address, _ in race.emails if sent_for == job_id]
    if len(sent) < 2:
        return None
    return f"{sent[0].split('@')[0]} got the welcome email {TIMES.get(len(sent), f'{len(sent)} times')}"


def row_keys(race, job_id):
    """A job row's marks: `marks` [{worker, hold, mark}] (the workers whose mark is on it now;
    `mark` the legend's kind, "took-twice" for a take on a row two or more took), `looked_by`
    and `taken_by` (every worker that ever looked at / took it, in order), `flag`
    ("taken-twice", "looked-twice" or None) with `flag_words` (and, once its email went out more
    than once, who got it how often), and `workers_words` (the row's marks in words, for the
    table)."""
    looked, taken = race.looked.get(job_id, []), race.taken.get(job_id, [])
    twice = len(taken) > 1
    marks = [{"worker": w.name, "hold": keys["hold"],
              "mark": "took-twice" if twice and keys["hold"] == "took" else keys["hold"]}
             for w in race.workers.values()
             for keys in (worker_keys(w),) if keys["row"] == job_id]
    flag = flag_words = None
    if twice:
        flag, flag_words = "taken-twice", f"{names_in_words(taken)} all took job {job_id}"
    elif len(looked) > 1:
        flag, flag_words = "looked-twice", f"{names_in_words(looked)} all saw job {job_id} queued"
    if flag and len(taken if flag == "taken-twice" else looked) == 2:
        flag_words = flag_words.replace(" all ", " both ")
    repeated = emails_words(race, job_id)
    if repeated:
        flag_words = f"{flag_words}: {repeated}" if flag_words else repeated[0].upper() + repeated[1:]
    said = [f"{mark['worker']} {MARK_WORDS[mark['hold']]} it" for mark in marks]
    return {"marks": marks, "looked_by": list(looked), "taken_by": list(taken), "flag": flag,
            "flag_words": flag_words, "workers_words": "; ".join(said) or "—"}


def clock_words(statements):
    """The race's clock: "1 statement", "12 statements"."""
    return plural(statements, "statement")
