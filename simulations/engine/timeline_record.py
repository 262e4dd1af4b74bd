"""A timeline's run as a link carries it: plain JSON that rebuilds the run exactly.

    {"sim": name, "params": {...} as given, "seed": n, "length": moves in the run,
     "actions": [[position, name, args]], "at": the position shown}

Only the reader's actions and the waits are written out; every other position is a step (the
simulations are deterministic for a seed, so the steps need no more). A wait (Play moving an
event-driven clock to a time) is written as the action WAIT with {"until": seconds}.
"""
from .params import ParamError

STEP, ACT, WAIT = "step", "act", "@wait"  # WAIT is how a wait appears in record()["actions"]
MAX_MOVES = 100_000  # the longest run a record may carry


def record(line):
    """The run and the moment of Timeline `line`: {sim, params, seed, actions: [[position,
    name, args]], length, at}. Steps fill the positions actions do not."""
    actions = [[at, move[1], move[2]] if move[0] == ACT else [at, WAIT, {"until": move[1]}]
               for at, move in enumerate(line.moves) if move[0] != STEP]
    return {"sim": line.kind.NAME, "params": line.params, "seed": line.seed,
            "actions": actions, "length": len(line.moves), "at": line.at}


def from_record(timeline, record, **options):
    """A Timeline (the class `timeline`, built with `options`) rebuilt from record() (e.g. read
    from a link), at its moment. Raises ParamError (field "record", or the simulation's own)
    for one that does not fit."""
    try:
        line = timeline(record["sim"], record["params"], record["seed"], **options)
        length = int(record["length"])
        if not 0 <= length <= MAX_MOVES:
            raise ValueError(f"length must be from 0 to {MAX_MOVES:,}")
        moves = [(STEP,)] * length
        for at, name, args in record["actions"]:
            if not 0 <= at < length:
                raise ValueError(f"an action at {at} is outside the run")
            moves[at] = ((WAIT, float(args["until"])) if name == WAIT
                         else (ACT, str(name), dict(args)))
    except ParamError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise ParamError("record", f"not a run this page wrote: {error}") from None
    line.moves = moves
    line.times = line.times + [None] * len(moves)
    while line.at < len(moves):
        line._apply(moves[line.at])
    line.seek(record["at"])
    return line


def apply_move(sim, move):
    """Replay one recorded move on `sim`: (STEP,), (ACT, name, args) or (WAIT, until seconds)."""
    if move[0] == STEP:
        sim.step()
    elif move[0] == ACT:
        sim.act(move[1], **move[2])
    else:
        sim.run(move[1])
