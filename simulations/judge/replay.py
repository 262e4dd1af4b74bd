"""The judge's side of the effects (judge/effects.py): a trace's effects, performed in the judge's
own run. Where the run calls a handler, Replayer.handler takes the trace's next handler call,
checks it is for the same job and attempt, performs each recorded effect in the judge's world and
compares the world's answer with the recorded one; any difference is Diverged. It trusts nothing
in the trace: every field is checked for its shape before it is used.
"""
from .effects import (EXCEPTIONS, MAX_EVENTS, Diverged, attempt, check_key, check_text,
                             execute_readers, make, plain_params)


class Replayer:
    """The judge's side: handlers that perform a trace's effects in the judge's own run."""

    def __init__(self, run, calls):
        if type(calls) is not list or len(calls) > MAX_EVENTS:
            raise Diverged("the trace is not a list of handler calls")
        self.run, self.calls, self.at = run, calls, 0

    def left(self):
        return len(self.calls) - self.at

    def handler(self, view):
        if self.at >= len(self.calls):
            raise Diverged(f"the judge's run called the handler for job {view.id} once more "
                           "than your code's run did")
        call = self.calls[self.at]
        self.at += 1
        if (type(call) is not dict or call.get("job") != view.id
                or call.get("attempt") != view.attempts or type(call.get("events")) is not list):
            raise Diverged(f"the judge's run gave job {view.id} (attempt {view.attempts}) to a "
                           "handler where your code's run did something else")
        blocks = []
        for event in call["events"]:
            self.perform(view, event, blocks)
        end = call.get("end")
        if end == ["return"] and not blocks:
            return
        if type(end) is not list or len(end) != 2 or end[0] != "raise" or blocks:
            raise Diverged(f"a handler call for job {view.id} ended in a way that cannot be replayed")
        if end[1] not in EXCEPTIONS:   # any other exception of the reader's ended the recording
            raise Diverged(f"a handler call for job {view.id} ended in a way that cannot be replayed")
        if end[1] == "WorkerKilled" and not self.run.killed:
            raise Diverged(f"a worker handling job {view.id} died where the judge's monkey did "
                           "not kill it")
        raise make(end[1])

    def perform(self, view, event, blocks):
        if type(event) is not list or not event or event[0] not in SHAPES \
                or len(event) != SHAPES[event[0]]:
            raise Diverged(f"an effect of job {view.id} is not one the judge knows: {event!r:.80}")
        op, run = event[0], self.run
        try:
            if op == "email":
                check_text(event[1], "to"), check_text(event[2], "subject"), check_key(event[3])
                got = attempt(lambda: run.send_email(event[1], event[2], event[3]))
            elif op == "charge":
                check_text(event[1], "account"), check_key(event[3])
                if type(event[2]) not in (int, float):
                    raise TypeError("dollars")
                got = attempt(lambda: run.charge(event[1], event[2], event[3]))
            elif op == "sql":
                check_text(event[1], "sql")
                params = plain_params(event[2])
                got = attempt(lambda: execute_readers(run.queue.db, event[1], params))
            elif op == "enter":
                block = view.complete()
                got = attempt(lambda: block.__enter__() and None)
                if got[0] == "ok":
                    blocks.append(block)
            else:
                if not blocks:
                    raise TypeError("an end with no beginning")
                block, raised = blocks.pop(), event[1]
                error = make(raised) if raised is not None else None
                got = attempt(lambda: block.__exit__(type(error) if error else None, error, None)
                              and None)
        except TypeError as error:
            raise Diverged(f"an effect of job {view.id} is malformed ({error})") from None
        if got != event[-1]:
            raise Diverged(f"job {view.id}: the judge's world answered {got!r:.60} to an effect "
                           f"where your code's run says {event[-1]!r:.60}")


SHAPES = {"email": 5, "charge": 5, "sql": 4, "enter": 2, "exit": 3}
