"""crash-timing shows the controls its chapter has taught (the embed's `level:`,
decided in Python: simulations/crash_timing/levels.py). Chapter 5's first embed has no Fencing token box,
no Token column, no Scenario menu and one policy, before Python and after, and its log says no
"token N"; a link
that sets a hidden setting still replays it; chapter 8's embed offers the four policies it has
taught and both scenarios, and the menu's choices work there. A link that sets the level shows
what Python allows at that level (the snapshot's `shown`), and the chapter's settings bring the
chapter's form back."""
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

RUN = 90_000   # ms: a run to its end on a loaded 2-core machine
SHOWN = "(select) => [...select.options].filter((o) => !o.hidden && !o.disabled).map((o) => o.value)"


def visible_choices(sim, label):
    return sim.field(label).evaluate(SHOWN)


def assert_only_the_crash_is_taught(sim):
    # A field kept back is hidden (not drawn, so neither reached nor heard): none with its role
    expect(sim.root.get_by_role("checkbox", name="Fencing token")).to_have_count(0)
    expect(sim.root.get_by_label("Fencing token", exact=True)).to_be_hidden()
    expect(sim.root.get_by_role("columnheader", name="Token")).to_have_count(0)   # the job table's
    expect(sim.row(1).locator("td")).to_have_count(3)   # no token cell: status, attempts, lease left
    expect(sim.root.get_by_role("combobox", name="Scenario", exact=True)).to_have_count(0)
    for label in ("Emails in the job", "Enqueue", "Fault", "Auto-commit interval (s)"):
        expect(sim.root.get_by_label(label, exact=True)).to_be_hidden()
    assert visible_choices(sim, "Policy") == ["ack-after-work"]
    # the untaught policies can be neither reached nor heard: hidden and disabled
    assert sim.field("Policy").evaluate("(s) => [...s.options].filter((o) => !o.hidden).length") == 1


def test_chapter_5_shows_the_crash_points_before_the_fencing_token(module_page, real_site):
    page = module_page
    page.goto(real_site.at("05-leases.html"))
    sim = Sim(page, id="sim-crash-points")
    sim.open_folds()                                         # its settings and table, as a reader opens them
    assert_only_the_crash_is_taught(sim)                     # as built, before Python
    slow = Sim(page, id="sim-lease-too-short")               # the fencing token is taught just above it
    slow.open_folds()
    expect(slow.root.get_by_label("Fencing token", exact=True)).to_have_count(1)
    expect(slow.root.get_by_role("columnheader", name="Token")).to_be_visible()
    assert visible_choices(slow, "Scenario") == ["crash", "lease-too-short"]
    sim.start()
    sim.button("Run to the end").click()
    expect(sim.part("verdict")).to_have_text("Exactly once", timeout=RUN)
    assert "A claims the job (attempt 1, lease until 5 s)" in sim.log()
    assert "token" not in sim.log()
    assert_only_the_crash_is_taught(sim)                     # and once Python has drawn it


def test_a_link_that_sets_a_hidden_setting_still_replays_it(module_page, real_site):
    page = module_page
    key = "sim-crash-points."
    page.goto(real_site.at(f"05-leases.html?{key}scenario=lease-too-short&{key}crash=none&{key}fencing=true"
                           f"&{key}t=9#sim-crash-points"))
    sim = Sim(page, id="sim-crash-points")
    sim.wait("ready")                                        # the link scrolled to it: it started by itself
    expect(sim.part("message")).to_contain_text("This is the run the link recorded", timeout=RUN)
    expect(sim.part("outcome")).to_contain_text("the token refused A's late finish")   # the hidden box, ticked
    assert_only_the_crash_is_taught(sim)


def test_chapter_8_offers_what_chapters_5_to_8_taught(module_page, real_site):
    page = module_page
    page.goto(real_site.at("11-effect-with-the-ack.html"))
    sim = Sim(page, id="sim-points-in-one-transaction")
    sim.open_folds()
    assert visible_choices(sim, "Policy") == ["ack-after-work", "ack-before-work", "one-transaction",
                                              "idempotency-key"]
    assert visible_choices(sim, "Scenario") == ["crash", "lease-too-short"]
    expect(sim.root.get_by_label("Emails in the job", exact=True)).to_be_hidden()   # the casebook's
    sim.start()
    # ack before the work (chapter 7), and a crash after the ack: the email is lost
    sim.field("Policy").select_option("ack-before-work")
    expect(sim.root.locator('[data-part="strip"] li').nth(2)).to_have_text("ack", timeout=RUN)
    sim.root.get_by_label("A dies after the ack, before the email").check()
    expect(sim.part("verdict")).to_have_text("Lost", timeout=RUN)
    expect(sim.part("outcome")).to_have_text("Lost: 0 emails sent, yet the queue says the job is done.")
    assert sim.cells(1)[:3] == ["1", "done", "1"]
    # a lease too short, with the token and the points in one transaction: exactly once
    sim.field("Scenario").select_option("lease-too-short")
    sim.field("Fencing token").check()
    sim.field("Policy").select_option("one-transaction")
    expect(sim.part("log")).to_contain_text("Policy is now Effect and ack in one transaction", timeout=RUN)
    sim.button("Run to the end").click()
    expect(sim.part("verdict")).to_have_text("Exactly once", timeout=RUN)
    expect(sim.part("effects")).to_have_text("The points: 10 by B at 4 s.")
    expect(sim.root.locator('.ct-lane[data-lane="A"] .ct-mark.ct-effect')).to_have_text("adds 10 points")


def test_a_link_that_sets_the_level_shows_that_levels_form(module_page, real_site):
    page = module_page
    page.goto(real_site.at("05-leases.html?sim-crash-points.level=all#sim-crash-points"))
    sim = Sim(page, id="sim-crash-points")
    sim.wait("ready")                                        # the link scrolled to it: it started by itself
    every = ["ack-after-work", "ack-before-work", "one-transaction", "idempotency-key", "auto-commit"]

    def assert_everything_is_shown():
        expect(sim.root.get_by_role("checkbox", name="Fencing token")).to_be_visible()
        expect(sim.root.get_by_role("columnheader", name="Token")).to_be_visible()
        assert visible_choices(sim, "Policy") == every
        assert visible_choices(sim, "Scenario") == ["crash", "lease-too-short", "producer"]
        sim.root.get_by_text("More settings").click()
        for label in ("Emails in the job", "Auto-commit interval (s)"):
            expect(sim.field(label)).to_be_visible()
        sim.root.get_by_text("More settings").click()

    assert_everything_is_shown()
    sim.field("Policy").select_option("auto-commit")         # a new run keeps the link's level
    expect(sim.part("log")).to_contain_text("Policy is now Ack on a timer (auto-commit)", timeout=RUN)
    assert_everything_is_shown()
    sim.button("Use the chapter’s settings").click()
    expect(sim.part("log")).to_contain_text("Started again with the chapter's settings.", timeout=RUN)
    assert_only_the_crash_is_taught(sim)
