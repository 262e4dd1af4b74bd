"""Chapter 3's live queue shows only what chapter 3 teaches. The embed's
`level: queue` (decided in Python: simulations/live_queue/levels.py, LEVELS) keeps back the fencing
token, Stall, the crash and supervisor fields and the duplicate-email and refused-ack figures, before
Python starts and after; a hidden setting keeps its value, so a link that sets one still replays;
chapter 5's live queue, at the default level, shows everything."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

KEPT_BACK = ("Duplicate emails", "Acks refused")
KEY_KEPT_BACK = ("its email sent twice", "an ack refused", "its second claim")   # the picture's key (learner trial)
FIELDS = ("Crash chance per job", "Restart dead workers", "Stall for (s)")


def assert_kept_back(sim):
    expect(sim.root.get_by_role("columnheader", name="Token")).to_have_count(0)
    for words in KEPT_BACK:
        expect(sim.root.get_by_text(words, exact=True)).to_be_hidden()
    for label in FIELDS:
        expect(sim.root.get_by_label(label, exact=True)).to_be_hidden()
    expect(sim.root.locator('[data-action="stall"]').first).to_be_hidden()
    expect(sim.root.get_by_role("button", name="Kill worker 1")).to_have_count(0)   # killing: chapters 4 and 5
    key = sim.root.locator(".lqp-key")
    expect(key).to_contain_text("its lease running out")
    for words in KEY_KEPT_BACK:
        expect(key.get_by_text(words)).to_be_hidden()


def test_chapter_3_keeps_back_what_later_chapters_teach(module_page, real_site):
    page = module_page
    page.goto(real_site.at("05-leases.html"))               # the default level: everything is there
    five = Sim(page, "live-queue")
    five.open_folds()
    expect(five.root.get_by_role("columnheader", name="Token")).to_be_visible()
    for words in KEPT_BACK:
        expect(five.root.get_by_text(words, exact=True)).to_be_visible()
    for words in KEY_KEPT_BACK:
        expect(five.root.locator(".lqp-key").get_by_text(words)).to_be_visible()
    five.start()
    expect(five.root.get_by_role("button", name="Kill worker 1")).to_be_visible()

    page.goto(real_site.at("03-the-queue.html"))
    sim = Sim(page, "live-queue")
    sim.open_folds()
    assert_kept_back(sim)                                    # as built, before Python
    sim.start()
    sim.button("Enqueue job").click()
    sim.button("Step").click()
    expect(sim.root.locator('.lq-worker[data-worker="1"]')).to_have_attribute("data-state", "claimed")
    expect(sim.root.locator(".lq-worker-job").first).to_have_text("Job 1, 0.1 s left in this step")
    assert_kept_back(sim)                                    # and as drawn from the snapshot
    # The row has no token cell: the level's table has no Token column (status, attempts, lease
    # left, worker, emails).
    expect(sim.row(1).locator("td")).to_have_count(5)


def test_a_link_still_sets_a_hidden_setting_and_replays(module_page, real_site):
    page = module_page
    sim_id = Sim(page, "live-queue").id
    page.goto(real_site.at(f"03-the-queue.html?{sim_id}.jobs=4&{sim_id}.crash=1&{sim_id}.t=0.5#{sim_id}"))
    sim = Sim(page, "live-queue")
    sim.root.scroll_into_view_if_needed()                  # in view, it starts by itself
    sim.wait("ready")
    sim.open_folds()
    expect(sim.part("message")).to_contain_text("This is the run the link recorded", timeout=60_000)
    assert "worker 1 crashed" in sim.log()                  # the hidden Crash chance, set by the link
    assert_kept_back(sim)


def test_a_link_that_sets_the_level_shows_that_levels_form(module_page, real_site):
    """Levels work one way for every simulation (the snapshot's `shown`, fields.js showFields):
    chapter 3's form has every field, those its level keeps back hidden, so a link that sets
    `level: all` shows the crash and supervisor fields once it runs."""
    page = module_page
    page.goto(real_site.at("03-the-queue.html"))
    sim = Sim(page, id="sim-queue-fills-and-drains")
    for label in ("Crash chance per job", "Restart dead workers"):
        expect(sim.root.get_by_label(label, exact=True)).to_be_hidden()   # in the page, hidden
        expect(sim.root.get_by_label(label, exact=True)).to_have_count(1)
    page.goto(real_site.at("03-the-queue.html?sim-queue-fills-and-drains.level=all#sim-queue-fills-and-drains"))
    sim = Sim(page, id="sim-queue-fills-and-drains")
    sim.wait("ready")
    sim.open_folds()
    for label in ("Crash chance per job", "Restart dead workers"):
        expect(sim.root.get_by_label(label, exact=True)).to_be_visible()
