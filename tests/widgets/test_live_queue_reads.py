"""live-queue's picture says what a learner sees at a glance, in real Chromium: 64 idle
workers read as idle, not as 64 dead ones, and retries waiting out their backoff say when they
are due. One page (one Pyodide start) for the module: the casebook's 64-worker retry storm."""
import re

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import LONG, Sim


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at("19-casebook.html"))
    return module_page


def test_64_idle_workers_read_as_idle_and_kill_is_still_there_and_named(page):
    sim = Sim(page, id="sim-splay-no-jitter").start()
    expect(sim.root.locator('.lqp-buttons[data-room="one"]')).to_have_count(1)
    kill = sim.button("Kill worker 5")               # reachable, and named for what it does
    expect(kill).to_be_visible()
    expect(kill).to_have_text("5")                   # the worker's name, not a red "✕5"
    colours = kill.evaluate("""b => [getComputedStyle(b).color,
        getComputedStyle(b.closest('.lqp').querySelector('.lqp-label')).fill]""")
    assert colours[0] == colours[1], colours         # the text's colour, as the labels' (not red)
    kill.click()
    expect(sim.root.locator(".lqp-worker").nth(4)).to_have_attribute("data-state", "killed", timeout=LONG)


def test_retries_in_backoff_say_when_they_are_due(page):
    sim = Sim(page, id="sim-splay-no-jitter").start()
    sim.button("Reset").click()
    sim.set_speed("5")
    sim.button("Play").click()
    label = sim.root.locator(".lqp-label-queue")
    expect(label).to_contain_text("in backoff", timeout=LONG)
    sim.button("Pause").click()
    waiting = sim.root.locator(".lqp-token.lqp-later")
    expect(waiting.first).to_be_visible()
    caption = waiting.first.locator(".lqp-tries").text_content()
    assert re.fullmatch(r"in \d+ s", caption), caption
    assert re.search(r"queued \(\d+ of them retries waiting out their backoff",
                     sim.root.locator("svg.lqp-svg").get_attribute("aria-label"))


def test_play_reads_play_once_every_job_is_done_and_the_clock_stops(page):
    sim = Sim(page, id="sim-splay-no-jitter").start()
    sim.button("Reset").click()
    sim.set_speed("50")
    sim.button("Play").click()
    expect(sim.part("outcome")).to_contain_text("64 of 64 jobs done", timeout=LONG)
    expect(sim.button("Play")).to_be_visible()       # not "Pause" over a clock that stands still
    expect(sim.button("Pause")).to_have_count(0)
    assert sim.root.get_attribute("data-playing") is None
    stopped = sim.time()
    sim.button("Play").click()                       # nothing to play: it says why, and stays
    expect(sim.part("message")).to_contain_text("every job is finished")
    expect(sim.button("Play")).to_be_visible()
    assert sim.time() == stopped


def test_the_stall_seconds_field_is_as_wide_as_a_number_not_the_page(page):
    sim = Sim(page, id="sim-splay-no-jitter").start()
    field = sim.field("Stall for (s)")
    field.scroll_into_view_if_needed()
    expect(field).to_be_visible()
    assert field.bounding_box()["width"] <= 170, field.bounding_box()
