"""The casebook's before/after pairs (content/19-casebook.md, a sim fence's `compare:` line) in real
Chromium with real Pyodide: each pair is one widget that opens already compared, the incident
live and the fix beside it at the same moment; a link to the fix's old id leads to the pair; axe
finds nothing on the chapter with every pair compared."""
import re

from playwright.sync_api import expect

from tests.conftest import ROOT
from tests.quality.axe import axe_violations
from tests.widgets.conftest import LONG, Sim

FENCE = re.compile(r"^```sim \S+ id=(\S+)\n(?:(?!^```).)*?^compare: id=(\S+)", re.M | re.S)
PAIRS = FENCE.findall((ROOT / "content" / "19-casebook.md").read_text(encoding="utf-8"))


def test_the_casebook_has_its_pairs():
    assert len(PAIRS) >= 20 and ("popped-ack-first", "popped-ack-after") in PAIRS


def test_each_pair_opens_as_one_compared_widget(module_page, real_site):
    page = module_page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(real_site.at("19-casebook.html"))
    # the race's pair played: both pictures move, and the words say where they part
    sim = Sim(page, id="sim-djjob-naive-claim").start()
    sim.button("Play").click()
    expect(sim.button("Play again")).to_be_visible(timeout=LONG)
    expect(sim.part("compare-words")).to_contain_text("They part at ", timeout=LONG)
    expect(sim.root.locator("[data-run=kept] .sim-pair-outcome")).to_contain_text("exactly one")
    for first, second in PAIRS:
        sim = Sim(page, id=f"sim-{first}").start()
        runs = sim.root.locator(".sim-pair-run")
        expect(runs, f"{first}: two pictures").to_have_count(2, timeout=LONG)
        expect(sim.button("Compare with the kept run")).to_have_attribute("aria-pressed", "true")
        expect(sim.root.locator("[data-run=kept] .sim-pair-name")).to_contain_text("The fix, at ")
        expect(sim.root.locator("[data-run=live] .sim-pair-name")).to_contain_text("The incident, at ")
        kept = sim.root.locator("[data-run=kept]").bounding_box()
        live = sim.root.locator("[data-run=live]").bounding_box()
        assert abs(kept["y"] - live["y"]) < 2 and live["x"] < kept["x"], f"{first}: incident left, fix right"
        assert page.locator(f"#sim-{second}.sim").count() == 0, f"{second} is a widget of its own"
    assert axe_violations(page) == []


def test_a_link_to_a_fix_leads_to_its_pair(fresh_page, real_site):
    fresh_page.goto(real_site.at("19-casebook.html") + "?sim-djjob-atomic-claim.seed=3#sim-djjob-atomic-claim")
    expect(fresh_page).to_have_url(re.compile(r"\?sim-djjob-naive-claim\.seed=3#sim-djjob-naive-claim$"))
    sim = Sim(fresh_page, id="sim-djjob-naive-claim")
    expect(sim.root).to_be_in_viewport()
