"""live-queue: the casebook's controls: heartbeats and varying durations, a deploy's
graceful shutdown, a poison job and what the delivery cap counts."""
import pytest

from simulations import LiveQueue, ParamError
from simulations.live_queue.levels import EVERY_EXTRA, EXTRAS, LEVELS
from tests.support.runs import run_to, texts


def at(params, seconds):
    return run_to(LiveQueue(params), seconds)


@pytest.mark.parametrize("level", ["queue", "all"])
def test_the_chapters_levels_hide_every_casebook_control(level):
    hidden = LiveQueue({"level": level}).snapshot()["hidden"]
    assert set(EVERY_EXTRA) <= set(hidden)


@pytest.mark.parametrize("level", list(EXTRAS))
def test_a_casebook_level_shows_its_own_controls_only(level):
    hidden = set(LiveQueue({"level": level}).snapshot()["hidden"])
    assert not hidden & set(EXTRAS[level])
    assert set(EVERY_EXTRA) - set(EXTRAS[level]) <= hidden
    assert LEVELS[level] == tuple(n for n in EVERY_EXTRA if n not in EXTRAS[level])


@pytest.mark.parametrize("params, field, words", [
    ({"heartbeat": -1}, "heartbeat", "Heartbeat every (s): must be from 0 to 86400, got -1"),
    ({"grace": "x"}, "grace", "Reaper's grace (s): must be a number from 0 to 86400, got 'x'"),
    ({"duration": 5, "duration_max": 2}, "duration_max",
     "Longest job (s): must be 0, or at least the job duration (5 s); got 2"),
    ({"shutdown_grace": 1e6}, "shutdown_grace", "Shutdown grace (s): must be from 0 to 86400"),
    ({"poison": "sometimes"}, "poison", "Poison job: must be one of healthy, fails, kills"),
    ({"max_attempts": 0}, "max_attempts", "Delivery cap (attempts): must be from 1 to 1,000, got 0"),
    ({"cap_counts": "all"}, "cap_counts", "The cap counts: must be one of claims, failures, new-copy"),
])
def test_a_bad_casebook_setting_is_refused_beside_its_field(params, field, words):
    with pytest.raises(ParamError) as caught:
        LiveQueue(params)
    assert caught.value.field == field and caught.value.words.startswith(words)


def test_a_duration_above_the_longest_job_is_refused_while_jobs_vary():
    sim = LiveQueue({"duration": 1, "duration_max": 3})
    with pytest.raises(ParamError, match="at most the longest job"):
        sim.act("set", param="duration", value=4)
    sim.act("set", param="duration", value=2)
    assert sim.settings["duration"] == 2


def test_durations_vary_between_the_two_and_replay_for_a_seed():
    runs = []
    for _ in range(2):
        sim = LiveQueue({"workers": 1, "jobs": 30, "duration": 1, "duration_max": 4, "seed": 3})
        done_at = []
        while sim.stats()["done"] < 30:
            sim.step()
            if sim.stats()["done"] > len(done_at):
                done_at.append(sim.ticks)
        runs.append(done_at)
    assert runs[0] == runs[1]
    spans = [b - a for a, b in zip([0] + runs[0], runs[0])]
    assert min(spans) >= 10 and max(spans) <= 40 and len(set(spans)) > 5


def test_a_stalled_worker_sends_no_heartbeat_and_stops_when_its_job_was_taken_over():
    sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 4, "duration": 20, "heartbeat": 2,
                     "grace": 1})
    sim.run(until=5)
    sim.act("stall", worker=1, seconds=10)
    sim.run(until=16)
    said = texts(sim)
    assert any("worker 2 claimed job 1 again" in t for t in said)
    assert any("worker 1's heartbeat for job 1 was refused" in t for t in said)
    sim = at({"workers": 2, "jobs": 1, "lease": 4, "duration": 20, "heartbeat": 2, "grace": 1}, 40)
    assert (sim.stats()["emails_sent"], sim.stats()["done"]) == (1, 1)


def test_a_deploy_lets_a_short_job_finish_and_starts_the_new_version():
    sim = at({"workers": 2, "jobs": 2, "duration": 8, "deploy_at": 5, "shutdown_grace": 10}, 20)
    assert (sim.stats()["done"], sim.stats()["running"]) == (2, 0)
    said = texts(sim)
    assert any("stopped (it had no job to finish)" in t for t in said)
    assert any("the new version of worker 1 started" in t for t in said)
    assert [w.state for w in sim.workers] == ["idle", "idle"]


def test_a_deploy_with_no_grace_kills_at_once_and_the_lease_brings_the_job_back():
    sim = at({"workers": 1, "jobs": 1, "lease": 5, "duration": 8, "deploy_at": 2}, 20)
    assert sim.stats()["done"] == 1 and sim.job_rows()[0]["attempts"] == 2


def test_a_poison_job_that_fails_is_retried_with_backoff_and_dies_at_the_cap():
    sim = at({"workers": 1, "jobs": 1, "poison": "fails", "max_attempts": 3}, 60)
    assert (sim.stats()["poison_claims"], sim.stats()["dead"], sim.stats()["emails_sent"]) == (3, 1, 0)
    assert "out of attempts: the cap is 3" in sim.outcome()


def test_failures_only_never_count_a_killed_worker_and_claims_do():
    forever = at({"workers": 1, "jobs": 1, "lease": 2, "supervisor": True, "poison": "kills",
                  "cap_counts": "failures"}, 60)
    assert forever.stats()["poison_kills"] > 10 and forever.stats()["dead"] == 0
    capped = at({"workers": 1, "jobs": 1, "lease": 2, "supervisor": True, "poison": "kills"}, 60)
    assert capped.stats()["poison_kills"] == 5 and capped.stats()["dead"] == 1


def test_every_new_mode_replays_exactly_for_a_seed():
    params = {"workers": 3, "jobs": 40, "rate": 2, "crash": 0.1, "supervisor": True,
              "duration_max": 5, "heartbeat": 1, "deploy_at": 10, "shutdown_grace": 2,
              "hand_back": True, "poison": "kills", "cap_counts": "failures", "seed": 9}
    first, second = at(params, 60), at(params, 60)
    assert first.snapshot() == second.snapshot()


# --- the stretch: a busy service and the retry policy (level "retries"; no casebook pair yet) ---
HERD = {"workers": 64, "jobs": 64, "duration": 1, "lease": 30, "service_capacity": 8,
        "backoff_base": 10}


def test_a_service_within_its_capacity_never_fails_and_draws_nothing():
    plain, busy = at({"workers": 4, "jobs": 20}, 30), at({"workers": 4, "jobs": 20,
                                                          "service_capacity": 10}, 30)
    assert busy.stats()["calls_failed"] == 0
    assert plain.snapshot()["stats"] == busy.snapshot()["stats"]


def test_retries_without_jitter_come_back_together_and_fail_more():
    herd = at({**HERD, "jitter": False}, 300)
    spread = at({**HERD, "jitter": True}, 300)
    assert herd.stats()["done"] == spread.stats()["done"] == 64
    assert (herd.stats()["calls_failed"], spread.stats()["calls_failed"]) == (59, 37)
    assert any("retry in 10.00 s (attempt 1)" in t for t in texts(herd))   # all the same wait


def test_a_backoff_cap_below_its_base_is_refused_beside_the_cap():
    with pytest.raises(ParamError) as caught:
        LiveQueue({"backoff_base": 5, "backoff_cap": 2})
    assert caught.value.field == "backoff_cap"
    assert caught.value.words == "Backoff cap (s): must be at least the backoff base (5 s); got 2"


def test_a_refused_heartbeat_says_no_token_at_chapter_3s_level():
    """Chapter 3 keeps the fencing token back: a refused heartbeat, like a refused ack, names the
    claim rather than "token N" there (a hidden setting keeps its value, so a link can set it)."""
    def refused(level):
        sim = LiveQueue({"workers": 2, "jobs": 1, "lease": 4, "duration": 20, "heartbeat": 2,
                         "grace": 1, "level": level})
        sim.run(until=5)
        sim.act("stall", worker=1, seconds=10)
        sim.run(until=16)
        return [t for t in texts(sim) if "heartbeat for job 1 was refused" in t]
    chapter_3, casebook = refused("queue"), refused("heartbeats")
    assert chapter_3 == ["worker 1's heartbeat for job 1 was refused: its claim no longer holds "
                         "it, so the worker stops that job"]
    assert casebook == ["worker 1's heartbeat for job 1 was refused: token 1 no longer holds it, "
                        "so the worker stops that job"]
