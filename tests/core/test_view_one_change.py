"""Adding a parameter with a figure that shows it is one Python change (docs/simulations.md):
a PARAMS entry and a tile in the simulation's view. With the theme as it is, untouched, the
build's first frame then has the parameter's field (and the link's list of parameter names) and
the figure, and every later snapshot carries the figure for view.js to draw
(tests/widgets/test_view_parity.py shows that it draws any tile the view holds)."""
from pathlib import Path

from builder.problems import Problems
from builder.theme import Theme
from simulations import Payments
from simulations.engine.params import number
from simulations.payments.view import payments_view
from simulations.engine.view import secs, tile

ROOT = Path(__file__).resolve().parents[2]


def with_timeout(snapshot):
    """Payments' view, and one more figure: the timeout the reader set, in seconds."""
    shown = payments_view(snapshot)
    shown["figures"].append(tile("network_timeout", "Card network timeout",
                                 f"{secs(snapshot['params']['network_timeout'])} s"))
    return shown


class PaymentsWithATimeout(Payments):
    """The one change: a PARAMS entry and a figure."""
    PARAMS = Payments.PARAMS + (
        number("network_timeout", "Card network timeout (s)", 2, 0.5, 10,
               "How long the worker waits for the card network before it gives up."),)
    VIEW = staticmethod(with_timeout)


def render(snapshot):
    problems = Problems()
    html = Theme(ROOT / "theme", problems).render_sim({
        "id": "sim-1", "name": "payments", "params": snapshot["params"], "seed": 0,
        "number": "8.1", "params_json": "{}", "snapshot": snapshot,
        "param_specs": PaymentsWithATimeout.PARAMS, "fallback_html": "", "ending": None})
    assert html, "the theme could not render it"
    return str(html)


def test_a_new_parameter_and_its_figure_reach_the_first_frame_with_no_template_change():
    snapshot = PaymentsWithATimeout({"network_timeout": "3.5"}).snapshot()
    assert snapshot["params"]["network_timeout"] == 3.5
    html = render(snapshot)
    assert 'data-field="network_timeout"' in html                    # the form's field
    assert '<label for="sim-1-f-network_timeout">Card network timeout (s)</label>' in html
    assert "network_timeout" in html.split('data-param-names="')[1].split('"')[0]   # the link's
    assert ('<div class="sim-figure" data-figure="network_timeout"><dt>Card network timeout</dt>'
            '<dd data-fig="network_timeout">3.5 s</dd></div>') in html


def test_every_later_snapshot_carries_the_figure():
    sim = PaymentsWithATimeout({"network_timeout": 4})
    sim.run(until=5)
    figures = {f["key"]: f["text"] for f in sim.snapshot()["view"]["figures"]}
    assert figures["network_timeout"] == "4 s"
    sim.act("reset")
    assert {f["key"] for f in sim.snapshot()["view"]["figures"]} >= {"network_timeout", "attempts"}


def test_a_bad_value_is_refused_by_the_parameter_itself():
    import pytest
    from simulations import ParamError
    with pytest.raises(ParamError, match="network_timeout"):
        PaymentsWithATimeout({"network_timeout": 60})
