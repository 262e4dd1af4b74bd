"""Why Step waits (chapter 3); the chapter tells the reader what a simulation needs (the Speed
menu for a minute-long lease, a slower speed for a two-second window), and a simulation does not
start with a control the chapter has not taught yet ticked (the fencing token in 5.2)."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim




def _text_before(page, selector, paragraphs=3):
    """The last `paragraphs` paragraphs before the first embed matching `selector` (its stage, if
    it has one), up to the heading above: what a reader reads just before using it."""
    return page.locator(selector).first.evaluate(
        "(sim, wanted) => { const found = []; let e = (sim.closest('.sim-stage') || sim).previousElementSibling;"
        " while (e && found.length < wanted && !/^H[1-6]$/.test(e.tagName)) {"
        "   if (e.tagName === 'P') found.unshift(e.textContent); e = e.previousElementSibling; }"
        " return found.join(' '); }", paragraphs)


def test_the_text_says_how_to_see_what_takes_long_or_goes_fast(real_page, real_site):
    real_page.goto(real_site.at("04-the-worker.html"))
    before = " ".join(_text_before(real_page, '.sim[data-sim="live-queue"]').split())
    assert "Speed menu" in before and "10×" in before, before
    real_page.goto(real_site.at("05-leases.html"))
    before = " ".join(_text_before(real_page, '.sim[data-sim="live-queue"]').split())
    assert "Speed menu" in before and "0.25×" in before, before


def test_chapter_3_says_why_step_waits_for_a_job(real_page, real_site):
    """Defect 4: Step is disabled until the queue has a job; the chapter says so (the widget's own
    hint, if any, belongs to the widget)."""
    real_page.goto(real_site.at("03-the-queue.html"))
    before = " ".join(_text_before(real_page, '.sim[data-sim="live-queue"]').split())
    assert "Step stays greyed out until you press" in before, before


def test_crash_timing_in_chapter_5_starts_without_the_fencing_token(real_page, real_site):
    real_page.goto(real_site.at("05-leases.html"))
    # 5.2 comes before the token is taught: its level leaves the box out of the page altogether.
    first = real_page.locator('.sim[data-sim="crash-timing"]').first
    expect(first.get_by_role("checkbox", name="Fencing token")).to_have_count(0)
    # The lease-too-short scene, after the stale-ack pause, has it, unticked.
    short = real_page.locator("#sim-lease-too-short")
    Sim(real_page, id="sim-lease-too-short").open_folds()   # its settings, as a reader opens them
    expect(short.get_by_role("checkbox", name="Fencing token")).to_have_count(1)
    expect(short.get_by_role("checkbox", name="Fencing token")).not_to_be_checked()
