"""race in chapter 4, through its buttons and with the keyboard alone: with the naive claim,
A and B each look, then grab, and both send ada's email; with the atomic claim no order of
steps gives one job to both."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "04-the-worker.html"   # race: claim naive, 2 jobs


@pytest.fixture(scope="module")
def sim(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return Sim(module_page, "race")


def next_sql(sim, name):
    return sim.root.locator(f'.race-worker[data-worker="{name}"] .race-next')


def test_the_naive_claim_sends_one_email_twice(sim):
    sim.start()
    expect(next_sql(sim, "A")).to_have_text("SELECT id, args FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1")
    for _ in range(2):                                   # both look, then both grab
        sim.button("Step worker A").click()
        sim.button("Step worker B").click()
    expect(next_sql(sim, "A")).to_have_text("send the welcome email to ada@example.com")
    expect(sim.row(1).locator("td").nth(1)).to_have_text("running")
    sim.button("Step worker A").click()
    sim.button("Step worker B").click()
    outbox = sim.part("outbox").locator("li")
    expect(outbox).to_have_text(["ada@example.com, from worker A (job 1)",
                                 "ada@example.com, from worker B (job 1) duplicate"])
    expect(sim.part("outcome")).to_have_text("ada@example.com got 2 emails (from A and B).")
    assert sim.cells(1)[-1] == "2"                         # emails for job 1
    assert "B sent the welcome email to ada@example.com: that is 2 emails for one job" in sim.log()


def test_the_atomic_claim_never_sends_twice_whatever_the_order(sim):
    sim.root.get_by_label("Claim", exact=True).select_option("atomic")
    expect(sim.part("log")).to_contain_text("Started again: Claim is now Atomic: one statement.")
    expect(next_sql(sim, "A")).to_contain_text("RETURNING id, kind, args, attempts, token")
    # The most dangerous order for a look-then-grab claim: strictly alternating.
    statements = 0
    for _ in range(12):
        for name in ("A", "B"):
            button = sim.button(f"Step worker {name}")
            if button.is_enabled():
                button.click()
                statements += 1                          # each statement takes one virtual second
                expect(sim.part("time")).to_have_text(f"{statements} s")
    expect(sim.button("Step worker A")).to_be_disabled()
    expect(sim.button("Step worker B")).to_be_disabled()
    expect(sim.part("outcome")).to_have_text("2 emails sent: every address got exactly one.")
    expect(sim.part("outbox").locator("li.race-duplicate")).to_have_count(0)
    assert [sim.cells(job)[2] for job in (1, 2)] == ["done", "done"]


def test_play_lets_the_seed_choose_and_finishes(sim):
    sim.button("Reset").click()
    sim.set_speed("5")
    sim.button("Play").click()
    expect(sim.button("Play again")).to_be_visible(timeout=30_000)   # it stops by itself at the end
    expect(sim.part("outcome")).to_have_text("2 emails sent: every address got exactly one.")


def test_the_keyboard_alone_works_it(sim):
    sim.button("Reset").click()
    sim.button("Step worker A").focus()
    sim.page.keyboard.press("Enter")
    expect(next_sql(sim, "A")).to_have_text("send the welcome email to ada@example.com")
    sim.page.keyboard.press("Tab")                       # on to worker B's button
    expect(sim.button("Step worker B")).to_be_focused()
    sim.page.keyboard.press("Space")
    expect(sim.part("log")).to_contain_text("B claimed job 2")
    sim.root.get_by_label("Claim", exact=True).focus()
    sim.page.keyboard.press("ArrowUp")                   # a select changes with the arrow keys
    expect(sim.part("log")).to_contain_text("Started again: Claim is now Naive: look, then grab.")


def test_the_claim_help_uses_the_words_the_reader_sees(sim):
    # issue 23, defect 8: the help said "naive: ... atomic: ...", the menu "Naive: look, then grab"
    help_text = sim.root.locator('[data-field="claim"] .sim-help').inner_text()
    for value in sim.field("Claim").locator("option").evaluate_all("(options) => options.map((o) => o.value)"):
        assert f"{value}:" not in help_text, help_text
    for label in sim.field("Claim").locator("option").all_inner_texts():
        assert label in help_text, (label, help_text)
