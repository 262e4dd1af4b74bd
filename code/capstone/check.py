"""check.py: run your tinyq.py against the contract, one stage at a time.

    python3 check.py 1       # stage 1: claim, ack, and the worker loop
    python3 check.py 2       # stage 2: fail, with backoff, jitter and dead letters
    python3 check.py 3       # stage 3: the fencing token
    python3 check.py 4       # stage 4: complete(), the effect and the ack together
    python3 check.py 2 other/tinyq.py     # check a file other than ./tinyq.py

Each stage runs the checks of the stages before it first, and stops at the first
problem, which it describes in words. Standard library only. Every check uses a
pretend clock (seconds, moved by hand) and a seeded random.Random, so a run is the
same every time. Exit status 0 when the stage passes, 1 when a check fails.
"""
import importlib.util
import random
import sqlite3
import sys
import tempfile
import traceback
from pathlib import Path

# The checks run in the order they register: stages 2 and 3 first, then stage 4.
import check_finishing  # noqa: F401  (registers the checks of stages 2 and 3)
import check_complete  # noqa: F401  (registers the checks of stage 4)
from check_stages import CHECKS, STAGES, Problem


def load(path):
    """Import the tinyq.py at `path` as the module `tinyq`; raise Problem if it cannot be."""
    if not path.is_file():
        raise Problem(f"there is no {path}: copy stairs/tinyq_skeleton.py there first")
    spec = importlib.util.spec_from_file_location("tinyq", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["tinyq"] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        raise Problem(f"{path.name} line {error.lineno}: {error.msg}") from None
    except Exception as error:
        raise Problem(f"{path.name} could not be imported: {where(error, path)}") from None
    return module


def where(error, path):
    """Say what `error` was and the last line of the reader's file it passed through."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if Path(f.filename).resolve() == path.resolve()]
    text = f"{type(error).__name__}: {error}"
    if frames:
        text += f" (in {frames[-1].name}(), {path.name} line {frames[-1].lineno})"
    if isinstance(error, sqlite3.IntegrityError) and "locked_until IS NOT NULL" in str(error):
        text += (". The jobs table refuses a job that is running without a lease, or holds a lease"
                 " without running: a statement that ends a claim must also set locked_until = NULL")
    return text


def run(stage, path):
    """Run every check up to `stage`; print one line per check. Return True if all pass."""
    try:
        tinyq = load(path)
    except Problem as problem:
        print(f"FAIL  {problem}")
        return False
    with tempfile.TemporaryDirectory() as folder:
        for number, (check_stage, title, check) in enumerate(
                [c for c in CHECKS if c[0] <= stage], start=1):
            if number == 1 or check_stage != previous:
                print(f"stage {check_stage}: {STAGES[check_stage]}")
            previous = check_stage
            try:
                check(tinyq, Path(folder) / f"check{number}.db", random.Random(number))
            except Problem as problem:
                print(f"  FAIL  {title}\n        {problem}")
                return False
            except NotImplementedError as error:
                print(f"  FAIL  {title}\n        not written yet: {error}")
                return False
            except (Exception, KeyboardInterrupt) as error:
                print(f"  FAIL  {title}\n        {where(error, path)}")
                return False
            print(f"  ok    {title}")
    return True


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in {"1", "2", "3", "4"} or len(argv) > 2:
        print(__doc__.split("\n\n")[1])
        print("check.py needs a stage number, 1 to 4, and at most one file name")
        return 2
    stage = int(argv[0])
    path = Path(argv[1]) if len(argv) == 2 else Path(__file__).parent / "tinyq.py"
    if sqlite3.sqlite_version_info < (3, 35, 0):
        print(f"tinyq needs SQLite 3.35 or newer; this Python has {sqlite3.sqlite_version}")
        return 2
    if not run(stage, path):
        return 1
    following = f" Next: python3 check.py {stage + 1}" if stage < 4 else \
        " Your tinyq is complete: now run chaos.py."
    print(f"stage {stage} passed.{following}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
