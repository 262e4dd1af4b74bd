"""What the widgets say: "1 job/s", menus in words (the value stays the simulation's name), a
field's error beside that field even while another one is invalid, the value as the reader typed
it in the error, and a screen reader told of the reader's own actions and the outcome, not of
every event while the simulation plays."""
import pytest
from playwright.sync_api import expect

from simulations.engine.view import per_second
from tests.widgets.conftest import Sim

LEASES = "05-leases.html"      # live-queue (sim-kill-a-worker), crash-timing (sim-crash-points, sim-lease-too-short)


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(LEASES))
    return module_page


def test_a_rate_of_one_is_one_job_a_second(page):
    assert [per_second(n, "job") for n in (1, 0, 2.5, 0.333)] == ["1 job/s", "0 jobs/s", "2.5 jobs/s", "0.33 jobs/s"]
    sim = Sim(page, "live-queue")
    expect(sim.root.locator('[data-fig="throughput"]')).to_have_text("0 jobs/s")


def test_the_menus_show_words_and_keep_the_names_as_values(page):
    crash = Sim(page, id="sim-lease-too-short")
    for label in ("Policy", "Scenario"):
        options = crash.field(label).locator("option").evaluate_all("os => os.map((o) => [o.value, o.textContent.trim()])")
        assert options and all(value != text and " " in text for value, text in options), options
    crash.start()
    crash.field("Scenario").select_option("crash")
    expect(crash.part("log")).to_contain_text("Started again: Scenario is now Worker A crashes.")
    expect(crash.field("Scenario")).to_have_value("crash")


def test_an_error_shows_beside_the_field_just_edited_even_while_another_is_invalid(page):
    sim = Sim(page, "live-queue").start()
    sim.root.get_by_text("More settings").click()
    workers, jobs = sim.field("Workers"), sim.field("Jobs at the start")
    workers.fill("0")
    workers.press("Enter")
    error = lambda name: sim.root.locator(f'[data-field="{name}"] [data-part="error"]')
    expect(error("workers")).to_have_text("Workers: must be from 1 to 64, got 0")
    jobs.fill("-3")
    jobs.press("Enter")
    expect(error("jobs")).to_contain_text("got -3")
    expect(error("workers")).to_contain_text("got 0")       # still said: that field is still wrong
    jobs.fill("99999999999999999999999")
    jobs.press("Enter")
    expect(error("jobs")).to_contain_text("got 99999999999999999999999")   # as typed, no float noise
    lease = sim.field("Lease (s)")
    lease.fill("1e-400")
    lease.press("Enter")
    expect(error("lease")).to_contain_text("got 1e-400")
    sim.button("Use the chapter’s settings").click()
    expect(error("workers")).to_have_text("")


LIVE = """root => {
  const regions = [...root.querySelectorAll('[aria-live], [role=log], [role=status], [role=alert]')]
    .filter((node) => node.getAttribute('aria-live') !== 'off');
  window.__spoken = [];
  window.__watch = new MutationObserver((changes) => {
    for (const change of changes) window.__spoken.push((change.target.textContent || '').slice(0, 80));
  });
  for (const region of regions) window.__watch.observe(region, { childList: true, characterData: true, subtree: true });
  return regions.length;
}"""


def test_the_screen_reader_hears_the_readers_actions_and_the_outcome_not_every_event(page):
    sim = Sim(page, "live-queue").start()
    sim.button("Reset").click()
    assert sim.root.evaluate(LIVE) >= 1
    sim.set_speed("50")
    sim.button("Play").click()
    page.wait_for_timeout(2000)
    expect(sim.button("Play")).to_be_visible()      # every job done by 7.1 s: Play stops by itself
    page.wait_for_timeout(300)
    spoken = page.evaluate("() => { window.__watch.disconnect(); return window.__spoken; }")
    assert sim.part("log").locator("li").count() > 10                 # the visible log is complete
    assert len(spoken) <= 3, spoken                                    # paused: said once
    assert any("Paused" in text for text in spoken), spoken
    sim.button("Enqueue job").click()                                  # the reader's own action: said
    expect(sim.part("announce")).to_contain_text("enqueued")
