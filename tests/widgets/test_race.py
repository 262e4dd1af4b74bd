"""race in chapter 4, through its buttons and with the keyboard alone: with the naive claim,
A and B each look, then grab, and both send ada's email; with the atomic claim no order of
steps gives one job to both."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim
from tests.support.colours import contrast, rgb

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
    assert sim.cells(1)[5] == "2"                          # emails for job 1
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
                statements += 1                          # the clock counts statements
                expect(sim.part("time")).to_have_text(f"{statements} statement{'s' if statements > 1 else ''}")
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
    # The help said "naive: ... atomic: ...", the menu "Naive: look, then grab"
    help_text = sim.root.locator('[data-field="claim"] .sim-help').inner_text()
    for value in sim.field("Claim").locator("option").evaluate_all("(options) => options.map((o) => o.value)"):
        assert f"{value}:" not in help_text, help_text
    for label in sim.field("Claim").locator("option").all_inner_texts():
        assert label in help_text, (label, help_text)


# --- the picture: marks on the job rows, arrows on the program, agreeing with the text ---

PICTURE = """root => ({
  rows: [...root.querySelectorAll('.race-row')].map((row) => ({
    id: row.dataset.key, flag: row.dataset.flag || null,
    status: row.querySelector('.race-row-status').textContent,
    marks: [...row.querySelectorAll('.race-mark')].map((m) => [m.dataset.worker, m.dataset.hold]),
    emails: row.querySelectorAll('.race-email').length,
    background: getComputedStyle(row).backgroundColor })),
  table: [...root.querySelectorAll('tbody[data-part="jobs"] tr')].map((tr) => [...tr.cells].map((c) => c.innerText.trim())),
  arrows: [...root.querySelectorAll('.race-line')].map((line) => [...line.querySelectorAll('.race-arrow')].map((a) => a.textContent)),
  cards: [...root.querySelectorAll('.race-worker')].map((card) => [card.dataset.worker, card.querySelector('.race-last').textContent]),
})"""

# A token's colour as the page resolves it (the probe is made and dropped inside the widget).
TOKEN = """(root, name) => { const probe = document.createElement('span'); probe.style.backgroundColor = `var(${name})`;
  root.append(probe); const colour = getComputedStyle(probe).backgroundColor; probe.remove(); return colour; }"""

# Count the snapshots drawn from now on (one listener per page, however often this is called).
COUNT_SNAPSHOTS = """root => { root.drawn = 0;
  if (!root.counting) { root.counting = true; root.addEventListener('sim-snapshot', () => { root.drawn += 1; }); } }"""


def step(sim, name, drawn):
    """Press "Step worker <name>" and wait until its snapshot is drawn (counted by sim-snapshot)."""
    sim.button(f"Step worker {name}").click()
    expect(sim.root).to_have_js_property("drawn", drawn, timeout=60_000)


def picture_agrees_with_the_text(sim):
    """The picture and the words (the jobs table, the worker cards) say the same; returns the picture."""
    seen = sim.root.evaluate(PICTURE)
    assert [row["id"] for row in seen["rows"]] == [cells[0] for cells in seen["table"]]
    for row, cells in zip(seen["rows"], seen["table"]):
        assert row["status"] == cells[2], (row, cells)
        assert row["emails"] == int(cells[5]), (row, cells)
        said = "; ".join(f"{worker} {'looked at' if hold == 'looked' else 'took'} it" for worker, hold in row["marks"])
        assert (said or "—") == cells[6], (row, cells)
    for worker, words in seen["cards"]:
        where = [index for index, names in enumerate(seen["arrows"]) if worker in names]
        if words == "Has run nothing yet":
            assert where == [], (worker, seen["arrows"])
        else:
            assert where == [int(words.rsplit(" ", 1)[1]) - 1], (worker, words, seen["arrows"])
    return seen


def test_the_picture_and_the_tables_agree_at_every_step_of_the_chapters_story(sim):
    """Chapter 4: A looks, B looks (row 1 turns amber), A grabs, B grabs (red), both send..."""
    sim.start()
    if sim.field("Claim").input_value() != "naive":
        sim.field("Claim").select_option("naive")
        expect(sim.part("log")).to_contain_text("Claim is now Naive", timeout=60_000)
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 statements", timeout=60_000)
    sim.root.evaluate(COUNT_SNAPSHOTS)
    amber = sim.root.evaluate(TOKEN, "--race-looked-bg")
    red = sim.root.evaluate(TOKEN, "--race-taken-bg")
    expected_flags = ["", None, "looked-twice", "looked-twice", "taken-twice"]   # row 1, after each step
    picture_agrees_with_the_text(sim)
    order, drawn = ["A", "B"], 0
    for move in range(1, 40):
        name = order[(move - 1) % 2]
        if sim.button(f"Step worker {name}").is_disabled():
            name = order[move % 2]
            if sim.button(f"Step worker {name}").is_disabled():
                break
        drawn += 1
        step(sim, name, drawn)
        expect(sim.part("time")).to_have_text(f"{move} statement{'s' if move > 1 else ''}")
        seen = picture_agrees_with_the_text(sim)
        row = seen["rows"][0]
        if move < len(expected_flags):
            assert row["flag"] == expected_flags[move], (move, row)
        if move == 1:
            assert row["marks"] == [["A", "looked"]] and seen["arrows"][0] == ["A"]
        if move == 2:
            assert row["marks"] == [["A", "looked"], ["B", "looked"]] and row["background"] == amber
        if move == 3:
            assert row["marks"] == [["A", "took"], ["B", "looked"]] and seen["arrows"][1] == ["A"]
        if move == 4:
            assert row["marks"] == [["A", "took"], ["B", "took"]] and row["background"] == red
        if move == 6:
            assert row["emails"] == 2
    assert sim.button("Step worker A").is_disabled() and sim.button("Step worker B").is_disabled()
    final = picture_agrees_with_the_text(sim)
    # Strictly taking turns, they race for job 2 as well; the flags stay once the jobs are done.
    assert [row["flag"] for row in final["rows"]] == ["taken-twice", "taken-twice"]
    assert [row["background"] for row in final["rows"]] == [red, red]
    assert [row["emails"] for row in final["rows"]] == [2, 2]
    expect(sim.part("time")).to_have_text("18 statements")
    expect(sim.part("outcome")).to_have_text("ada@example.com got 2 emails (from A and B); "
                                             "alan@example.com got 2 emails (from A and B).")


def test_the_workers_field_refuses_eleven_next_to_it_and_three_gives_three_workers(sim):
    sim.start()
    field = sim.field("Workers")
    field.fill("11")
    field.press("Enter")
    error = sim.root.locator('[data-field="workers"] .sim-field-error')
    expect(error).to_have_text("Workers: must be from 2 to 10, got 11", timeout=60_000)
    expect(sim.root.locator(".race-worker")).to_have_count(2)           # the run goes on as it was
    field.fill("3")
    field.press("Enter")
    expect(sim.root.locator(".race-worker")).to_have_count(3, timeout=60_000)
    expect(error).to_have_text("")
    sim.root.evaluate(COUNT_SNAPSHOTS)
    for drawn, name in enumerate(("C", "A", "B"), start=1):             # all three look at job 1
        step(sim, name, drawn)
    seen = picture_agrees_with_the_text(sim)
    assert seen["rows"][0]["marks"] == [["A", "looked"], ["B", "looked"], ["C", "looked"]]
    assert seen["rows"][0]["flag"] == "looked-twice" and seen["arrows"][0] == ["A", "B", "C"]
    expect(sim.root.locator(".race-row-flag").first).to_have_text("C, A and B all saw job 1 queued")   # in the order they looked
    field.fill("2")
    field.press("Enter")
    expect(sim.root.locator(".race-worker")).to_have_count(2, timeout=60_000)
    expect(sim.button("Step worker C")).to_have_count(0)


# --- what the glance trial's reader misread (the glance trial's shots 09, 10 and 18) ---

MARKS = """root => ({
  legend: [...root.querySelectorAll('.race-legend .race-mark')].map((m) => ({ mark: m.dataset.mark || null,
    background: getComputedStyle(m).backgroundColor, border: getComputedStyle(m).borderTopStyle })),
  drawn: [...root.querySelectorAll('.race-row .race-mark')].map((m) => ({ mark: m.dataset.mark || null,
    background: getComputedStyle(m).backgroundColor, border: getComputedStyle(m).borderTopStyle })),
})"""




def step_to(sim, name, statements):
    """Press "Step worker <name>" and wait until the clock says `statements` (its snapshot drawn)."""
    sim.button(f"Step worker {name}").click()
    expect(sim.part("time")).to_have_text(f"{statements} statement{'s' if statements > 1 else ''}", timeout=60_000)


def test_every_mark_the_rows_draw_is_drawn_the_same_in_the_legend(sim):
    """Shot 09: the marks were red on a row both took, the legend's "took it" dark. Each mark the
    rows draw, as A and B look, grab and send, looks exactly like its kind in the legend."""
    sim.start()
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 statements", timeout=60_000)
    kinds = set()
    for statements, name in enumerate("ABAB", start=1):
        step_to(sim, name, statements)
        seen = sim.root.evaluate(MARKS)
        legend = {item["mark"]: item for item in seen["legend"]}
        for mark in seen["drawn"]:
            assert mark["mark"] in legend, (mark, seen["legend"])
            assert mark == legend[mark["mark"]], (mark, legend[mark["mark"]])
            kinds.add(mark["mark"])
    assert kinds == {"looked", "took", "took-twice"}


def test_the_row_says_the_email_went_out_twice_with_its_envelopes_beside_the_marks(sim):
    """Shot 10: two small envelopes at the row's far right, and the words "both took job 1" only."""
    sim.button("Reset").click()
    expect(sim.part("time")).to_have_text("0 statements", timeout=60_000)
    for statements, name in enumerate("ABABAB", start=1):   # both look, both grab, both send
        step_to(sim, name, statements)
    row = sim.root.locator('.race-row[data-key="1"]')
    expect(row.locator(".race-row-flag")).to_have_text("A and B both took job 1: ada got the welcome email twice")
    envelopes = row.locator(".race-email")
    expect(envelopes).to_have_count(2)
    last_mark = row.locator(".race-mark").last.bounding_box()
    first = envelopes.first.bounding_box()
    assert first["width"] >= 20, first
    assert 0 <= first["x"] - (last_mark["x"] + last_mark["width"]) <= 16, (first, last_mark)


def test_in_the_dark_theme_looked_and_took_differ_by_shape_andcontrast(sim):
    """Shot 18: in the dark theme the legend's "looked at it" and "took it" looked the same. The
    one is a dashed ring with nothing in it, the other a disc filled 3:1 or more against the
    picture."""
    sim.page.emulate_media(color_scheme="dark")
    try:
        seen = {item["mark"]: item for item in sim.root.evaluate(MARKS)["legend"]}
        around = rgb(sim.root.locator(".race-picture").evaluate("(n) => getComputedStyle(n).backgroundColor"))
        looked, took = seen["looked"], seen["took"]
        assert looked["border"] == "dashed" and took["border"] == "solid", (looked, took)
        assert looked["background"] == "rgba(0, 0, 0, 0)", looked
        assert contrast(rgb(took["background"]), around) >= 3, (took, around)
        assert contrast(rgb(seen["took-twice"]["background"]), around) >= 3, (seen, around)
    finally:
        sim.page.emulate_media(color_scheme="light")
