"""Accessibility: axe-core finds no violation on any page, in light and in dark mode, with its
simulations idle (as the page loads), ready, and after every control was used, and in the
search dialog. The dark runs emulate a dark system; a test below proves the theme's own dark
toggle gives exactly the same colours, so those runs cover it too."""
import pytest

from tests.quality.checks import report, usable
from tests.quality.site_pages import PAGES

SCHEMES = ["light", "dark"]


def _phases(audit, scheme):
    return {phase for phase in audit.axe if phase.endswith(scheme)}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", PAGES)
def test_no_axe_violations(audits, name, scheme):
    audit = audits(name)
    usable(audit)
    assert f"page, {scheme}" in audit.axe and f"search dialog, {scheme}" in audit.axe, sorted(audit.axe)
    problems = audit.axe_problems(scheme)
    assert not problems, report(f"{name} ({scheme}): axe-core", problems)


@pytest.mark.parametrize("name", PAGES)
def test_no_axe_violations_on_a_phone(phone_axe, name):
    # Lighthouse's phone (412x823): there the page contents fold behind their <summary>, a target.
    problems = phone_axe(name)
    assert not problems, report(f"{name} (412x823): axe-core", problems)


def test_a_small_target_fails_on_a_phone_and_on_a_desktop(audits, phone_axe):
    # axe-core ships target-size switched off; tests/quality/axe.py switches it on.
    for problems in (phone_axe(("fixture", "small-target.html")), audits(("fixture", "small-target.html")).axe_problems("light")):
        assert any("target-size" in p and 'aria-label="Less"' in p for p in problems), problems
    assert phone_axe(("fixture", "good.html")) == []


# The chapters that embed simulations, between them every kind of widget (guide.html shows
# cards that link to them, so it has none of its own).
WIDGET_PAGES = ["03-the-queue.html", "04-the-worker.html", "05-leases.html", "10-idempotency.html"]


@pytest.mark.parametrize("name", WIDGET_PAGES)
def test_widgets_are_audited_idle_ready_and_used(audits, name):
    audit = audits(name)
    usable(audit)
    assert {"page, dark", "simulations ready, dark", "simulations used, dark"} <= _phases(audit, "dark"), \
        f"{sorted(audit.axe)}; widgets: {audit.widgets}"


def test_widget_pages_hold_every_kind_of_widget(site):
    text = "".join((site.folder / name).read_text() for name in WIDGET_PAGES)
    for kind in ("live-queue", "race", "crash-timing", "payments"):
        assert f'data-sim="{kind}"' in text, kind


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_control_fixture_passes(audits, scheme):
    audit = audits(("fixture", "good.html"))
    usable(audit)
    assert _phases(audit, scheme) and audit.axe_problems(scheme) == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_an_image_without_alt_fails(audits, scheme):
    problems = audits(("fixture", "missing-alt.html")).axe_problems(scheme)
    assert any(p.startswith("[page, ") and "image-alt" in p for p in problems), problems


def test_a_contrast_failure_in_dark_mode_only_fails_in_dark_mode(audits):
    audit = audits(("fixture", "dark-contrast.html"))
    assert not any("color-contrast" in p for p in audit.axe_problems("light")), audit.axe
    assert any("color-contrast" in p and ".faint" in p for p in audit.axe_problems("dark")), audit.axe


# Each custom property as the colour it resolves to on the page's root: a token written as
# light-dark(light, dark) reads the same in both themes as a declared value, so the probe paints
# it (as its text colour) and reads the colour back. Tokens that are not colours read as the
# probe's inherited colour in every theme, and so never differ.
CUSTOM_PROPERTIES = """() => {
  const names = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules])
    .flatMap((rule) => rule.cssRules ? [...rule.cssRules] : [rule])
    .flatMap((rule) => rule.style ? [...rule.style] : []).filter((name) => name.startsWith("--"));
  const probe = document.body.appendChild(document.createElement("span"));
  const colours = Object.fromEntries([...new Set(names)].sort().map((name) => {
    probe.style.setProperty("color", `var(${name})`);
    return [name, getComputedStyle(probe).color];
  }));
  probe.remove();
  return colours;
}"""


def test_the_dark_toggle_and_a_dark_system_give_the_same_colours(browser, site):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(site.sub + "index.html")
    system_dark = page.evaluate(CUSTOM_PROPERTIES)
    page.emulate_media(color_scheme="light")
    light = page.evaluate(CUSTOM_PROPERTIES)
    page.get_by_role("button", name="Dark theme").click()
    toggled_dark = page.evaluate(CUSTOM_PROPERTIES)
    context.close()
    assert system_dark != light and len(system_dark) > 20
    different = {name: (system_dark[name], toggled_dark.get(name)) for name in system_dark
                 if toggled_dark.get(name) != system_dark[name]}
    assert not different, f"dark by toggle differs from dark by system (system, toggle): {different}"
