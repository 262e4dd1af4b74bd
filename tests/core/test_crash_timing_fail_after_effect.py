"""crash-timing's `fail_after_effect`: in worker A's attempt a later step of the
handler raises after the email (or the batch) has gone out, so the worker fails the job (tinyq's
fail(): queued again after a backoff, the attempt counted) instead of acking it; B claims it
again when it is due, and the effect happens again unless a key or a record per send absorbs it."""
import pytest

from simulations import CrashTiming, ParamError


def play(**params):
    sim = CrashTiming({"fail_after_effect": True, **params})
    while not sim.run(until=1000):
        pass
    return sim.snapshot()


def texts(snap):
    return [moment["text"] for moment in snap["timeline"]]


def test_ack_after_work_fails_after_the_email_and_the_retry_sends_it_again():
    snap = play(policy="ack-after-work", crash="none")
    assert (snap["result"], snap["effects"]) == ("duplicated", 2)
    assert snap["jobs"][0]["status"] == "done" and snap["jobs"][0]["attempts"] == 2
    failed = [m for m in snap["timeline"] if m["kind"] == "fail"]
    assert [m["worker"] for m in failed] == ["A"]
    assert failed[0]["text"].startswith("A's next step fails after the email: the job is failed "
                                        "and will be retried")
    # nobody died: A lived on, and B claimed the job once its backoff (0.5-1 s) had passed
    assert [w["state"] for w in snap["workers"]] == ["finished", "finished"]
    claims = [m["time"] for m in snap["timeline"] if m["kind"] == "claim"]
    assert claims[0] == 0 and 1.5 <= claims[1] <= 2.001
    assert snap["verdict"]["words"] == "Duplicated"


def test_without_the_setting_the_same_run_sends_one_email():
    snap = play(policy="ack-after-work", crash="none", fail_after_effect=False)
    assert (snap["result"], snap["effects"], snap["jobs"][0]["attempts"]) == ("exactly once", 1, 1)


def test_the_failure_comes_before_the_crash_point_after_the_email():
    snap = play(policy="ack-after-work", crash="after-effect")
    assert (snap["result"], snap["effects"]) == ("duplicated", 2)
    assert not any(m["kind"] == "crash" for m in snap["timeline"])


def test_the_idempotency_key_absorbs_the_retry():
    snap = play(policy="idempotency-key")
    assert (snap["result"], snap["effects"], snap["absorbed"]) == ("exactly once", 1, 1)
    assert snap["outcome"] == ("Exactly once: 1 email sent; 1 repeat absorbed by the "
                               "idempotency key.")


@pytest.mark.parametrize("marker, result, emails", [(True, "exactly once", 5),
                                                   (False, "duplicated", 10)])
def test_a_batch_of_five_is_sent_again_unless_each_send_is_recorded(marker, result, emails):
    snap = play(policy="ack-after-work", batch=5, marker=marker)
    assert (snap["result"], snap["effects"]) == (result, emails)
    assert "A's next step fails after the emails: the job is failed" in " ".join(texts(snap))


def test_ack_before_work_refuses_the_fail_because_the_job_is_already_done():
    snap = play(policy="ack-before-work")
    assert (snap["result"], snap["effects"], snap["jobs"][0]["attempts"]) == ("exactly once", 1, 1)
    assert texts(snap)[-1] == ("A's next step fails after the email, but its fail is refused: the "
                               "job was acked before the work and is done, so nobody retries it")
    assert "refused" not in snap["outcome"]


def test_a_slow_a_whose_lease_was_taken_has_its_fail_refused_by_the_token():
    snap = play(scenario="lease-too-short")
    assert (snap["result"], snap["effects"]) == ("duplicated", 2)
    assert texts(snap)[-1].endswith("its fail is refused: token 1 no longer holds the job, so "
                                    "nobody retries it")


@pytest.mark.parametrize("policy", ["one-transaction", "auto-commit"])
def test_the_setting_changes_nothing_where_it_does_not_apply(policy):
    with_it = play(policy=policy)
    without = play(policy=policy, fail_after_effect=False)
    assert with_it["timeline"] == without["timeline"]


def test_the_run_is_the_same_for_a_seed_and_its_params_rebuild_it():
    first, again = play(seed=7), play(seed=7)
    assert first["timeline"] == again["timeline"]
    assert first["params"]["fail_after_effect"] is True
    assert play(**first["params"])["timeline"] == first["timeline"]


@pytest.mark.parametrize("value", ["maybe", 3, None])
def test_a_value_that_is_not_true_or_false_is_refused_with_a_message(value):
    with pytest.raises(ParamError) as caught:
        CrashTiming({"fail_after_effect": value})
    assert caught.value.field == "fail_after_effect"
    assert caught.value.words == ("A later step fails after the email: must be true or false, "
                                  f"got {value!r}")


def test_the_field_is_declared_like_the_marker():
    specs = {spec["name"]: spec for spec in CrashTiming.PARAMS}
    assert specs["fail_after_effect"]["type"] == specs["marker"]["type"]
    assert specs["fail_after_effect"]["label"] == "A later step fails after the email"
    assert specs["fail_after_effect"]["default"] is False
