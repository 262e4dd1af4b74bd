"""The all-in-one page prints: contents with chapter numbers, each chapter on a new page,
answers open, and none of the screen's navigation."""
import re

from playwright.sync_api import expect


def test_print_media_shows_the_text_and_hides_the_frame(page, fixture_site):
    page.goto(fixture_site.at("guide.html"))
    page.emulate_media(media="print")
    expect(page.get_by_role("navigation", name="Chapters")).to_be_hidden()
    expect(page.locator(".topbar")).to_be_hidden()
    contents = page.get_by_role("navigation", name="Contents")
    expect(contents).to_be_visible()
    expect(contents.get_by_role("link").first).to_have_text("0Start here")
    expect(page.get_by_role("heading", name="Chapter 1 A queue in a table")).to_be_visible()


def test_pdf_starts_each_chapter_on_a_new_page(page, fixture_site):
    page.goto(fixture_site.at("guide.html"))
    pdf = page.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages >= 2 + 3   # title page, contents, then a page (at least) per chapter


# Body text, a heading, a paragraph, and the plain text of code blocks and diagrams.
PRINTED = "body, h1, .prose p, .code-block pre, .diagram-art"


def _print_colours(page):
    found = page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .map((e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor])""", PRINTED)
    assert len(found) > 3
    return found


def test_paper_is_black_on_white_whatever_the_screens_theme(page, fixture_site):
    page.emulate_media(color_scheme="dark")
    page.goto(fixture_site.at("01-queue.html"))
    screen = _print_colours(page)
    assert not _dark(screen[0][0])                     # the screen is dark: light text
    page.emulate_media(media="print", color_scheme="dark")
    for colour, background in _print_colours(page):
        assert _dark(colour), colour
        assert background in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), background
    page.evaluate("document.documentElement.dataset.theme = 'dark'")   # the reader's own toggle
    for colour, _ in _print_colours(page):
        assert _dark(colour), colour


def _dark(colour):
    """Black or a dark grey (#333 at most, over 12:1 on white): ink, whatever the screen showed."""
    return all(int(c) <= 0x33 for c in colour[colour.index("(") + 1:-1].split(",")[:3])


def test_a_chapter_prints_its_simulation_run_to_the_end(page, fixture_site):
    """A printed simulation showed only its start ("not yet known"); now the chapter's
    scenario, run at build time, prints with its outcome, on the chapter and on guide.html."""
    page.goto(fixture_site.at("01-queue.html"))
    run = page.locator(".sim-print")
    outcome = run.get_by_text("Outcome at")
    expect(outcome).to_be_hidden()                   # folded on screen: it gives the ending away
    page.emulate_media(media="print")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    expect(outcome).to_be_visible()
    expect(run).to_contain_text("Simulation 1.1 as the chapter sets it up, run to its end")
    expect(run).to_contain_text("Outcome at 2 s: 0 jobs waiting for 2 worker(s)")
    expect(run).to_contain_text("Jobs at the end: 3 done.")
    page.goto(fixture_site.at("guide.html"))
    expect(page.locator(".sim-print")).to_contain_text("Jobs at the end: 3 done.")   # on screen too


def test_the_student_copy_prints_without_the_answers(page, fixture_site):
    page.goto(fixture_site.at("guide.html"))
    page.emulate_media(media="print")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    answer = page.get_by_text("The `status` column".replace("`", ""), exact=False).first
    expect(answer).to_be_visible()                       # the teacher's copy: answers open
    page.emulate_media(media="screen")
    page.get_by_role("link", name="student copy").click()
    expect(page).to_have_url(fixture_site.at("guide-student.html"))
    expect(page.locator(".answer").first).to_be_visible()   # folded, a reader can still open it
    page.emulate_media(media="print")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    expect(page.get_by_text("The status column", exact=False).first).to_be_hidden()
    expect(page.locator(".answer").first).to_be_hidden()
    expect(page.get_by_text("Which column tells a worker it may take it?")).to_be_visible()   # the question stays


def test_a_chapter_prints_the_scenario_run_not_an_unplayed_widget(page, fixture_site):
    """A teacher printing one chapter found an empty widget ("Outcome: not yet known") above each
    scenario run: an unplayed widget does not print; the run does."""
    page.goto(fixture_site.at("01-queue.html"))
    widget = page.locator("#sim-1")
    expect(widget).to_have_attribute("data-state", "idle")
    page.emulate_media(media="print")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    expect(widget).to_be_hidden()
    expect(page.locator(".sim-print").get_by_text("Outcome at")).to_be_visible()


def _printing(page):
    """Stand in for the browser's print dialog: print.js's buttons call window.print(); here it
    only fires "beforeprint" (the page is then looked at under print media) and returns."""
    page.evaluate("() => { window.print = () => { dispatchEvent(new Event('beforeprint')); }; }")


def test_a_chapter_prints_a_student_copy_beside_the_copy_with_answers(page, fixture_site):
    """Only guide-student.html printed without the answers; each chapter now has both."""
    page.goto(fixture_site.at("01-queue.html"))
    _printing(page)
    prints = page.get_by_role("group", name="Print this chapter")
    question = page.get_by_text("Enqueue three jobs and claim twice.")
    solution = page.get_by_text("The third job: claims take the oldest first.")
    folded = page.locator("details.answer", has=solution)
    expect(folded).to_have_js_property("open", False)             # folded on screen
    prints.get_by_role("button", name="Print the student copy").click()
    page.emulate_media(media="print")
    expect(question).to_be_visible()
    expect(solution).to_be_hidden()                               # left out, not printed open
    expect(folded).to_be_hidden()
    expect(prints).to_be_hidden()                                 # the buttons do not print
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    expect(folded).to_have_js_property("open", False)             # folded again afterwards
    page.emulate_media(media="screen")
    prints.get_by_role("button", name="Print with answers").click()
    page.emulate_media(media="print")
    expect(solution).to_be_visible()                              # printed open
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    expect(folded).to_have_js_property("open", False)
    # After a student print, the browser's own Print (Ctrl+P) prints the answers again.
    prints.get_by_role("button", name="Print the student copy").click()
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="print")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    expect(solution).to_be_visible()


def test_without_javascript_a_chapter_prints_its_answers_open(no_js_page, fixture_site):
    no_js_page.goto(fixture_site.at("01-queue.html"))
    no_js_page.emulate_media(media="print")
    expect(no_js_page.get_by_text("The third job: claims take the oldest first.")).to_be_visible()
    expect(no_js_page.get_by_role("group", name="Print this chapter")).to_have_count(0)
