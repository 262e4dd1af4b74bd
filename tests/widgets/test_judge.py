"""The judge widget in chapter 8 (the charge handler), through the editor as a reader uses it: real
Pyodide, real Chromium, the page's one worker. The flawed start fails with its story, a fix typed
into the editor passes on several seeds, a syntax error is shown at its line, Escape then Tab
leaves the editor, an endless loop is stopped by ending the reader's own worker while the page's
other widgets carry on untouched, and axe finds nothing."""

import pytest
from playwright.sync_api import expect

from tests.quality.axe import axe_violations
from tests.widgets.conftest import Sim, new_watched_page

CHAPTER = "10-idempotency.html"
JUDGE = "sim-charge-handler"
LONG = 90_000   # ms: a loaded 2-core machine runs Pyodide slowly


@pytest.fixture(scope="module")
def judge(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    sim = Sim(module_page, id=JUDGE)
    sim.start()
    expect(sim.root.locator(".cm-content")).to_be_visible(timeout=LONG)
    return sim


# Typing over a selection of several lines lets Chromium's own editing replace it, which adds
# style attributes that the page's CSP refuses (and logs; CodeMirror redraws the lines anyway).
# Deleting the selection first goes through CodeMirror's own command: no such report.


def editor(sim):
    return sim.root.locator(".cm-content")


def run(sim, seed):
    sim.field("Seed").fill(str(seed))
    sim.button("Run").click()
    expect(sim.part("result")).not_to_contain_text("Running your code", timeout=LONG)
    expect(sim.button("Run")).to_be_enabled(timeout=LONG)


def test_without_javascript_the_start_and_the_fixs_audit_are_shown(browser, real_site):
    context, page, watch = new_watched_page(browser, real_site, java_script_enabled=False)
    page.goto(real_site.at(CHAPTER))
    root = page.locator(f"#{JUDGE}")
    expect(root.locator("pre code")).to_contain_text('key = f"order-{job.args[\'order\']}-{uuid.uuid4()}"')
    expect(root.locator(".judge-prejudged .judge-verdict")).to_contain_text("The chapter’s fix, judged when this page was built (seed 3): passed")
    expect(root.locator("table tbody tr")).to_have_count(10)
    context.close()
    watch.check()


def test_the_flawed_start_fails_and_tells_the_first_failures_story(judge):
    run(judge, 3)
    result = judge.part("result")
    expect(result.locator(".judge-verdict")).to_have_text("Failed the audit on seed 3: 4 problems.")
    expect(result).to_contain_text("order 6 was charged 2 times ($10 extra)")
    expect(result).to_contain_text("The story of the first failure")
    expect(result.locator("ol li").first).to_contain_text("worker")
    expect(result.locator("tr.sim-bad")).to_have_count(3)


def test_a_fix_typed_into_the_editor_passes_on_several_seeds(judge, module_page):
    editor(judge).click()
    module_page.keyboard.press("Control+a")
    module_page.keyboard.press("Delete")   # the editor's own command (see the note above editor())
    # Typed as a reader types it: the editor indents the lines after `def ...:` itself.
    module_page.keyboard.type('@queue.handler("charge")\ndef charge(job):\n'
                              'key = f"order-{job.args[\'order\']}"\n'
                              'bank.charge("alice", job.args["amount"], idempotency_key=key)\n')
    expect(judge.part("edited")).to_have_text(" (edited)")
    expect(editor(judge).locator(".cm-line").nth(2)).to_have_text("    key = f\"order-{job.args['order']}\"")
    for seed in (0, 3, 4, 7, 11, 20, 99):
        run(judge, seed)
        expect(judge.part("result").locator(".judge-verdict")).to_have_text(f"Passed the audit on seed {seed}.")


def test_a_syntax_error_is_shown_at_its_line(judge, module_page):
    judge.button("Reset to the starting code").click()
    expect(judge.part("edited")).to_have_text("")
    editor(judge).click()
    module_page.keyboard.press("Control+End")
    module_page.keyboard.type("def broken(:")
    run(judge, 3)
    expect(judge.part("reader-error")).to_contain_text("Line 7 (def broken(:): Python cannot read this line")
    expect(judge.root.locator(".judge-error-line")).to_have_count(1)
    expect(judge.root.locator(".judge-error-line")).to_contain_text("def broken(:")


def test_escape_then_tab_leaves_the_editor(judge, module_page):
    editor(judge).click()
    module_page.keyboard.press("Tab")            # indents: the focus stays in the editor
    assert module_page.evaluate("() => document.activeElement.classList.contains('cm-content')")
    module_page.keyboard.press("Escape")
    module_page.keyboard.press("Tab")
    expect(judge.button("Run")).to_be_focused()


def test_an_endless_loop_is_stopped_and_every_widget_still_works(judge, module_page):
    payments = Sim(module_page, "payments").start()
    # Count the snapshots drawn (drawing.js says each one): read the time only once all three
    # steps are drawn, not after the first (CI once read 0.5 s while the third step was on its way).
    payments.root.evaluate("root => { root.drawn = 0; root.addEventListener('sim-snapshot', () => { root.drawn += 1; }); }")
    for _ in range(3):
        payments.button("Step").click()
    module_page.wait_for_function("root => root.drawn >= 3", arg=payments.root.element_handle(), timeout=LONG)
    expect(payments.part("time")).not_to_have_text("0 s", timeout=LONG)
    before = payments.part("time").inner_text(), payments.part("log").inner_text()
    state = payments.state

    judge.root.scroll_into_view_if_needed()
    judge.button("Reset to the starting code").click()
    editor(judge).click()
    module_page.keyboard.press("Control+a")
    module_page.keyboard.press("Delete")
    module_page.keyboard.type("total = sum(range(10**12))\n")
    judge.button("Run").click()
    expect(judge.part("result")).to_contain_text("ran for more than 8 s without finishing", timeout=LONG)
    expect(judge.part("result")).to_contain_text("The other simulations on this page were not touched")
    judge.wait("ready", timeout=LONG)
    # Only the reader's own worker was ended: the payments widget was never stopped or rebuilt.
    expect(payments.part("message")).to_have_text("")
    assert payments.state == state
    assert (payments.part("time").inner_text(), payments.part("log").inner_text()) == before
    payments.button("Step").click()
    expect(payments.part("time")).not_to_have_text(before[0], timeout=LONG)

    judge.button("Show the chapter’s fix").click()
    run(judge, 5)
    expect(judge.part("result").locator(".judge-verdict")).to_have_text("Passed the audit on seed 5.")


def test_a_link_carries_the_code_and_its_seed_and_runs_nothing_until_run(judge, module_page, browser, real_site):
    judge.root.scroll_into_view_if_needed()
    judge.button("Show the chapter’s fix").click()
    judge.field("Seed").fill("5")
    judge.button("Copy link to this code").click()
    expect(judge.part("link-status")).to_contain_text("it carries your code and seed 5")
    link = module_page.url
    assert f"{JUDGE}.code=" in link and f"{JUDGE}.seed=5" in link
    fixed = judge.part("fixed-code").evaluate("template => template.content.textContent")

    context, page, watch = new_watched_page(browser, real_site)
    page.goto(real_site.at(CHAPTER) + f"?{JUDGE}.code=not*base64")          # damaged: refused in words
    broken = Sim(page, id=JUDGE).start()
    expect(broken.part("message")).to_contain_text("could not be used: its code is not in the form", timeout=LONG)
    expect(broken.part("edited")).to_have_text("")

    page.goto(link)                     # its #sim-charge-handler scrolls there: the widget starts itself
    again = Sim(page, id=JUDGE)
    again.root.scroll_into_view_if_needed()
    expect(editor(again)).to_be_visible(timeout=LONG)
    expect(again.part("link-status")).to_have_text("This code came from a link. Nothing has run: press Run to judge it.")
    shown = editor(again).evaluate("content => Array.from(content.querySelectorAll('.cm-line'), (line) => line.textContent).join('\\n')")
    assert shown.rstrip("\n") == fixed.rstrip("\n")
    expect(again.field("Seed")).to_have_value("5")
    expect(again.part("edited")).to_have_text(" (edited)")
    again.wait("ready", timeout=LONG)
    expect(again.part("result")).to_contain_text("judged when this page was built")    # nothing ran
    run(again, 5)
    expect(again.part("result").locator(".judge-verdict")).to_have_text("Passed the audit on seed 5.")
    context.close()
    watch.check()


def test_axe_finds_nothing_on_the_chapter(judge, module_page):
    judge.root.scroll_into_view_if_needed()
    assert axe_violations(module_page) == []
