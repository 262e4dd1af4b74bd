"""How the widgets read: no axe-core violation idle or ready, in the light and the dark theme;
readable colours in both themes (WCAG AA); reduced motion honoured; nothing wider than a phone."""
import re

import pytest
from playwright.sync_api import expect

from tests.build.test_theme import DARK, LIGHT, contrast
from tests.conftest import ROOT
from tests.widgets.conftest import Sim, new_watched_page

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGES = {"04-the-worker.html": ("live-queue", "race"), "05-leases.html": ("live-queue", "crash-timing"),
         "08-retry.html": ("payments",)}
PHONE = {"width": 390, "height": 844}

# (text, background) token pairs the widgets put together; text must reach 4.5:1.
SIM_TEXT = [(f"sim-{state}-text", f"sim-{state}-bg") for state in ("queued", "running", "done", "dead", "idle")]
SIM_TEXT += [(f"sim-{state}-text", "bg") for state in ("queued", "running", "done", "dead", "idle")]
SIM_TEXT += [("sim-good", "bg"), ("sim-good", "surface"), ("sim-bad", "bg"), ("sim-bad", "surface"),
             ("text", "sim-dead-bg"), ("text", "sim-running-bg"), ("text-muted", "code-bg"), ("link", "surface")]
# Lines and bars beside what they sit on: 3:1 (https://www.w3.org/TR/WCAG21/#non-text-contrast).
SIM_GRAPHICS = [("sim-lease", "sim-track"), ("sim-lease-low", "sim-track"), ("accent", "bg"), ("sim-line-2", "bg"),
                ("sim-lease", "bg")]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("foreground, background", SIM_TEXT)
def test_widget_text_colours_reach_aa(theme, foreground, background):
    tokens = LIGHT if theme == "light" else DARK
    ratio = contrast(tokens[foreground], tokens[background])
    assert ratio >= 4.5, f"{theme}: --{foreground} on --{background} is {ratio:.2f}:1"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("foreground, background", SIM_GRAPHICS)
def test_widget_lines_and_bars_reach_3_to_1(theme, foreground, background):
    tokens = LIGHT if theme == "light" else DARK
    ratio = contrast(tokens[foreground], tokens[background])
    assert ratio >= 3, f"{theme}: --{foreground} on --{background} is {ratio:.2f}:1"


def axe_violations(page, selector, rules=None):
    """axe-core's violations inside `selector`: WCAG 2.1 A and AA and best practices, or `rules`."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    run_only = {"type": "rule", "values": rules} if rules else ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
    return page.evaluate("""async ([selector, runOnly]) => {
        const result = await axe.run({ include: [[selector]] }, { runOnly });
        return result.violations.map(v => `${v.id}: ${v.help} (${v.nodes.map(n => n.target.join(" ")).join(", ")})`);
    }""", [selector, run_only])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violations_idle_and_ready(browser, real_site, scheme):
    # axe is injected as a script, which the pages' CSP would refuse: this context bypasses it.
    context, page, watch = new_watched_page(browser, real_site, bypass_csp=True, color_scheme=scheme)
    for name, sims in PAGES.items():
        page.goto(real_site.at(name))
        found = {}
        ids = [root.get_attribute("id") for root in page.locator('.sim[data-sim]:not([data-sim="judge"])').all()]   # judge: tests/widgets/test_judge.py
        for sim_id in ids:
            found[f"{name} #{sim_id} idle"] = axe_violations(page, f"#{sim_id}")
        for sim_id in ids:
            sim = Sim(page, id=sim_id).start()
            sim.button("Step").click()
            found[f"{name} #{sim_id} ready"] = axe_violations(page, f"#{sim_id}")
        # What only shows across widgets: two landmarks with one name, a label naming a missing id.
        found[f"{name} whole page"] = axe_violations(page, "html", ["landmark-unique", "aria-valid-attr-value"])
        assert {key: value for key, value in found.items() if value} == {}
    context.close()
    watch.check()


SHIFTS = """(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts.push(entry.value);
  }).observe({ type: "layout-shift", buffered: true });
})();"""


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, PHONE])
def test_nothing_moves_when_python_arrives(browser, real_site, viewport):
    """Scrolled into view, each widget goes idle -> loading -> ready without moving the page
    (Layout Instability API: https://wicg.github.io/layout-instability/)."""
    context, page, watch = new_watched_page(browser, real_site, viewport=viewport)
    context.add_init_script(SHIFTS)
    for name, sims in PAGES.items():
        page.goto(real_site.at(name))
        for sim_name in sims:
            for root in page.locator(f'.sim[data-sim="{sim_name}"]').all():
                root.scroll_into_view_if_needed()
                Sim(page, id=root.get_attribute("id")).wait("ready")
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.__shifts") == [], name
    context.close()
    watch.check()


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, PHONE])
def test_the_judge_moves_nothing_when_its_editor_arrives(browser, real_site, viewport):
    """Chapter 4's judge: the starting code is laid out as the editor that replaces it lays it out
    (line height, gutter, wrapped long lines), so neither the editor nor the deck below it moves
    (the deck used to move 22 px when the editor's wrapped line and last empty line arrived)."""
    context, page, watch = new_watched_page(browser, real_site, viewport=viewport)
    context.add_init_script(SHIFTS)
    page.goto(real_site.at("04-the-worker.html"))
    editor = page.locator("#sim-claim-sql .judge-editor")
    before = editor.bounding_box()["height"]
    editor.scroll_into_view_if_needed()
    Sim(page, id="sim-claim-sql").wait("ready")
    expect(editor.locator(".cm-editor")).to_be_visible(timeout=60_000)
    page.wait_for_timeout(300)
    assert abs(editor.bounding_box()["height"] - before) < 0.5
    assert page.evaluate("() => window.__shifts") == []
    context.close()
    watch.check()


def test_reduced_motion_is_honoured(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, reduced_motion="reduce")
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, "live-queue").start()
    fill = sim.root.locator(".lq-lease-fill").first
    assert fill.evaluate("node => getComputedStyle(node).transitionDuration") == "0s"
    page.goto(real_site.at("10-idempotency.html"))
    pay = Sim(page, "payments").start()                    # 5 charges
    pay.button("Run to the end").click()
    expect(pay.button("Play again")).to_be_visible(timeout=30_000)
    expect(pay.part("ledger")).to_have_attribute("data-verdict", re.compile("^(exact|dead)$"))   # a stable key: no overcharge
    # The picture's new attempts and coins simply appear: no entrance animation.
    arrived = pay.root.locator('[data-part="charges"] .pay-try.pay-new').first
    assert arrived.evaluate("node => getComputedStyle(node).animationName") == "none"
    context.close()
    watch.check()


def test_the_dark_theme_colours_the_states(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, color_scheme="dark")
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, "live-queue")
    chip = sim.root.locator(".status-queued").first
    colours = chip.evaluate("n => [getComputedStyle(n).color, getComputedStyle(n).backgroundColor]")
    assert colours == ["rgb(185, 207, 242)", "rgb(30, 44, 66)"]    # --sim-queued-text/-bg, dark
    context.close()
    watch.check()


def test_nothing_is_wider_than_a_phone(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, viewport=PHONE)
    for name, sims in PAGES.items():
        page.goto(real_site.at(name))
        for sim_name in sims:
            sim = Sim(page, sim_name).start()
            sim.button("Step").click()
            for control in sim.root.locator("button:visible, select:visible, input:visible").all():
                box = control.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], control.evaluate("n => n.outerHTML")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    context.close()
    watch.check()
