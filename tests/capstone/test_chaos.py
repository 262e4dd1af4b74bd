"""The chaos test itself: real worker processes that die at random, then an audit.

Settings are small (5 or 6 customers, a 0.3 s lease) so that a run takes a few
seconds, and runs go a few at a time. The claims tested are the chapter's:
the audit passes on every run, at chaos 0.1 and 0.3; with keys switched off it
fails in nearly every run, on emails and fees, and never on points; each study
drill does what the chapter says it does.
"""
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.capstone import chaosrun
from tests.capstone.chaosrun import POINTS_PROBLEM, prepare, run_chaos, run_many

SMALL = ["--customers", "5", "--lease", "0.3"]


def test_the_audit_passes_in_every_one_of_24_runs():
    runs = run_many([SMALL + ["--seed", str(seed), "--chaos", chaos]
                     for seed in range(1, 13) for chaos in ("0.1", "0.3")])
    for run in runs:
        assert run.returncode == 0 and run.passed, run.describe()
        assert run.statuses == "done 15", run.describe()
    crashes = [run.figures["workers killed by the monkey"] for run in runs]
    absorbed = [run.figures["repeats absorbed by keys"] for run in runs]
    assert sum(crashes) > 24 * 3, f"the monkey hardly killed anything: {crashes}"
    assert sum(absorbed) > 24, f"keys hardly absorbed anything: {absorbed}"


def test_the_audit_passes_at_chaos_0_3_with_the_full_twenty_customers():
    run, = run_many([["--seed", "3", "--chaos", "0.3"]])
    assert run.returncode == 0 and run.passed, run.describe()
    assert run.statuses == "done 60"
    assert run.figures["workers killed by the monkey"] >= 40, run.describe()


def test_without_keys_the_audit_fails_nearly_always_and_never_on_points():
    runs = run_many([SMALL + ["--seed", str(seed), "--chaos", chaos]
                     for seed in range(1, 6) for chaos in ("0.1", "0.3")], no_keys=True)
    failed = [run for run in runs if run.failed]
    assert len(failed) >= 9, "\n\n".join(run.describe() for run in runs)
    chaosrun.assert_keys_off_fails_on_emails_and_fees_only(runs, "done 15")

def test_a_seeded_run_replays_exactly_whichever_worker_gets_which_job():
    for no_keys in (False, True):
        # The default 1 s lease, so that a loaded machine does not add claims of its own.
        first, second = run_many([["--customers", "5", "--seed", "11", "--chaos", "0.2"]] * 2,
                                 no_keys=no_keys)
        assert first.figures == second.figures, first.describe() + second.describe()
        assert first.crashes == second.crashes
        assert first.problems == second.problems
        assert len(first.crashes) == first.figures["workers killed by the monkey"]


def test_every_repeat_comes_from_a_lost_reply_or_a_crash_after_the_effect():
    """The chapter's arithmetic: with keys, repeats absorbed = lost replies + crashes between
    effect and ack; without keys, the same number of extra emails and charges."""
    # The default 1 s lease: a shorter one, on a loaded machine, lets a stalled worker's job be
    # claimed again while it still works, and that repeat is neither a lost reply nor a crash.
    seeds = [["--customers", "5", "--seed", str(seed), "--chaos", "0.2"] for seed in (4, 5, 6)]
    with_keys = run_many(seeds)
    without_keys = run_many(seeds, no_keys=True)
    for kept, lost in zip(with_keys, without_keys):
        after_effect = sum(", before the ack" in line for line in kept.crashes)
        repeats = kept.figures["replies the network lost"] + after_effect
        assert kept.figures["repeats absorbed by keys"] == repeats, kept.describe()
        extra = 0
        for problem in lost.problems:
            if "welcome emails" in problem:
                extra += int(problem.split("got ")[1].split(" ")[0]) - 1
            else:
                extra += int(problem.split("paid $")[1].split(" ")[0]) // 5 - 1
        assert extra == repeats, lost.describe()


def test_without_chaos_no_worker_dies_and_the_keys_still_absorb_lost_replies():
    run, = run_many([SMALL + ["--seed", "2", "--chaos", "0"]])
    assert run.passed, run.describe()
    assert run.figures["workers killed by the monkey"] == 0
    assert run.crashes == []
    # Every lost reply was for work that was done: its retry is a repeat the key absorbs.
    assert run.figures["repeats absorbed by keys"] >= run.figures["replies the network lost"] > 0


# --- the study drills ------------------------------------------------------------------------

def test_drill_a_crash_after_the_commit_cannot_hurt_the_points():
    runs = run_many([SMALL + ["--seed", str(seed), "--chaos", "0.3"] for seed in (1, 2, 3)],
                    edits={"shop.py": chaosrun.CRASH_AFTER_COMMIT})
    for run in runs:
        assert run.passed, run.describe()
    assert any("CRASH after the commit" in line for run in runs for line in run.crashes)


def test_drill_points_without_complete_go_wrong_and_only_the_points():
    runs = run_many([SMALL + ["--customers", "8", "--seed", str(seed), "--chaos", "0.3"]
                     for seed in (1, 2)], edits={"shop.py": chaosrun.POINTS_WITHOUT_COMPLETE})
    for run in runs:
        assert run.failed, run.describe()
        assert run.problems and all(POINTS_PROBLEM.search(p) for p in run.problems), run.describe()


def test_drill_a_stalled_worker_is_fenced_off_by_its_token():
    args = [["--seed", str(seed), "--chaos", "0", "--lease", "0.05"] for seed in (1, 2)]
    calm = run_many([arguments[:-2] for arguments in args])     # the 1 s lease: nothing stolen
    stalled = run_many(args, edits={"shop.py": chaosrun.POINTS_FIRST_ATTEMPT_STALLS})
    for before, run in zip(calm, stalled):
        assert run.passed, run.describe()
        # The stalls really did outlive the lease: most of the 20 points jobs were claimed again.
        attempts = "attempts, all jobs together"
        extra = run.figures[attempts] - before.figures[attempts]
        assert extra >= 10, before.describe() + run.describe()


def test_drill_without_the_token_check_a_stalled_worker_doubles_the_points():
    runs = run_many([["--seed", str(seed), "--chaos", "0", "--lease", "0.05"] for seed in (1, 2)],
                    edits={"shop.py": chaosrun.POINTS_FIRST_ATTEMPT_STALLS,
                           "tinyq_sql.py": chaosrun.MARK_DONE_UNFENCED})
    for run in runs:
        assert run.failed, run.describe()
        assert any(POINTS_PROBLEM.search(p) for p in run.problems), run.describe()



def test_drill_with_only_the_status_check_back_the_stalled_worker_is_refused_again():
    """The drill's last step: a `done` job cannot be finished twice, token or no token."""
    runs = run_many([["--seed", str(seed), "--chaos", "0", "--lease", "0.05"] for seed in (1, 2)],
                    edits={"shop.py": chaosrun.POINTS_FIRST_ATTEMPT_STALLS,
                           "tinyq_sql.py": chaosrun.MARK_DONE_STATUS_ONLY})
    for run in runs:
        assert run.passed, run.describe()
        assert run.figures["attempts, all jobs together"] >= 70, run.describe()  # stalls were taken over

# --- bad input and broken workers -----------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--chaos", "0.9"], "argument --chaos: must be between 0 and 0.5, not 0.9"),
    (["--chaos", "lots"], "argument --chaos: invalid chance value: 'lots'"),
    (["--customers", "0"], "argument --customers: must be a whole number from 1 to 500"),
    (["--lease", "0"], "argument --lease: must be a number of seconds above 0"),
])
def test_bad_options_are_refused_with_the_option_named(tmp_path, args, message):
    run = run_chaos(prepare(tmp_path), *args)
    assert run.returncode == 2
    assert message in run.stderr
    assert run.stdout == ""


def test_a_bad_no_keys_switch_is_refused_by_name(tmp_path):
    folder = prepare(tmp_path)
    done = subprocess.run([sys.executable, "chaos.py", "--seed", "1"], cwd=folder,
                          env=dict(os.environ, TINYQ_NO_KEYS="yes"), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert "TINYQ_NO_KEYS must be 1 (keys off) or 0 (keys on), not 'yes'" in done.stderr


def test_a_worker_that_dies_of_an_error_is_counted_with_its_cause_and_fails_the_audit(tmp_path):
    folder = prepare(tmp_path, {"shop.py": chaosrun.replace_once(
        '    """Work jobs until every job is done or dead."""\n',
        '    """Work jobs until every job is done or dead."""\n'
        '    raise RuntimeError("a bug in the worker")\n')})
    run = run_chaos(folder, *SMALL, "--seed", "1")
    assert run.returncode == 1
    assert "RuntimeError: a bug in the worker" in run.stderr
    assert "died of an error (not a chaos crash)" in run.stderr
    assert run.figures["workers dead of an error"] == 3, run.describe()   # not restarted
    assert "  3 x RuntimeError: a bug in the worker" in run.lines
    assert run.failed and run.problems[0] == "3 workers died of RuntimeError: a bug in the worker"


def test_a_death_by_contention_cannot_hide_behind_the_restarts(tmp_path):
    """The first attempt at each email meets a locked database (as 16 workers on the old tinyq
    did): the run may finish, with the jobs done by the others, but the audit names the deaths."""
    folder = prepare(tmp_path, {"shop.py": chaosrun.replace_once(
        '    maybe_crash(job, "before the email")\n',
        '    maybe_crash(job, "before the email")\n'
        '    if job.attempts == 1 and job.args["email"].startswith("customer00"):\n'
        '        raise SystemExit("sqlite3.OperationalError: database is locked")\n')})
    run = run_chaos(folder, *SMALL, "--seed", "1", "--chaos", "0", "--workers", "3")
    assert run.returncode == 1, run.describe()
    assert run.figures["workers dead of an error"] == 1, run.describe()
    assert "  1 x sqlite3.OperationalError: database is locked" in run.lines
    assert "1 worker died of sqlite3.OperationalError: database is locked" in run.problems


def test_ctrl_c_stops_every_worker_and_says_so_in_one_line(tmp_path):
    """The reader's Ctrl-C reaches the supervisor and all its workers (one process group), as in a
    terminal. A 30 s lease makes the run stall after its first crash: when a reader gives up."""
    folder = prepare(tmp_path)
    chaos = subprocess.Popen(
        [sys.executable, "chaos.py", "--seed", "3", "--chaos", "0.3", "--lease", "30"], cwd=folder,
        env=dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1"),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    try:
        for line in chaos.stdout:                    # wait until workers are running and dying
            if " CRASH " in line:
                break
        time.sleep(0.5)
        assert chaos.poll() is None, "the run ended before the Ctrl-C"
        os.killpg(chaos.pid, signal.SIGINT)
        stdout, stderr = chaos.communicate(timeout=30)
    finally:
        if chaos.poll() is None:
            os.killpg(chaos.pid, signal.SIGKILL)
            chaos.wait()
    assert chaos.returncode == 130, stderr           # 128 + SIGINT, as a shell reports it
    assert stderr == "\nchaos.py: stopped by Ctrl-C; no worker is left running\n"
    assert "AUDIT" not in stdout
    deadline = time.monotonic() + 5
    while True:                                      # the supervisor took every worker down
        try:
            os.killpg(chaos.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "a worker process outlived chaos.py"
        time.sleep(0.05)
