"""Predict, then run: a challenge beside a simulation takes the reader's guess before
its run goes on, runs it in real Pyodide, says in a live region whether the guess was right,
reads the number from the snapshot Python sent, shows the why, and remembers the answer."""
import re

from playwright.sync_api import expect

from tests.widgets.conftest import READY, Sim

LEASES = "05-leases.html"          # predict-emails-after-a-kill, beside sim-kill-a-worker
IDEMPOTENCY = "10-idempotency.html"  # predict-charged-twice-with-a-key, beside sim-stable-key
RUN = 90_000                        # ms: a run to its end on a loaded 2-core machine


def test_a_guess_comes_first_then_the_run_says_whether_it_was_right(module_page, real_site):
    page = module_page                  # one browser context for the module: Pyodide's wasm compiled once
    page.goto(real_site.at(f"{LEASES}#predict-emails-after-a-kill"))
    box = page.locator("#predict-emails-after-a-kill")
    page.wait_for_selector("#predict-emails-after-a-kill[data-predict-ready]", timeout=READY)
    result = box.get_by_role("status")
    answer = box.locator("details.predict-answer")
    expect(answer).not_to_have_attribute("open", "")                # folded: the why comes after the guess

    box.get_by_role("button", name="Lock in and run").click()
    expect(result).to_have_text("Choose or type your prediction first.")

    box.get_by_role("button", name="Show me the moment").click()
    expect(result).to_contain_text("paused at 1 s", timeout=RUN)
    sim = Sim(page, id="sim-kill-a-worker")
    expect(sim.part("log")).to_contain_text("was killed")
    # The moment is shown, not only said: the picture comes into view, the focus is on the outcome.
    expect(sim.part("picture")).to_be_in_viewport()
    expect(sim.part("outcome")).to_be_focused()
    expect(sim.part("announce")).to_contain_text("Paused at 1 s")

    box.get_by_role("radio", name="5 emails").check()
    box.get_by_role("button", name="Lock in and run").click()
    expect(result).to_contain_text("Not this time: you predicted 5, and the run ended with 6 emails", timeout=RUN)
    expect(sim.part("outcome")).to_contain_text("6 emails sent")
    expect(answer).to_be_visible()
    expect(answer).to_have_attribute("open", "")
    expect(box).to_have_attribute("data-result", "wrong")
    # A prediction run is a check answered: the chapter's progress counts its predict boxes too.
    checks = page.locator(".chapter-body .callout.pause, .chapter-body .callout.predict").count()
    here = page.locator('.chapter-list a[aria-current="page"]')
    expect(here).to_have_attribute("data-pauses", str(checks))
    expect(here).to_have_accessible_name(re.compile(rf"\b1 of {checks} checks answered"))
    expect(page.locator('[data-part="progress-note"]')).to_contain_text(f"1 of {checks} checks answered")

    page.reload()                                                    # remembered in this browser
    page.wait_for_selector("#predict-emails-after-a-kill[data-predict-ready]", timeout=READY)
    expect(page.locator("#predict-emails-after-a-kill").get_by_role("status")).to_contain_text(
        "Earlier you predicted 5, and you were wrong")


def test_a_typed_guess_is_checked_against_the_run(module_page, real_site):
    page = module_page
    page.goto(real_site.at(f"{IDEMPOTENCY}#predict-charged-twice-with-a-key"))
    box = page.locator("#predict-charged-twice-with-a-key")
    page.wait_for_selector("#predict-charged-twice-with-a-key[data-predict-ready]", timeout=READY)
    field = box.get_by_label("Your prediction (duplicate charges)")
    field.fill("0")
    field.press("Enter")
    expect(box.get_by_role("status")).to_contain_text(
        "Right: you predicted 0, and the run ended with 0 duplicate charges", timeout=RUN)
    expect(box.locator("details.predict-answer")).to_have_attribute("open", "")


def test_after_the_moment_the_simulation_is_the_readers_again(module_page, real_site):
    """Learner trial: after "Show me the moment", Play was held back (the page jumped to the box)
    and Reset did not free it; after a prediction run, Reset left that run's lines in the log."""
    page = module_page
    page.goto(real_site.at(f"{LEASES}#predict-emails-after-a-kill"))
    box = page.locator("#predict-emails-after-a-kill")
    page.wait_for_selector("#predict-emails-after-a-kill[data-predict-ready]", timeout=READY)
    box.get_by_role("button", name="Show me the moment").click()
    expect(box.get_by_role("status")).to_contain_text("paused at 1 s", timeout=RUN)
    sim = Sim(page, id="sim-kill-a-worker")
    sim.button("Play").click()                                       # plays on: no gate, no jump
    expect(sim.button("Pause")).to_be_in_viewport()               # the page stayed at the simulation
    expect(sim.part("time")).not_to_have_text(re.compile(r"^[01] s$"), timeout=RUN)
    sim.pause()
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 s")
    expect(sim.part("log")).not_to_contain_text("was killed")        # Reset clears the log
    sim.button("Play").click()
    expect(sim.part("time")).not_to_have_text(re.compile(r"^0 s$"), timeout=RUN)
    expect(sim.button("Pause")).to_be_in_viewport()
    sim.pause()

    box.get_by_role("radio", name="6 emails").check()                # a prediction run, then Reset
    box.get_by_role("button", name="Lock in and run").click()
    expect(box.get_by_role("status")).to_contain_text("Right: you predicted 6", timeout=RUN)
    expect(sim.part("log")).to_contain_text("was killed")
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 s")
    expect(sim.part("log")).not_to_contain_text("was killed")
    expect(sim.part("log")).to_contain_text("Started again from the beginning")
