"""One view, drawn twice, the same: for every simulation, a snapshot's view (simulations/engine/view.py)
drawn by the build's Jinja macros (theme/templates/sim/_view.html, through the build's own
Theme.render_sim) and by the one JavaScript renderer (theme/js/sims/view.js, the module the
site serves, in real Chromium) gives the same words, numbers, classes and structure.

The picture's key is part of the view too, and compared the same way.

Each case renders two snapshots of one run with Jinja: its start (S0) and a later moment (S1).
The page holds both; view.js then draws S1's view over S0's drawing, and what it drew must equal
what Jinja drew for S1, figure for figure, cell for cell (rows added, removed and changed, and,
for the live queue, a column the level takes away). S0 and S1 differ, so a renderer that drew
nothing would fail."""
from pathlib import Path

import pytest

from builder.problems import Problems
from builder.theme import Theme
from simulations import SIMULATIONS

ROOT = Path(__file__).resolve().parents[2]

# What the page reads back of a drawn view: every figure, table, sentence and the outcome.
EXTRACT = """root => {
  const texts = (nodes) => [...nodes].map((n) => [n.tagName, n.className, n.innerHTML]);
  return {
    figures: [...root.querySelectorAll("[data-view-figures]")].map((box) => [box.dataset.viewFigures,
      [...box.children].map((tile) => [tile.dataset.figure, texts(tile.children)])]),
    tables: [...root.querySelectorAll("[data-view-table]")].map((t) => ({
      caption: t.caption.textContent.trim(),
      head: texts(t.tHead.rows[0].cells),
      rows: [...t.tBodies[0].rows].map((row) => [row.dataset.key, texts(row.cells)]),
    })),
    empty: [...root.querySelectorAll("[data-view-empty]")].map((p) => [p.hidden, p.textContent]),
    notes: [...root.querySelectorAll("p[data-view-note]")].map((p) => [p.dataset.viewNote, p.hidden, p.textContent]),
    alt: [...root.querySelectorAll("[data-view-alt]")].map((node) => node.textContent),
    key: [...root.querySelectorAll("[data-view-key]")].map((box) => box.innerHTML),
    outcome: root.querySelector('[data-part="outcome"]').textContent,
  };
}"""


def settle(sim, until=1e9):
    while not sim.run(until=until) and sim.clock.now < until:
        pass
    return sim.snapshot()


def live_queue_run():
    """A queue at its start, then a burst 8 s on at a level that keeps the token back: figures
    change and go, and the table gains rows and loses its Token column."""
    start = SIMULATIONS["live-queue"]({"level": "all", "crash": 0.3}, seed=7).snapshot()
    later = SIMULATIONS["live-queue"]({"level": "queue", "crash": 0.3}, seed=7)
    later.act("burst", count=100)
    later.run(until=8)
    return start, later.snapshot()


def run(name, params, until=1e9):
    sim = SIMULATIONS[name](params, seed=3)
    start = sim.snapshot()
    return start, settle(sim, until)


CASES = {
    "payments": lambda: run("payments", {"key": "none", "charges": 8, "lose_reply": 0.5}),
    "race": lambda: run("race", {"claim": "naive"}),
    "crash-timing": lambda: run("crash-timing", {"crash": "after-effect"}),
    "live-queue": live_queue_run,
}


def embed(theme, name, snapshot, sim_id):
    cls = SIMULATIONS[name]
    html = theme.render_sim({
        "id": sim_id, "name": name, "params": snapshot["params"], "seed": snapshot["seed"],
        "number": "1.1", "params_json": "{}", "snapshot": snapshot, "param_specs": cls.PARAMS,
        "fallback_html": "", "ending": None})
    assert html, "the build could not render it"
    return str(html)


@pytest.fixture(scope="module")
def theme():
    return Theme(ROOT / "theme", Problems())


@pytest.mark.parametrize("name", sorted(CASES))
def test_jinja_and_javascript_draw_the_same_view(module_page, real_site, theme, name):
    start, later = CASES[name]()
    page = module_page
    page.goto(real_site.at("00-how-to-use.html"))
    page.evaluate("""([first, second]) => {
      const main = document.querySelector("main") || document.body;
      const box = document.createElement("div");
      box.id = "parity";
      box.innerHTML = first + second;
      main.prepend(box);
    }""", [embed(theme, name, start, "first"), embed(theme, name, later, "second")])
    first, second = page.locator("#first"), page.locator("#second")
    jinja_first, jinja_second = first.evaluate(EXTRACT), second.evaluate(EXTRACT)
    assert jinja_first != jinja_second, "the two moments must differ for the test to mean anything"
    # Every word the view holds is in the build's drawing (its folds opened: innerText leaves out
    # what a closed <details> holds).
    second.evaluate("r => r.querySelectorAll('details').forEach((fold) => { fold.open = true; })")
    drawn = second.inner_text() + " ".join(second.evaluate("r => [...r.querySelectorAll('[hidden]')].map((n) => n.textContent)"))
    for figure in later["view"]["figures"]:
        assert figure["label"] in drawn and figure["text"] in drawn, figure
    # view.js, as the site serves it, draws the later view over the first drawing.
    page.evaluate("""async (view) => {
      const { drawView } = await import(new URL("assets/js/sims/view.js", document.baseURI).href);
      drawView(document.querySelector("#first .sim-widget"), view);
    }""", later["view"])
    assert first.evaluate(EXTRACT) == jinja_second
