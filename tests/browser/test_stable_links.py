"""Old, order-based links to a box that now declares its id still land on it."""
import re

from playwright.sync_api import expect

from builder.problems import Problems
from builder.summary import load_summary
from tests.conftest import ROOT


def test_an_old_numbered_link_is_rewritten_to_the_declared_id(page, fixture_site):
    page.set_viewport_size({"width": 1000, "height": 600})
    page.goto(fixture_site.at("01-queue.html?pause-1-1.seed=3&other=1#pause-1-1"))
    expect(page).to_have_url(re.compile(r"01-queue\.html\?pause-jobs-at-the-start\.seed=3&other=1#pause-jobs-at-the-start$"))
    box = page.locator("#pause-jobs-at-the-start")
    expect(box).to_be_in_viewport()
    expect(box.get_by_role("link", name="Pause and check 1.1")).to_have_attribute("href", "#pause-jobs-at-the-start")


def test_without_javascript_the_old_anchor_still_lands_on_the_box(no_js_page, fixture_site):
    no_js_page.set_viewport_size({"width": 1000, "height": 600})
    no_js_page.goto(fixture_site.at("01-queue.html#pause-1-1"))
    expect(no_js_page.locator("#pause-jobs-at-the-start .callout-title")).to_be_in_viewport()


def test_a_link_from_when_the_casebook_was_chapter_11_lands_on_its_box(real_page, real_site):
    """The casebook was chapter 11 until the glossary came first (content/SUMMARY.md says so), and
    its file was 12-casebook.md until chapters were split (content/moved.toml): the old address
    forwards to today's page, where the old box number lands."""
    number = next(c.number for c in load_summary(ROOT / "content", Problems()) if c.source.endswith("-casebook.md"))
    real_page.set_viewport_size({"width": 1000, "height": 600})
    real_page.goto(real_site.at("12-casebook.html#pause-11-2"))
    expect(real_page).to_have_url(re.compile(rf"/{number}-casebook\.html#pause-job-that-kills-its-worker$"))
    box = real_page.locator("#pause-job-that-kills-its-worker")
    expect(box.get_by_role("link", name=f"Pause and check {number}.2")).to_be_in_viewport()


def test_a_link_to_a_box_in_a_folded_aside_opens_the_fold(real_page, real_site):
    """Chapter 7's shutdown and deploy boxes sit in folded "Going further" asides: a link made
    when they stood unfolded in chapter 5, by declared id or by number, must still show the box,
    on the page that holds it now (05-leases.html forwards it: content/moved.toml)."""
    real_page.set_viewport_size({"width": 1000, "height": 600})
    for fragment, declared in [("pause-renamed-argument", "pause-renamed-argument"),
                               ("pause-5-6", "pause-deploy-during-a-long-job"),
                               ("drills-5-3", "drills-graceful-shutdown")]:
        real_page.goto("about:blank")   # a fresh load each time: no fold left open by the last
        real_page.goto(real_site.at(f"05-leases.html#{fragment}"))
        expect(real_page).to_have_url(re.compile(rf"/07-shutdown-and-deploys\.html#{declared}$"))
        box = real_page.locator(f"#{declared}")
        expect(box.locator("xpath=ancestor::details[contains(@class, 'aside')]")).to_have_attribute("open", "")
        expect(box.locator(".callout-title").first).to_be_in_viewport()


def test_a_link_from_before_the_chapters_were_renumbered_lands_on_the_same_place(real_page, real_site):
    """Chapter 5 was split in three and the chapters after it renumbered (content/moved.toml): an old
    page's address, with a simulation's settings and its fragment, reaches the page that holds it."""
    real_page.set_viewport_size({"width": 1000, "height": 600})
    real_page.goto(real_site.at("06-retry.html?sim-flaky-bank-no-key.seed=3#sim-flaky-bank-no-key"))
    expect(real_page).to_have_url(re.compile(r"/08-retry\.html\?sim-flaky-bank-no-key\.seed=3#sim-flaky-bank-no-key$"))
    expect(real_page.locator("#sim-flaky-bank-no-key")).to_be_attached()
    real_page.goto(real_site.at("05-leases.html#heartbeats"))
    expect(real_page).to_have_url(re.compile(r"/06-heartbeats\.html#heartbeats$"))
    expect(real_page.get_by_role("heading", name="Heartbeats", exact=True)).to_be_in_viewport()
