"""A stalled worker's box shows the freeze, in real Chromium: it said "working: lost job 1" while
the worker did nothing for 10 s, which only the log told."""
import re

from playwright.sync_api import expect

from tests.widgets.conftest import Sim


def test_a_stalled_workers_box_says_it_is_frozen(module_page, real_site):
    module_page.goto(real_site.at("05-leases.html"))
    sim = Sim(module_page, id="sim-kill-a-worker").start()
    for tick in (1, 2, 3):
        sim.button("Step").click()
        expect(sim.part("time")).to_have_text(f"0.{tick} s")
    sim.part("picture").scroll_into_view_if_needed()
    sim.field("Stall for (s)").fill("8")
    sim.button("Stall worker 1").click()
    box = sim.root.locator(".lqp-worker").first
    expect(box).to_have_attribute("data-frozen", "8")
    expect(box.locator(".lqp-worker-state")).to_have_text("frozen 8 s")
    for _ in range(60):                            # 6 s: the lease ran out, worker 2 took it over
        sim.button("Step").click()
    expect(sim.part("time")).to_have_text("6.3 s")
    expect(box.locator(".lqp-worker-state")).to_contain_text("frozen 2 s")
    expect(sim.root.locator("svg.lqp-svg")).to_have_attribute(
        "aria-label", re.compile("worker 1 frozen by a stall for 2 s more"))
