"""Where two runs part: the first position at which two Timelines show different snapshots.

Used by the page's compare (timeline_view.py) to say where a branch leaves the run the reader
kept. It replays both from the last position their moves share, so its cost is the length of
the part that differs, not of the whole run.
"""
def first_difference(a, b):
    """The first position at which timelines a and b show different snapshots (events
    included: a snapshot after every move), from the start; None if they agree at every
    position both have. Neither timeline is moved."""
    same = 0  # the same moves from the same start give the same states up to here
    while same < min(len(a.moves), len(b.moves)) and a.moves[same] == b.moves[same]:
        same += 1
    if a.kind is not b.kind or a.params != b.params or a.seed != b.seed:
        same = 0
    left, right = a._twin(same), b._twin(same)
    for at in range(same, min(len(a.moves), len(b.moves)) + 1):
        if at > same:
            left._apply(left.moves[left.at])
            right._apply(right.moves[right.at])
        if left.sim.snapshot() != right.sim.snapshot():
            return at
    return None
