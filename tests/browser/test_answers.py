"""Pause-and-check answers are folded until the reader opens them, and printed open."""
from playwright.sync_api import expect


def test_answer_is_folded_until_opened(page, fixture_site):
    page.goto(fixture_site.at("00-start.html"))
    box = page.get_by_role("note", name="Pause and check 0.1")
    expect(box).to_contain_text("Which column tells a worker it may take it?")
    answer = box.get_by_text("The status column, together with")
    expect(answer).to_be_hidden()
    box.get_by_text("Answer", exact=True).click()
    expect(answer).to_be_visible()
    box.get_by_text("Answer", exact=True).click()
    expect(answer).to_be_hidden()


def test_every_answer_opens_for_printing_and_folds_after(page, fixture_site):
    page.goto(fixture_site.at("guide.html"))
    answers = page.locator("details.answer")
    expect(answers).to_have_count(4)   # three pause boxes and one drills box's solutions
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    assert page.locator("details.answer[open]").count() == 4
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    assert page.locator("details.answer[open]").count() == 0


def test_study_drills_solutions_are_folded_like_answers(page, fixture_site):
    """The study drills have solutions, folded until the reader opens them."""
    page.goto(fixture_site.at("01-queue.html"))
    box = page.get_by_role("note", name="Study drills")
    solution = box.get_by_text("The third job: claims take the oldest first.")
    expect(solution).to_be_hidden()
    box.get_by_text("Solutions", exact=True).click()
    expect(solution).to_be_visible()
