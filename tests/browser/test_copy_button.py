"""Copy buttons: a code block's copies its code; a transcript's copies only the commands."""
from playwright.sync_api import expect


def _clipboard(page):
    return page.evaluate("navigator.clipboard.readText()")


def test_copy_code_block(page, context, fixture_site):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(fixture_site.at("01-queue.html"))
    block = page.locator(".code-block", has_text="SELECT count(*) AS waiting")
    block.hover()
    block.get_by_role("button", name="Copy the code").click()
    expect(block.get_by_role("button", name="Copy the code")).to_have_text("Copied")
    assert _clipboard(page) == "SELECT count(*) AS waiting FROM jobs WHERE status = 'queued';"
    expect(page.get_by_role("status").filter(has_text="Copied")).to_have_count(1)


def test_copy_numbered_include_leaves_the_line_numbers_out(page, context, fixture_site):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(fixture_site.at("01-queue.html"))
    include = page.locator("figure.include").filter(has=page.locator(".include-part", has_text="Queue.claim"))
    include.hover()
    include.get_by_role("button", name="Copy the code").click()
    assert _clipboard(page).splitlines()[:2] == ["@logged", "def claim(self):"]


def test_copy_transcript_copies_commands_only(page, context, fixture_site):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(fixture_site.at("01-queue.html"))
    transcript = page.locator("figure.transcript")
    transcript.hover()
    transcript.get_by_role("button", name="Copy the commands").click()
    assert _clipboard(page) == "python3 ex01_queue.py"
