"""The chaos monkey: sign up customers, run workers that die at random, audit the books.

    python3 chaos.py                     # a new seed each run (printed, so you can replay it)
    python3 chaos.py --seed 7            # the same bad luck as last time
    python3 chaos.py --chaos 0.3         # crueller: more crashes
    TINYQ_NO_KEYS=1 python3 chaos.py     # break it: the world forgets every key
    python3 chaos.py --backend postgres  # exercise 9: the jobs in PostgreSQL, 8 workers

Run it from code/capstone: it writes shop.db and world.db in the current folder (with
--backend postgres, the jobs and customers go to the server that --dsn or the PG*
variables name, and only world.db, the outside world, stays a file here).
"""
import argparse
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

if os.environ.get("TINYQ_BACKEND") == "postgres":
    # Exercise 9: what a deploy does once, before any worker starts; the workers only check
    # the schema's version (see tinyq_pg_schema.py for why).
    import tinyq_pg
    tinyq_pg.migrate(os.environ.get("TINYQ_DSN", ""))

import shop  # noqa: E402 (after the migration, on purpose)

SHOP = Path(__file__).with_name("shop.py")
TIME_LIMIT = 300      # seconds; a run that takes longer than this is stopped


def start_worker(options):
    """Start one `shop.py work` process; its output and errors come back to us through pipes."""
    command = [sys.executable, str(SHOP), "work", "--chaos", str(options.chaos),
               "--seed", str(options.seed), "--lease", str(options.lease)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def cause_of_death(error_text, returncode):
    """The last line of a dead worker's traceback ("sqlite3.OperationalError: database is
    locked"), or its exit status when it printed no error."""
    lines = [line for line in error_text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else f"exit status {returncode}"


def supervise(options):
    """Keep `options.workers` workers running until the work is finished.

    Like systemd's Restart=on-failure or a Kubernetes restart policy, a worker
    that the chaos monkey killed is replaced at once. A worker that found nothing
    left to do exits normally and is not replaced. A worker that died of anything
    else (an exception) is not replaced either: it is counted, with its cause, so
    that no such death hides behind the restarts. Returns (the number of chaos
    crashes, a Counter of the other causes of death).
    """
    workers = []
    crashes = 0
    deaths = Counter()
    deadline = time.monotonic() + TIME_LIMIT
    try:
        workers += [start_worker(options) for _ in range(options.workers)]
        while workers:
            if time.monotonic() > deadline:
                sys.exit(f"stopped: the run took longer than {TIME_LIMIT} seconds")
            time.sleep(0.01)
            for worker in [w for w in workers if w.poll() is not None]:
                workers.remove(worker)
                for line in worker.stdout.read().splitlines():
                    print(f"  [{worker.pid}] {line}", flush=True)
                error = worker.stderr.read()
                sys.stderr.write(error)                     # its error, if it had one
                if worker.returncode == shop.CRASHED:
                    crashes += 1
                    workers.append(start_worker(options))
                elif worker.returncode != 0:
                    deaths[cause_of_death(error, worker.returncode)] += 1
                    print(f"worker {worker.pid} died of an error (not a chaos crash): "
                          f"see its error above", file=sys.stderr, flush=True)
    finally:
        for worker in workers:      # stopped early (Ctrl-C, an error): take the rest down
            worker.kill()
            worker.wait()
    return crashes, deaths


def audit(emails, deaths):
    """Check every customer's books, and that no worker died of an error (a Counter of
    causes); return a list of problems (empty when all is well)."""
    problems = [f"{plural(count, 'worker')} died of {cause}" for cause, count in deaths.items()]
    for email in emails:
        sent = shop.world.emails_to(email)
        paid = shop.world.charged(email)
        points = shop.queue.db.execute("SELECT points FROM customers WHERE email = ?",
                                       (email,)).fetchone()[0]
        if sent != 1:
            problems.append(f"{email}: got {sent} welcome emails (want 1)")
        if paid != shop.SIGNUP_FEE:
            problems.append(f"{email}: paid ${paid} (want ${shop.SIGNUP_FEE})")
        if points != shop.WELCOME_POINTS:
            problems.append(f"{email}: has {points} points (want {shop.WELCOME_POINTS})")
    for job_id, kind, args, error in shop.queue.db.execute(
            "SELECT id, kind, args, last_error FROM jobs WHERE status != 'done' ORDER BY id"):
        problems.append(f"job {job_id} ({kind} {args}) did not finish: {error}")
    return problems


def plural(count, word):
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def report(crashes, deaths, seconds):
    """Print the figures of the run."""
    db = shop.queue.db
    attempts, retried = db.execute(
        "SELECT sum(attempts), count(*) FILTER (WHERE attempts > 1) FROM jobs").fetchone()
    statuses = db.execute("SELECT status, count(*) FROM jobs GROUP BY status ORDER BY status")
    tally = shop.world.tally()
    print(f"finished in {seconds:.1f}s")
    print(f"workers killed by the monkey:  {crashes}")
    print(f"workers dead of an error:      {sum(deaths.values())}")
    for cause, count in deaths.most_common():
        print(f"  {count} x {cause}")
    print(f"attempts, all jobs together:   {attempts}")
    print(f"jobs that needed a retry:      {retried}")
    print(f"requests the network lost:     {tally['requests lost']}")
    print(f"replies the network lost:      {tally['replies lost']}")
    print(f"repeats absorbed by keys:      {tally['repeats absorbed']}")
    print("jobs by status:                "
          + ", ".join(f"{status} {count}" for status, count in statuses))


def chance(text):
    value = float(text)
    if not 0 <= value <= 0.5:
        raise argparse.ArgumentTypeError(f"must be between 0 and 0.5, not {text}")
    return value


def whole(low, high):
    def check(text):
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}")
        return value
    return check


def main(argv):
    parser = argparse.ArgumentParser(prog="chaos.py", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, help="the run's bad luck (default: a new one)")
    parser.add_argument("--chaos", type=chance, default=0.1,
                        help="chance that each crash point kills its worker (default 0.1)")
    parser.add_argument("--customers", type=whole(1, 500), default=20)
    parser.add_argument("--workers", type=whole(1, 16),
                        help="worker processes (default 3 on sqlite, 8 on postgres)")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default=shop.BACKEND,
                        help="where the jobs live (default sqlite: shop.db)")
    parser.add_argument("--dsn", default=os.environ.get("TINYQ_DSN", ""),
                        help="postgres only: a connection string (default: the PG* variables)")
    parser.add_argument("--lease", type=float, default=shop.LEASE,
                        help=f"seconds a claim lasts (default {shop.LEASE})")
    options = parser.parse_args(argv)
    if options.seed is None:
        options.seed = random.randrange(1000)
    if not options.lease > 0:
        parser.error("argument --lease: must be a number of seconds above 0")
    if options.backend != shop.BACKEND or options.dsn != os.environ.get("TINYQ_DSN", ""):
        # shop.py opened its queue when it was imported: start again with the backend in the
        # environment, where shop.py (here and in every worker) reads it.
        os.environ.update(TINYQ_BACKEND=options.backend, TINYQ_DSN=options.dsn)
        os.execv(sys.executable, [sys.executable, __file__, *argv])
    if options.workers is None:
        options.workers = 8 if options.backend == "postgres" else 3

    shop.reset()
    emails = [f"customer{n:02d}@example.com" for n in range(options.customers)]
    for email in emails:
        shop.signup(email)
    print(f"seed {options.seed}: signed up {len(emails)} customers, "
          f"{len(emails) * len(shop.JOB_KINDS)} jobs queued")
    where = " on PostgreSQL" if options.backend == "postgres" else ""
    print(f"running {options.workers} workers{where}; each crash point kills its worker "
          f"with chance {options.chaos}")
    print()
    started = time.monotonic()
    crashes, deaths = supervise(options)
    print()
    report(crashes, deaths, time.monotonic() - started)
    print()
    problems = audit(emails, deaths)
    if problems:
        print(f"AUDIT FAILED: {len(problems)} problem(s)")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print(f"AUDIT PASSED: {len(emails)} customers, each with 1 email, "
          f"${shop.SIGNUP_FEE} paid and {shop.WELCOME_POINTS} points.")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:           # Ctrl-C; supervise() has stopped the workers
        print("\nchaos.py: stopped by Ctrl-C; no worker is left running", file=sys.stderr)
        sys.exit(130)                   # 128 + 2 (SIGINT): how shells report a Ctrl-C
