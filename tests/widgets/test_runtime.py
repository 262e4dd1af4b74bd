"""The page's one Python worker and the widgets' life around it: the starting state and the text
without Python; a failed or stalled load said in words, with a retry that works; a page opened
from disk; two widgets sharing one worker; the run in the URL, read back safely."""
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import READY, Sim, new_watched_page

LEASES = "05-leases.html"      # live-queue (sim-kill-a-worker), crash-timing (sim-crash-points, sim-lease-too-short)
WORKER = "04-the-worker.html"  # sim-two-workers-twelve-jobs (live-queue), sim-race-to-claim


def expected_only(watch, *fragments):
    """Drop the problems a test caused on purpose (each must name one of `fragments`)."""
    watch.problems[:] = [p for p in watch.problems if not any(f in p for f in fragments)]


def test_the_starting_state_and_the_text_are_there_with_python_blocked(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site)
    context.route(re.compile(r"/pyodide/|/assets/py/"), lambda route: route.abort())
    page.goto(real_site.at(LEASES))
    sim = Sim(page, "live-queue")
    expect(sim.root.locator('tbody[data-part="jobs"] tr')).to_have_count(6)
    expect(sim.part("outcome")).to_have_text("0 of 6 jobs done, 0 emails sent.")
    sim.root.scroll_into_view_if_needed()
    sim.wait("error")
    expect(sim.part("error-message")).to_contain_text("could not be fetched")
    expect(sim.part("error-fix")).to_contain_text("Check that the server is still running")
    expect(sim.button("Try again")).to_be_visible()
    expect(sim.root.locator('tbody[data-part="jobs"] tr')).to_have_count(6)       # still drawn
    expect(page.get_by_role("heading", level=1)).to_contain_text("leases", ignore_case=True)
    expect(page.locator("main .chapter-body > p").first).to_be_visible()
    expected_only(watch, "/pyodide/", "/assets/py/")
    context.close()
    watch.check()


@pytest.mark.parametrize("fault, says", [
    ("wasm-type", 'sends pyodide.asm.wasm as "text/plain", not "application/wasm"'),
    ("missing", "pyodide.asm.wasm: the server answered HTTP 404"),
])
def test_a_failed_load_says_what_happened_and_recovers_on_retry(browser, faulty_site, fault, says):
    context, page, watch = new_watched_page(browser, faulty_site)
    faulty_site.fault = fault
    page.goto(faulty_site.at(LEASES))
    sim = Sim(page, "live-queue")
    sim.root.scroll_into_view_if_needed()
    sim.wait("error")
    expect(sim.part("error-message")).to_contain_text(says)
    expect(sim.part("error-fix")).to_contain_text("build.py --serve" if fault == "wasm-type" else "Rebuild it")
    for _ in range(50):                                     # the failed worker was thrown away
        if not page.workers:                                # (Playwright hears of it a moment later)
            break
        page.wait_for_timeout(100)
    assert page.workers == []
    faulty_site.fault = None
    sim.button("Try again").click()
    sim.wait("ready")
    sim.button("Step").click()
    expect(sim.part("time")).to_have_text("0.1 s")
    expected_only(watch, "HTTP 404: " + faulty_site.url + "pyodide/pyodide.asm.wasm",
                  "pyodide.asm.wasm - Failed to load resource", "Failed to load resource: the server responded with a status of 404")
    context.close()
    watch.check()


def test_a_stalled_load_times_out_and_recovers_on_retry(browser, faulty_site):
    context, page, watch = new_watched_page(browser, faulty_site)
    page.clock.install()                        # the page's timers, so the stall need not be waited for
    faulty_site.fault = "hang"
    page.goto(faulty_site.at(LEASES))
    sim = Sim(page, "live-queue")
    sim.root.scroll_into_view_if_needed()
    sim.wait("loading")
    expect(sim.part("progress-text")).to_have_text(re.compile(r"Downloading Python: [\d.]+ of 12\.\d MB…"))
    progress, steady = None, 0
    while steady < 4:                            # every file but the held wasm is in: progress stops
        page.wait_for_timeout(250)
        now = sim.part("progress-text").inner_text()
        steady = steady + 1 if now == progress else 0
        progress = now
    assert sim.state() == "loading"
    page.clock.fast_forward("01:00")
    sim.wait("error")
    expect(sim.part("error-message")).to_contain_text("Nothing new arrived for 30 s while downloading python")
    faulty_site.fault = None
    sim.button("Try again").click()
    sim.wait("ready")
    expected_only(watch, "pyodide.asm.wasm")     # the request the first worker left hanging
    context.close()
    watch.check()


def test_a_page_opened_from_disk_explains_how_to_serve_it(browser, real_site):
    context = browser.new_context()
    page = context.new_page()
    page.goto((real_site.folder / LEASES).as_uri())
    sim = Sim(page, "live-queue")
    expect(sim.root).to_have_attribute("data-state", "error")
    notice = sim.root.locator(".sim-file-notice")
    expect(notice).to_contain_text("a page opened as a file cannot do")
    expect(notice).to_contain_text(f"python3 build.py --serve")
    expect(notice).to_contain_text(f"http://127.0.0.1:8000/{LEASES}")
    expect(sim.root.locator('tbody[data-part="jobs"] tr')).to_have_count(6)       # the starting state stays
    expect(sim.button("Start the simulation")).to_be_hidden()                      # scripts-only controls stay hidden
    context.close()


def test_two_widgets_on_one_page_share_one_worker(fresh_page, real_site):
    page = fresh_page
    page.goto(real_site.at(WORKER))
    queue, race = Sim(page, "live-queue").start(), Sim(page, "race").start()
    assert len(page.workers) == 1
    assert len(page.watch.requested("pyodide.asm.wasm")) == 1
    assert len(page.watch.requested("assets/py/simulations.json?v=")) == 1
    race.button("Step worker A").click()
    queue.button("Step").click()
    expect(race.part("log")).to_contain_text("A looked: job 1 is queued")
    expect(queue.part("time")).to_have_text("0.1 s")
    own = (real_site.url, f"blob:{real_site.url.split('/guide/')[0]}/")   # blob: the worker's one line
    assert all(url.startswith(own) for url in page.watch.requests)
    assert len(page.watch.requested("blob:")) == 1


def test_a_permalink_reproduces_the_same_run(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site)
    page.goto(real_site.at(LEASES))
    sim = Sim(page, "live-queue").start()
    for _ in range(5):
        sim.button("Step").click()
    sim.button("Kill worker 2").click()
    sim.button("Enqueue job").click()
    sim.set_speed("10")
    sim.button("Play").click()
    expect(sim.row(2).locator("td").first).to_have_text("done", timeout=60_000)
    sim.pause()
    sim.button("Copy link").click()
    expect(sim.part("link-status")).to_contain_text("address bar")
    link = page.url
    query = parse_qs(urlsplit(link).query)
    assert query["sim-kill-a-worker.do"][0] == "0.5:kill:2,0.5:enqueue" and urlsplit(link).fragment == "sim-kill-a-worker"
    seen = {"time": sim.time(), "jobs": sim.root.locator('tbody[data-part="jobs"]').inner_text(),
            "outcome": sim.outcome(), "log": sim.part("log").locator("li").all_inner_texts()}

    other = context.new_page()
    other.goto(link)
    again = Sim(other, "live-queue")
    again.wait("ready")                           # the #sim-kill-a-worker in the link scrolled to it: it started by itself
    assert {"time": again.time(), "jobs": again.root.locator('tbody[data-part="jobs"]').inner_text(),
            "outcome": again.outcome(), "log": again.part("log").locator("li").all_inner_texts()} == seen
    expect(again.part("message")).to_contain_text("This is the run the link recorded")
    context.close()
    watch.check()


@pytest.mark.parametrize("query, says", [
    ("sim-kill-a-worker.lease=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", "its value for lease has characters no setting uses"),
    ("sim-kill-a-worker.lease=99999", "lease: must be from 0.5 to 86400, got 99999"),
    ("sim-kill-a-worker.do=1:eval:alert", "it names an action this simulation does not have"),
    ("sim-kill-a-worker.do=0:kill:9", "the simulation refused (worker: must be from 1 to 3, got 9)"),
    ("sim-kill-a-worker.__proto__=1&sim-kill-a-worker.seed=2", "this simulation has no setting called “__proto__”"),
    ("sim-kill-a-worker.t=1e9", "its time is not a number of seconds"),
])
def test_a_malformed_or_hostile_link_gets_the_defaults_and_a_message(module_page, real_site, query, says):
    page = module_page
    page.goto(real_site.at(f"{LEASES}?{query}#sim-kill-a-worker"))
    sim = Sim(page, "live-queue")
    sim.wait("ready")
    expect(sim.part("message")).to_contain_text(says)
    expect(sim.field("Lease (s)")).to_have_value("5")           # the chapter's own settings
    assert page.locator("img[src=x]").count() == 0
    sim.button("Step").click()                                  # and it works
    expect(sim.part("time")).not_to_have_text("0 s")


def test_nothing_of_python_loads_until_a_simulation_is_used(fresh_page, real_site):
    page = fresh_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(real_site.at(LEASES), wait_until="networkidle")   # the reader has not scrolled yet
    sims = [url.split("/assets/js/sims/")[1].split("?")[0] for url in page.watch.requested("/assets/js/sims/")]
    # Chapter 5 has a "Predict, then run" box: its small script (and the link reader it uses)
    # comes with the page, and so does folds.js (the widgets' folds a reader left open);
    # nothing of Python does.
    assert sorted(sims) == ["file-notice.js", "folds.js", "permalink.js", "predict.js", "python.js", "runtime.js"]
    assert not page.watch.requested("/pyodide/") and not page.watch.requested("/assets/py/")
    sim = Sim(page, "live-queue")
    sim.root.scroll_into_view_if_needed()                       # now it starts by itself
    sim.wait("ready")
    assert page.watch.requested("pyodide.asm.wasm") and page.watch.requested("/assets/js/sims/widget.js")
