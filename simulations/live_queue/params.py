"""live-queue's settings: PARAMS, what the form shows, a link carries and act("set") may change
(SETTABLE, the ones marked live), with the limits they keep; and the Stall action's argument.
The casebook's groups of settings are declared beside what they drive (heartbeat.py, deploy.py,
poison.py, retry.py, delivery.py), a library preset's last (libraries.py: its help names the
others' labels)."""
from . import delivery, deploy, heartbeat, libraries, poison, retry
from .levels import LEVELS
from ..engine.params import boolean, choice, integer, number, seed_param

MAX_WORKERS = 64
MAX_LEASE = heartbeat.MAX_SECONDS   # a day, in seconds: leases for hours-long jobs
MAX_JOBS = 5000      # jobs in all, so nothing runs away in a browser tab

PARAMS = (
    integer("workers", "Workers", 2, 1, MAX_WORKERS, "Worker processes at the start."),
    integer("jobs", "Jobs at the start", 0, 0, MAX_JOBS, "Jobs waiting in the queue at 0 s."),
    number("lease", "Lease (s)", 5.0, 0.5, MAX_LEASE,
           "How long a claim holds its job before another worker may take it.", live=True),
    number("duration", "Job duration (s)", 2.0, 0.3, MAX_LEASE,
           "How long one job takes a worker, from claim to ack.", live=True),
    number("crash", "Crash chance per job", 0.0, 0.0, 1.0,
           "The chance that a worker's process dies at a random moment of a job.", live=True),
    number("rate", "Arrivals (jobs/s)", 0.0, 0.0, 50.0,
           "Jobs the producer adds per second, at random moments.", live=True),
    boolean("supervisor", "Restart dead workers", False,
            "A supervisor starts a fresh process 2 s after a worker dies.", live=True),
    choice("level", "Shows", "all", list(LEVELS),
           "What the widget shows: `queue` keeps back what chapters 4 to 12 teach; the "
           "casebook's levels add the controls of one case (a chapter's embed sets it; the "
           "run is the same either way).",
           labels={"queue": "the queue only", "all": "what the chapters teach",
                   "heartbeats": "that, and heartbeats", "deploys": "that, and deploys",
                   "poison": "that, and a poison job",
                   "retries": "that, and a busy service with a retry policy",
                   "library": "that, and your library's settings",
                   "free": "every control at once (free play)"}),
    seed_param(),
) + (heartbeat.PARAMS + deploy.PARAMS + poison.PARAMS
     + retry.PARAMS + delivery.params(MAX_JOBS))
PARAMS += libraries.params(PARAMS)   # its help names the others' labels
SETTABLE = tuple(spec["name"] for spec in PARAMS if spec["live"])   # act("set") takes these
# The stall action's argument: how long a busy worker freezes.
STALL = number("seconds", "Stall for (s)", 10.0, 0.1, 600.0,
               "How long a stalled worker freezes: alive, but doing nothing.")
