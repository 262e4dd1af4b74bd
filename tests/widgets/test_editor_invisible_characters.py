"""The exercise editor draws the characters that show as nothing, or that reorder the text around
them, as a visible placeholder naming the character: what the reader sees is the code that runs
(Trojan Source, CVE-2021-42574). Real CodeMirror in real Chromium, on chapter 8's judge widget."""
import pytest
from playwright.sync_api import expect

from tests.widgets.conftest import Sim

CHAPTER = "10-idempotency.html"
JUDGE = "sim-charge-handler"
LONG = 90_000

# (code point, the words its placeholder's title holds)
HIDDEN = [
    (0x202A, "left-to-right embedding"), (0x202B, "right-to-left embedding"),
    (0x202C, "pop directional formatting"), (0x202D, "left-to-right override"),
    (0x202E, "right-to-left override"), (0x2066, "left-to-right isolate"), (0x2067, "right-to-left isolate"),
    (0x2068, "first strong isolate"), (0x2069, "pop directional isolate"), (0x200B, "zero width space"),
    (0x200C, "zero width non-joiner"), (0x200D, "zero width joiner"), (0x200E, "left-to-right mark"),
    (0x200F, "right-to-left mark"), (0xFEFF, "zero width no-break space (byte order mark)"), (0x00AD, "soft hyphen"),
    (0x2060, "word joiner"), (0xE0041, "invisible character"),
]


@pytest.fixture(scope="module")
def judge(module_page, real_site):
    module_page.goto(real_site.at(CHAPTER))
    sim = Sim(module_page, id=JUDGE)
    sim.root.scroll_into_view_if_needed()
    expect(sim.root.locator(".cm-content")).to_be_visible(timeout=LONG)
    return sim


def _empty_editor(judge, page):
    judge.root.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")


def _placeholder(judge, code):
    return judge.root.locator(".cm-content .cm-specialChar", has_text=f"U+{code:04X}")


@pytest.mark.parametrize("code,name", HIDDEN, ids=[f"U+{c:04X}" for c, _ in HIDDEN])
def test_a_typed_invisible_character_is_drawn_as_its_code_point_with_its_name(judge, module_page, code, name):
    _empty_editor(judge, module_page)
    module_page.keyboard.type('if access != "user')
    module_page.keyboard.insert_text(chr(code))
    module_page.keyboard.type(' # admin":')
    mark = _placeholder(judge, code)
    expect(mark).to_have_count(1)
    expect(mark).to_have_attribute("title", f"{name} U+{code:04X}: invisible on the page, but part of the code that runs")
    expect(mark).to_have_attribute("aria-label", f"{name} U+{code:04X}: invisible on the page, but part of the code that runs")
    # The character is still in the code (the editor's text), only drawn differently.
    line = judge.root.locator(".cm-line").first
    expect(line).to_have_text(f'if access != "userU+{code:04X} # admin":')


def test_a_pasted_trojan_source_line_shows_every_hidden_character(judge, module_page):
    _empty_editor(judge, module_page)
    trojan = 'access = "user"\nif access != "user\u202e \u2066# admin\u2069 \u2066":\n    charge()\n'
    module_page.evaluate("""text => {
        const data = new DataTransfer();
        data.setData("text/plain", text);
        document.activeElement.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true,
                                                                          cancelable: true}));
    }""", trojan)
    lines = judge.root.locator(".cm-line")
    expect(lines).to_have_count(4)
    expect(lines.nth(1)).to_have_text('if access != "userU+202E U+2066# adminU+2069 U+2066":')
    expect(lines.nth(1).locator(".cm-specialChar")).to_have_count(4)


def test_ordinary_code_has_no_placeholders(judge, module_page):
    _empty_editor(judge, module_page)
    module_page.keyboard.type('key = f"order-{job.args[\'order\']}"  # café, naïve, 10 €\n\tx = 1\n')
    expect(judge.root.locator(".cm-line").first).to_contain_text("café")
    expect(judge.root.locator(".cm-content .cm-specialChar")).to_have_count(0)
