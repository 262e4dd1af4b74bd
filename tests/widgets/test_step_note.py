"""When Step is disabled because nothing would move, the widget says why,
in the simulation's words (the snapshot's `still`, written in Python), under the playback
buttons and as Step's description (aria-describedby); once Step applies again the words go."""
import re

from playwright.sync_api import expect

from tests.widgets.conftest import Sim

RUN = 90_000   # ms: a run to its end on a loaded 2-core machine


def test_chapter_3_says_why_step_does_nothing_before_a_job(module_page, real_site):
    page = module_page
    page.goto(real_site.at("03-the-queue.html"))
    sim = Sim(page, "live-queue")
    step, note = sim.button("Step"), sim.part("step-note")
    sim.start()
    expect(step).to_be_disabled()
    expect(note).to_be_visible()
    expect(note).to_have_text(re.compile(r"^Nothing to do: no jobs yet\. Enqueue a job"))
    expect(step).to_have_accessible_description(re.compile(r"no jobs yet\. Enqueue a job"))

    sim.button("Enqueue job").click()
    expect(step).to_be_enabled()
    expect(note).to_have_text("")                           # empty, its lines kept (no shift)
    expect(step).to_have_accessible_description("")

    sim.button("Play").click()                               # the one job is done: still again
    expect(note).to_have_text(re.compile(r"every job is finished\. Enqueue another job"), timeout=RUN)
    expect(step).to_be_disabled()


def test_a_run_over_says_so_beside_step(module_page, real_site):
    page = module_page
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, "crash-timing")
    sim.start()
    step = sim.button("Step")
    expect(step).to_have_accessible_description("")
    sim.button("Run to the end").click()
    expect(step).to_be_disabled(timeout=RUN)
    expect(step).to_have_accessible_description(re.compile(r"this run is over\. Press Reset"))
    sim.button("Reset").click()
    expect(step).to_be_enabled(timeout=RUN)
    expect(sim.part("step-note")).to_have_text("")
