"""world.py: a flaky network in front of a mail provider and a bank that remember keys."""
import sys

import pytest

from tests.support.capstone import CAPSTONE, forget, import_as_run


@pytest.fixture
def world_module(monkeypatch, tmp_path):
    yield import_as_run("world", monkeypatch, tmp_path)
    forget("world")


def outcome(call):
    try:
        return call()
    except (ConnectionError, TimeoutError) as error:
        return type(error).__name__


def test_a_perfect_network_sends_once_and_absorbs_the_repeat(world_module):
    world = world_module.World(lose_request=0, lose_reply=0)
    assert world.send_email("ada@example.com", "Hi", idempotency_key="k") == "sent"
    assert world.send_email("ada@example.com", "Hi", idempotency_key="k") == "already sent"
    assert world.emails_to("ada@example.com") == 1
    assert world.tally() == {"requests lost": 0, "replies lost": 0, "repeats absorbed": 1}


def test_a_lost_request_does_nothing(world_module):
    world = world_module.World(lose_request=1, lose_reply=0)
    with pytest.raises(ConnectionError, match="never arrived"):
        world.charge("ada", 5, idempotency_key="fee")
    assert world.charged("ada") == 0
    assert world.tally()["requests lost"] == 1


def test_a_lost_reply_hides_work_that_was_done(world_module):
    world = world_module.World(lose_request=0, lose_reply=1)
    with pytest.raises(TimeoutError, match="no reply"):
        world.charge("ada", 5, idempotency_key="fee")
    assert world.charged("ada") == 5                 # the money moved all the same
    with pytest.raises(TimeoutError):
        world.charge("ada", 5, idempotency_key="fee")
    assert world.charged("ada") == 5                 # the repeat was absorbed by its key
    assert world.tally() == {"requests lost": 0, "replies lost": 2, "repeats absorbed": 1}


def test_without_a_key_every_repeat_is_new_work(world_module):
    world = world_module.World(lose_request=0, lose_reply=0)
    world.charge("ada", 5)
    world.charge("ada", 5)
    assert world.charged("ada") == 10


def test_different_keys_are_different_work(world_module):
    world = world_module.World(lose_request=0, lose_reply=0)
    world.charge("ada", 5, idempotency_key="fee-1")
    world.charge("ada", 7, idempotency_key="fee-2")
    assert world.charged("ada") == 12


def test_the_no_keys_switch_makes_every_key_new(world_module, monkeypatch):
    monkeypatch.setenv("TINYQ_NO_KEYS", "1")
    world = world_module.World(lose_request=0, lose_reply=0)
    for _ in range(3):
        assert world.send_email("ada@example.com", "Hi", idempotency_key="k") == "sent"
    assert world.emails_to("ada@example.com") == 3
    assert world.tally()["repeats absorbed"] == 0


@pytest.mark.parametrize("value", ["0", ""])
def test_the_no_keys_switch_off_keeps_keys(world_module, monkeypatch, value):
    monkeypatch.setenv("TINYQ_NO_KEYS", value)
    assert world_module.World().keys is True


def test_a_bad_no_keys_value_is_refused_by_name(world_module, monkeypatch):
    monkeypatch.setenv("TINYQ_NO_KEYS", "yes")
    with pytest.raises(ValueError, match="TINYQ_NO_KEYS must be 1 .* not 'yes'"):
        world_module.World()


@pytest.mark.parametrize("lose_request, lose_reply", [(-0.1, 0), (0, -1), (0.6, 0.5)])
def test_impossible_chances_are_refused(world_module, lose_request, lose_reply):
    with pytest.raises(ValueError, match="lose_request and lose_reply"):
        world_module.World(lose_request=lose_request, lose_reply=lose_reply)


def fates(world, calls=40):
    return [outcome(lambda: world.charge("ada", 1, idempotency_key="fee")) for _ in range(calls)]


def test_the_bad_luck_is_fixed_by_the_seed_in_any_process(world_module, tmp_path):
    first = fates(world_module.World(str(tmp_path / "a.db"), seed=7))
    again = fates(world_module.World(str(tmp_path / "b.db"), seed=7))
    other = fates(world_module.World(str(tmp_path / "c.db"), seed=8))
    assert first == again
    assert first != other
    assert {"ConnectionError", "TimeoutError", "already charged"} <= set(first)


def test_the_bad_luck_has_the_advertised_rates(world_module):
    rolls = [world_module.dice(3, "bank", "someone", n) for n in range(4000)]
    lost = sum(roll < world_module.LOSE_REQUEST for roll in rolls) / len(rolls)
    reply_lost = sum(world_module.LOSE_REQUEST <= roll < world_module.LOSE_REQUEST
                     + world_module.LOSE_REPLY for roll in rolls) / len(rolls)
    assert 0.12 < lost < 0.18 and 0.12 < reply_lost < 0.18


def test_dice_do_not_depend_on_python_hash_randomisation(world_module):
    import subprocess
    script = "import world; print(world.dice(1, 'mail', 'ada@example.com', 0))"
    seen = {subprocess.run([sys.executable, "-c", script], cwd=CAPSTONE, text=True,
                           capture_output=True, env={"PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2")}
    assert len(seen) == 1 and seen != {""}


def test_reset_forgets_everything(world_module):
    world = world_module.World(lose_request=0, lose_reply=0)
    world.charge("ada", 5, idempotency_key="fee")
    world.reset()
    assert world.charged("ada") == 0
    assert world.charge("ada", 5, idempotency_key="fee") == "charged"
