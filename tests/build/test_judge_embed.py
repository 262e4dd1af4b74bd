"""```judge fences: the exercise embed, the build-time audit of the chapter's fix (a failing fix
stops the build at its line), and CodeMirror vendored with every import resolvable in the site."""
import json
import re

import pytest

from builder.codemirror import PACKAGES, flat_name, vendor_codemirror
from builder.problems import Problems
from simulations import judge as engine
from tests.build.markdown_harness import render
from tests.conftest import ROOT

EMBED = "Intro.\n\n```judge payments-handler id=pay\nseed: 3\n---\nThe handler as it starts.\n```\n"


def test_an_embed_holds_the_start_as_plain_code_and_the_fixs_audit():
    html, problems = render(EMBED)
    assert problems == []
    assert 'data-sim="judge"' in html and 'id="sim-pay"' in html
    assert '<div class="judge-start" role="region"' in html and "uuid.uuid4()" in html
    assert "judged when this page was built (seed 3): passed the audit" in html
    assert html.count("<tr><td>") == 10   # the ten orders, each charged once


def test_an_unknown_exercise_is_a_problem_at_its_line():
    _, problems = render("Intro.\n\n```judge nope\n---\nText.\n```\n")
    assert problems == ["chapter.md:3: unknown exercise 'nope' (known: payments-handler, race-claim, shop-handlers)"]


def test_a_chapters_fix_that_fails_the_audit_stops_the_build_at_its_line(monkeypatch):
    broken = dict(engine.EXERCISES["payments-handler"], fixed=engine.EXERCISES["payments-handler"]["start"])
    monkeypatch.setitem(engine.EXERCISES, "payments-handler", broken)
    _, problems = render(EMBED)
    assert len(problems) == 1
    assert problems[0].startswith("chapter.md:3: judge payments-handler: the chapter's fix fails the audit "
                                  "on seed 3: order 6 was charged 2 times ($10 extra)")


def test_a_flawed_start_that_passes_is_a_problem_too(monkeypatch):
    tame = dict(engine.EXERCISES["payments-handler"], start=engine.EXERCISES["payments-handler"]["fixed"])
    monkeypatch.setitem(engine.EXERCISES, "payments-handler", tame)
    _, problems = render(EMBED)
    assert problems == ["chapter.md:3: judge payments-handler: the flawed start passes the audit on seed 3; "
                        "choose a seed on which its flaw shows"]


@pytest.fixture(scope="module")
def vendored():
    problems = Problems()
    files = vendor_codemirror(ROOT / "node_modules", str, problems)
    assert list(problems) == []
    return files


def test_every_import_of_the_vendored_editor_is_a_sibling_file(vendored):
    names = {path.rsplit("/", 1)[1] for path in vendored}
    for path, data in vendored.items():
        if not path.endswith(".js"):
            continue
        for spec in re.findall(r"""^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]""", data.decode(), re.M):
            assert spec.startswith("./") and spec[2:].split("?")[0] in names, f"{path}: {spec}"
    assert b"if (root.adoptedStyleSheets && win.CSSStyleSheet)" in vendored["assets/vendor/codemirror/style-mod.js"]


def test_the_editor_module_asks_for_the_pinned_versions():
    pinned = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    wanted = {flat_name(p): pinned[f"node_modules/{p}"]["version"] for p in PACKAGES}
    source = (ROOT / "theme/js/sims/code-editor.js").read_text()
    found = re.findall(r'vendor/codemirror/([\w-]+)\.js\?v=([\d.]+)"', source)
    assert found and all(wanted[name] == version for name, version in found), found
