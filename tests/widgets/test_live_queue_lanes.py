"""live-queue's picture in real Chromium draws a running job whose lease still runs apart from the
queue, whoever held it: the casebook's Oban case (two workers die holding jobs under a 600 s lease,
the supervisor restarts both) shows its two jobs stuck as running, never "back from a lost lease"
in the Queue lane while the table says they are running with ten minutes of lease left."""
import re

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim
from tests.widgets.test_live_queue_casebook import play_to


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at("19-casebook.html"))
    return module_page


def test_the_oban_cases_leased_jobs_are_stuck_as_running_not_waiting_in_the_queue(page):
    sim = Sim(page, id="sim-oban-no-lease").start()
    play_to(sim, 5, speed="5")                     # both workers died and were restarted by 4.3 s
    for job_id in (2, 3):                          # the table: running, lease left, no worker
        cells = sim.cells(job_id)
        assert "running" in cells and any(re.fullmatch(r"59\d(\.\d)?", c) for c in cells), cells
    # the case is a pair: the incident is the live run, the fix beside it draws a picture too
    live = sim.root.locator('.sim-pair-run[data-run="live"]')
    labels = live.locator(".lqp-labels")
    expect(labels.locator(".lqp-label-queue")).to_have_text("Queue: 0 jobs waiting")
    expect(labels.locator(".lqp-label-stuck")).to_have_text(   # the shorter words at half width
        re.compile(r"Stuck( as running, no worker)?: 2"))
    rail = live.locator(".lqp-rail")
    end = float(rail.get_attribute("x")) + float(rail.get_attribute("width"))
    for job_id in (2, 3):                          # drawn right of the lane, past its rail's end
        token = live.locator(f'.lqp-token[data-job="{job_id}"]')
        expect(token).to_have_attribute("data-status", "running")
        x = float(re.search(r"translate\(([\d.]+)px", token.get_attribute("style")).group(1))
        assert x > end, (job_id, x, end)
        expect(token.locator(".lqp-tries")).to_have_text("")   # not "2nd try": nobody claims it
    expect(live.locator("svg.lqp-svg")).to_have_attribute(
        "aria-label", re.compile("job 2 stuck as running"))
