"""Driving a simulation in a test, as the page does: run() covers at most MAX_RUN_STEPS moves a
call, so a test calls it again until it reports it got there."""


def run_to(sim, seconds, acts=()):
    """Run `sim` to `seconds`, doing each (at seconds, action, args) on the way; returns `sim`."""
    for when, name, args in acts:
        while not sim.run(until=when):
            pass
        sim.act(name, **args)
    while not sim.run(until=seconds):
        pass
    return sim


def settle(sim):
    """Run `sim` until nothing more happens; returns its snapshot."""
    return run_to(sim, 1e9).snapshot()


def texts(sim):
    """The words of the events since the last snapshot."""
    return [event["text"] for event in sim.snapshot()["events"]]
