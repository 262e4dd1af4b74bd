"""What a reader meets rarely, and must not be misled by: a widget's own code that fails to
download once (the widget says so, and Try again fetches it again), and a run with more actions
than a link holds (the link keeps the actions that fit, stops the time at the last one and says
so; the page it opens shows exactly that run)."""
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim, new_watched_page

LEASES = "05-leases.html"      # sim-kill-a-worker, live-queue: 3 workers, 6 jobs
BULK = 90_000                  # ms: how long 200 presses may take to be drawn on a loaded machine


def expected_only(watch, *fragments):
    """Drop the problems a test caused on purpose (each must name one of `fragments`)."""
    watch.problems[:] = [p for p in watch.problems if not any(f in p for f in fragments)]


@pytest.mark.parametrize("module", ["live-queue.js", "widget.js"])
def test_a_widget_whose_code_failed_to_load_says_so_and_loads_on_try_again(browser, real_site, module):
    context, page, watch = new_watched_page(browser, real_site)
    failed = []

    def fail_once(route):
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort("connectionreset")

    context.route(re.compile(rf"/assets/js/sims/{re.escape(module)}\?"), fail_once)
    page.goto(real_site.at(LEASES))
    sim = Sim(page, "live-queue")
    sim.root.scroll_into_view_if_needed()
    sim.wait("error", timeout=30_000)
    assert failed
    expect(sim.part("error-message")).to_contain_text(f"its code ({module}) could not be fetched")
    expect(sim.part("error-fix")).to_contain_text("Try again")
    sim.button("Try again").click()
    sim.wait("ready")
    sim.button("Step").click()
    expect(sim.part("time")).to_have_text("0.1 s")
    crash = Sim(page, id="sim-crash-points").start()                  # the other widgets on the page work too
    crash.button("Step").click()
    expect(crash.part("log").locator("li")).not_to_have_count(0)
    expected_only(watch, module)
    context.close()
    watch.check()


def press(sim, action, times):
    """Press a widget's button `times` times at once (as a reader's quick clicks)."""
    sim.root.locator(f'[data-action="{action}"]').evaluate(
        "(button, times) => { for (let i = 0; i < times; i += 1) button.click(); }", times)


def jobs_text(sim):
    return sim.root.locator('tbody[data-part="jobs"]').inner_text()


def test_a_run_with_more_actions_than_a_link_holds_links_the_part_that_fits(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site)
    page.goto(real_site.at(LEASES))
    sim = Sim(page, "live-queue").start()
    for tick in (1, 2, 3):
        sim.button("Step").click()
        expect(sim.part("time")).to_have_text(f"0.{tick} s")
    sim.button("Kill worker 1").click()                     # action 1, at 0.3 s
    expect(sim.button("Restart worker 1")).to_be_visible()
    press(sim, "enqueue", 199)                              # actions 2 to 200, at 0.3 s
    # Each press runs the simulation's Python and draws again: 199 of them take a while on a
    # busy 2-core machine (CI once saw 195 of 199 after 5 s), so wait for the count, not a clock.
    expect(sim.part("jobs-note")).to_contain_text("of 205", timeout=BULK)
    seen = {"time": sim.time(), "outcome": sim.outcome(), "jobs": jobs_text(sim)}
    sim.button("Step").click()
    expect(sim.part("time")).to_have_text("0.4 s")
    press(sim, "enqueue", 10)                               # actions 201 to 210, at 0.4 s
    expect(sim.part("jobs-note")).to_contain_text("of 215", timeout=BULK)
    sim.button("Step").click()
    expect(sim.part("time")).to_have_text("0.5 s")
    sim.button("Copy link").click()
    status = sim.part("link-status")
    expect(status).to_contain_text("210 actions")
    expect(status).to_contain_text("the first 200")
    expect(status).to_contain_text("0.3 s")
    link = page.url
    query = parse_qs(urlsplit(link).query)
    assert len(query["sim-kill-a-worker.do"][0].split(",")) == 200 and query["sim-kill-a-worker.t"] == ["0.3"]

    other = context.new_page()
    other.goto(link)
    again = Sim(other, "live-queue")
    again.wait("ready")
    expect(again.part("message")).to_contain_text("This is the run the link recorded")
    expect(again.part("jobs-note")).to_contain_text("of 205", timeout=BULK)
    assert {"time": again.time(), "outcome": again.outcome(), "jobs": jobs_text(again)} == seen
    expect(again.button("Restart worker 1")).to_be_visible()
    context.close()
    watch.check()


def test_a_simulation_python_refuses_to_create_says_so_instead_of_loading_forever(browser, real_site):
    # The page's own settings are refused (here: a lease the widget's Python does not allow, put in
    # the page as it is served), as the casebook's 33rd embed once was: the widget shows the
    # refusal and Try again, and the page's other widgets still work.
    context, page, watch = new_watched_page(browser, real_site)

    def bad_lease(route):
        html = route.fetch().text().replace("&#34;lease&#34;:5,", "&#34;lease&#34;:100000,", 1)
        route.fulfill(body=html, content_type="text/html")

    context.route(re.compile(rf"/{re.escape(LEASES)}$"), bad_lease)
    page.goto(real_site.at(LEASES))
    sim = Sim(page, id="sim-kill-a-worker")
    sim.root.locator('[data-action="start"]').click()
    sim.wait("error")
    expect(sim.part("error-message")).to_contain_text("Python refused it (ParamError: lease")
    expect(sim.button("Try again")).to_be_visible()
    crash = Sim(page, id="sim-crash-points").start()
    crash.button("Step").click()
    expect(crash.part("log").locator("li")).not_to_have_count(0)
    context.close()
    watch.check()
