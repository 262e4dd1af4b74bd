"""Numbers in what the simulations write for a reader: as the reader typed them (no float
noise, no value the reader never wrote), and words that agree with their count
(breaker report 12, #15: "1 jobs/s", "got 99,999,999,999,999,991,611,392", "got 0" for 1e-400)."""
import pytest

from simulations import SIMULATIONS, LiveQueue, ParamError
from simulations.engine.params import show_number
from simulations.engine.simulation import plural


def refusal(params):
    with pytest.raises(ParamError) as caught:
        LiveQueue(params)
    return str(caught.value)


@pytest.mark.parametrize("field, typed", [
    ("workers", "99999999999999999999999"),   # float() makes it 99999999999999991611392
    ("lease", "99999999999999999999999"),     # and :g made it 1e+23
    ("lease", "1e-400"),                      # float() makes it 0
    ("lease", "1234567.5"),                   # :g made it 1.23457e+06
    ("lease", "0.30000000000000004"),       # :g made it 0.3
    ("crash", " 1.5 "),
])
def test_an_out_of_range_value_is_echoed_as_typed(field, typed):
    assert refusal({field: typed}).endswith(f", got {typed.strip()}")


@pytest.mark.parametrize("field, value, shown", [
    ("lease", 0.1 + 0.2, "0.3"),               # a number computed by a page, not typed
    ("lease", 1e23, "1e23"),
    ("lease", 1e-7, "1e-7"),
    ("workers", 99999999999999999999999, "99999999999999999999999"),
    ("workers", 2.5, "2.5"),
    ("workers", 0.1 + 0.2, "0.3"),
])
def test_a_number_value_is_shown_without_float_noise(field, value, shown):
    assert refusal({field: value}).endswith(f", got {shown}")


def test_the_range_keeps_its_thousands_separator():
    assert refusal({"jobs": "5001"}) == "jobs: must be from 0 to 5,000, got 5001"


@pytest.mark.parametrize("number, words", [
    (2.0, "2"), (0.1 + 0.2, "0.3"), (123.4567, "123.4567"), (1e-7, "1e-7"), (1e23, "1e23"),
    (-0.0, "0"), (5000, "5000"), (10.5, "10.5"),
])
def test_show_number(number, words):
    assert show_number(number) == words


def test_plural_agrees_with_a_float_count_too():
    assert [plural(1.0, "job"), plural(1, "job"), plural(0.5, "job"), plural(5000, "job")] == [
        "1 job", "1 job", "0.5 jobs", "5,000 jobs"]


def test_settings_changed_during_a_run_are_written_as_typed():
    sim = LiveQueue({"workers": 1, "jobs": 1})
    sim.act("set", param="rate", value="1")
    sim.act("set", param="lease", value="2")
    sim.act("set", param="crash", value=0.1 + 0.2)
    sim.act("set", param="supervisor", value="true")
    sim.run(until=0.3)
    sim.act("stall", worker=1, seconds="123.4567")
    texts = [event["text"] for event in sim.snapshot()["events"]]
    assert "Arrivals (jobs/s) is now 1" in texts
    assert "Lease (s) is now 2" in texts
    assert "Crash chance per job is now 0.3" in texts
    assert "Restart dead workers is now on" in texts
    assert any("freezes for 123.4567 s" in text for text in texts), texts


@pytest.mark.parametrize("name", list(SIMULATIONS))
def test_every_choice_has_words_for_a_form(name):
    for spec in SIMULATIONS[name].PARAMS:
        if spec["type"] == "choice":
            assert list(spec["labels"]) == spec["choices"], spec
            assert all(words.strip() for words in spec["labels"].values())


@pytest.mark.parametrize("sim, field", [("crash-timing", "policy"), ("crash-timing", "scenario"),
                                        ("race", "claim"), ("payments", "key")])
def test_the_choices_a_form_shows_are_words_not_ids(sim, field):
    spec = next(p for p in SIMULATIONS[sim].PARAMS if p["name"] == field)
    assert all(spec["labels"][option] != option for option in spec["choices"])
