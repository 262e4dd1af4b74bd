"""payments' picture in chapter 8, in real Chromium with real Pyodide: step by step through the
chapter's two runs (five charges against Alice's $100, a stable key and a new key each attempt),
the picture (a row of attempt squares per charge, coins in Alice's wallet and at the bank) says
exactly what the jobs table and the ledger say; and money is written one way."""
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from simulations.payments.picture import ATTEMPT_WORDS
from tests.support.pixels import pixel
from tests.widgets.conftest import Sim
from tests.support.colours import contrast, rgb

CHAPTER = "10-idempotency.html"
LONG = 90_000   # ms: a 2-core CI machine under load

READ = """root => {
  const rows = [...root.querySelectorAll('[data-part="charges"] .pay-charge')].map((row) => ({
    order: row.dataset.order, status: row.dataset.status,
    tries: [...row.querySelectorAll('.pay-try')].map((t) => [t.dataset.code, t.dataset.reply, t.textContent]),
  }));
  const table = [...root.querySelectorAll('tbody[data-part="jobs"] tr')].map((tr) => {
    const cells = [...tr.querySelectorAll('th, td')].map((c) => c.textContent);
    return { order: cells[1], status: cells[2], attempts: cells[3], charged: cells[4], tries: cells[6] };
  });
  return {
    rows, table,
    wallet: root.querySelectorAll('[data-part="wallet"] .pay-coin').length,
    taken: root.querySelectorAll('[data-part="taken"] .pay-coin').length,
    red: root.querySelectorAll('[data-part="taken"] .pay-coin.pay-dup').length,
    actual: root.querySelector('[data-fig="actual"]').textContent,
    expected: root.querySelector('[data-fig="expected"]').textContent,
    duplicates: root.querySelector('[data-fig="duplicate_charges"]').textContent,
    drawn: root.drawn || 0,
  };
}"""


def words(code, reply, key):
    said = ATTEMPT_WORDS[code].split(":")[0]
    return said + (", reply lost" if reply == "lost" else "") + (" (no key)" if key == "none" else f" (key {key})")


def dollars(text):
    """"$50" -> 50, "−$20" -> -20 (the only way the widget writes money)."""
    match = re.fullmatch(r"(\u2212?)\$(\d+)", text)
    assert match, f"money written as {text!r}"
    return -int(match.group(2)) if match.group(1) else int(match.group(2))


def check_agreement(seen):
    assert [row["order"] for row in seen["rows"]] == [row["order"] for row in seen["table"]]
    for row, line in zip(seen["rows"], seen["table"]):
        assert row["status"] == line["status"]
        assert len(row["tries"]) == int(line["attempts"])
        said = "; ".join(words(code, reply, key) for code, reply, key in row["tries"]) or "none yet"
        assert said == line["tries"], (row, line)
        charged = sum(code in ("charged", "duplicate") for code, _, _ in row["tries"])
        assert charged == int(line["charged"])
    actual = dollars(seen["actual"])
    assert seen["wallet"] == max(0, actual) // 10
    assert seen["taken"] == (100 - actual) // 10
    assert seen["red"] == int(seen["duplicates"])


@pytest.fixture(scope="module")
def page(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    return module_page


@pytest.mark.parametrize("embed, end", [("sim-stable-key", 50), ("sim-key-per-attempt", 20)])
def test_picture_and_table_agree_at_every_step_of_chapter_8s_story(page, embed, end):
    sim = Sim(page, id=embed).start()
    sim.root.evaluate("root => { root.drawn = 0; root.addEventListener('sim-snapshot', () => { root.drawn += 1; }); }")
    check_agreement(sim.root.evaluate(READ))   # the starting state, as the build drew it
    steps = 0
    while not sim.button("Play again").is_visible():
        sim.button("Step").click()
        steps += 1
        page.wait_for_function("([root, n]) => root.drawn >= n", arg=[sim.root.element_handle(), steps],
                               timeout=LONG)
        check_agreement(sim.root.evaluate(READ))
        assert steps < 60, "chapter 8's story should end within 60 attempts"
    seen = sim.root.evaluate(READ)
    assert dollars(seen["actual"]) == end >= 0        # five charges: Alice is never overdrawn
    assert dollars(seen["expected"]) == 50
    assert (seen["red"] > 0) == (embed == "sim-key-per-attempt")
    # The key each square sent: one key per order (k1 on every attempt), or a new one each time.
    for row in seen["rows"]:
        keys = [key for _, _, key in row["tries"]]
        assert keys == (["k1"] * len(keys) if embed == "sim-stable-key"
                        else [f"k{n}" for n in range(1, len(keys) + 1)]), row
    assert any(len(row["tries"]) > 1 for row in seen["rows"])


def test_an_overdrawn_balance_is_written_with_a_minus_sign_everywhere(page):
    sim = Sim(page, id="sim-key-per-attempt").start()
    field = sim.field("Charges of $10")
    field.fill("20")
    field.press("Enter")
    sim.button("Run to the end").click()
    expect(sim.button("Play again")).to_be_visible(timeout=LONG)
    expect(sim.root.locator('[data-fig="actual"]')).to_have_text(re.compile("^\u2212\\$\\d+$"), timeout=LONG)
    owed = -dollars(sim.root.locator('[data-fig="actual"]').inner_text())
    assert owed > 0
    expect(sim.part("overdrawn")).to_have_text(f"Overdrawn by ${owed}")
    expect(sim.part("outcome")).to_contain_text(f"overdrawn by ${owed}")
    expect(sim.part("wallet").locator(".pay-coin")).to_have_count(0)
    text = sim.root.evaluate("root => root.textContent")
    assert "$-" not in text and "-$" not in text
    sim.button("Use the chapter’s settings").click()


def test_no_key_is_labelled_none_under_every_square(page):
    sim = Sim(page, id="sim-key-per-attempt").start()
    sim.field("Idempotency key").select_option("none")
    sim.button("Run to the end").click()
    expect(sim.button("Play again")).to_be_visible(timeout=LONG)
    seen = sim.root.evaluate(READ)
    check_agreement(seen)
    assert {key for row in seen["rows"] for _, _, key in row["tries"]} == {"none"}
    square = sim.part("charges").locator(".pay-try").first
    expect(square).to_have_attribute("title", "sent with no idempotency key")
    assert square.locator(".pay-key").is_visible()
    sim.button("Use the chapter’s settings").click()




@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_reply_lost_corner_stands_out_on_every_fill(page, scheme):
    """The mark of a lost reply, in the square's top right corner, contrasts at least 3:1 (WCAG's
    minimum for a graphic) with the square's fill and with the picture around it, on a red
    duplicate as on any other square; the squares so marked are the snapshot's lost replies."""
    page.emulate_media(color_scheme=scheme)
    try:
        sim = Sim(page, id="sim-key-per-attempt").start()
        if not sim.button("Play again").is_visible():
            sim.button("Run to the end").click()
            expect(sim.button("Play again")).to_be_visible(timeout=LONG)
        seen = sim.root.evaluate(READ)
        check_agreement(seen)   # the marked squares are the table's "reply lost"
        marked = sim.part("charges").locator('.pay-try[data-reply="lost"]')
        codes = set(marked.evaluate_all("(ts) => ts.map((t) => t.dataset.code)"))
        assert "duplicate" in codes and len(codes) > 1, codes
        around = rgb(sim.root.locator(".pay-picture").evaluate("(n) => getComputedStyle(n).backgroundColor"))
        for i in range(marked.count()):
            square = marked.nth(i)
            square.scroll_into_view_if_needed()
            box = square.bounding_box()
            fill = rgb(square.evaluate("(n) => getComputedStyle(n).backgroundColor"))
            corner = pixel(page, box["x"] + box["width"] - 2, box["y"] + 2)
            code = square.get_attribute("data-code")
            assert contrast(corner, fill) >= 3, (scheme, code, corner, fill)
            assert contrast(corner, around) >= 3, (scheme, code, corner, around)
    finally:
        page.emulate_media(color_scheme="light")


def test_the_built_pages_and_the_widgets_never_write_dollar_minus(real_site):
    site = Path(real_site.folder)
    for name in ("08-retry.html", "10-idempotency.html", "19-casebook.html"):
        html = (site / name).read_text(encoding="utf-8")
        assert "$-" not in html and "-$" not in html, name
    for script in (site / "assets" / "js").rglob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert "function dollars" not in text, f"{script.name} formats money itself"


# --- what the glance trial's reader could not read (shots 14-16 and 20) ---

def test_the_drawing_says_what_the_corner_and_the_keys_mean(page):
    """Shots 14-16: the marked corner and "k1" under every square (k1...k6 in the other run) were
    not explained in the drawing itself. Its own key says both, in the run's key mode's words."""
    for embed, words in (("sim-stable-key", "one key per charge: every attempt at an order sends k1 again"),
                         ("sim-key-per-attempt", "a new key each attempt (k1, k2, k3…)")):
        sim = Sim(page, id=embed).start()
        drawing = sim.root.locator(".pay-drawing")
        expect(drawing.locator('[data-part="key-words"]')).to_contain_text(words)
        expect(drawing).to_contain_text("Under each square, the idempotency key it sent:")
        expect(drawing).to_contain_text("A marked corner: the bank acted, but its reply was lost.")
        corner = drawing.locator('[data-part="marks-key"] .pay-try[data-reply="lost"]')
        expect(corner).to_be_visible()
    sim.field("Idempotency key").select_option("stable")
    expect(drawing.locator('[data-part="key-words"]')).to_contain_text("one key per charge", timeout=LONG)
    sim.button("Use the chapter’s settings").click()
    expect(drawing.locator('[data-part="key-words"]')).to_contain_text("a new key each attempt", timeout=LONG)


def test_on_a_phone_a_charge_s_attempts_share_one_line(page):
    """Shot 20: at 390 px order 4's sixth attempt wrapped onto a line of its own, detached from
    the row's order. Every row's attempts stay on one line, in the row."""
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        sim = Sim(page, id="sim-key-per-attempt").start()
        if not sim.button("Play again").is_visible():
            sim.button("Run to the end").click()
            expect(sim.button("Play again")).to_be_visible(timeout=LONG)
        rows = sim.part("charges").locator(".pay-charge")
        longest = 0
        for i in range(rows.count()):
            row = rows.nth(i)
            row.scroll_into_view_if_needed()
            box = row.bounding_box()
            tries = [t.bounding_box() for t in row.locator(".pay-try").all()]
            longest = max(longest, len(tries))
            # one line: every square overlaps every other vertically (squares of two sizes,
            # centred on the line, have tops a pixel or two apart)
            if tries:
                assert max(t["y"] for t in tries) < min(t["y"] + t["height"] for t in tries), (i, tries)
            assert all(box["x"] <= t["x"] and t["x"] + t["width"] <= box["x"] + box["width"] for t in tries), (i, box, tries)
        assert longest >= 6   # the chapter's story has a charge tried six times
    finally:
        page.set_viewport_size(size)


# A coin's edge, and the tag drawn on it (its ::after): the words and their colours.
COIN = """coin => {
  const style = getComputedStyle(coin), tag = getComputedStyle(coin, '::after');
  return { edge: style.borderTopStyle, tag: tag.content, tag_colour: tag.color, tag_fill: tag.backgroundColor };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_duplicate_coin_differs_from_a_coin_taken_once_without_its_colour(page, scheme):
    """Glance trial, dark mode: a coin the bank took twice differed from one it took once by tone
    only. It has a double edge and a ×2 tag too, the tag's words readable (4.5:1)."""
    page.emulate_media(color_scheme=scheme)
    try:
        sim = Sim(page, id="sim-key-per-attempt").start()
        if not sim.button("Play again").is_visible():
            sim.button("Run to the end").click()
            expect(sim.button("Play again")).to_be_visible(timeout=LONG)
        taken = sim.part("taken")
        once, twice = taken.locator(".pay-coin:not(.pay-dup)").first, taken.locator(".pay-coin.pay-dup").first
        plain, dup = once.evaluate(COIN), twice.evaluate(COIN)
        assert plain["edge"] == "solid" and dup["edge"] == "double", (plain, dup)
        assert plain["tag"] in ("none", "normal") and "×2" in dup["tag"], (plain, dup)
        assert contrast(rgb(dup["tag_colour"]), rgb(dup["tag_fill"])) >= 4.5, (scheme, dup)
        # Glance trial 3: "×2" on each of order 4's three coins read as "charged twice". Each tag
        # says which charge of its order the coin is: order 4's last coin is its 3rd.
        third = taken.locator(".pay-coin.pay-dup", has_text="4").last
        assert "×3" in third.evaluate(COIN)["tag"], third.evaluate(COIN)
    finally:
        page.emulate_media(color_scheme="light")

