"""The theme: design tokens defined once per theme, colour contrast that passes WCAG AA in both
themes, and templates and scripts that a strict Content-Security-Policy allows."""
import re

import pytest

from tests.conftest import ROOT

THEME = ROOT / "theme"
TOKENS = (THEME / "css" / "00-tokens.css").read_text()
ALL_CSS = "\n".join(p.read_text() for p in sorted((THEME / "css").glob("*.css")))
DECLARATION = re.compile(r"--([\w-]+):\s*([^;]+);")


def _block(selector_pattern: str) -> str:
    match = re.search(selector_pattern + r"\s*\{(.*?)\n\s*\}", TOKENS, re.S | re.M)
    assert match, selector_pattern
    return match.group(1)


PAIR = re.compile(r"light-dark\(\s*([^,]+?)\s*,\s*([^)]+?)\s*\)")
ROOT_TOKENS = dict(DECLARATION.findall(_block(r"^:root")))


def _half(value: str, index: int) -> str:
    """One theme's colour from a token: light-dark(light, dark) gives the half asked for."""
    pair = PAIR.search(value)
    return pair.group(index) if pair else value.strip()


LIGHT = {name: _half(value, 1) for name, value in ROOT_TOKENS.items()}
DARK = {name: _half(value, 2) for name, value in ROOT_TOKENS.items()}


def test_dark_theme_is_the_same_whether_chosen_or_from_the_system():
    """Both ways into the dark theme set the same color-scheme, and nothing else: the palette
    itself is written once, in the light-dark() pairs."""
    by_system = _block(r':root:not\(\[data-theme="light"\]\)')
    by_choice = _block(r':root\[data-theme="dark"\]')
    for block in (by_system, by_choice):
        assert block.strip().rstrip(";").split(":") == ["color-scheme", " dark"]


def test_every_dark_colour_differs_from_its_light_one():
    same = [name for name, value in ROOT_TOKENS.items() if PAIR.search(value) and LIGHT[name] == DARK[name]]
    assert same == []


LOCAL = {"pay-icon", "judge-gutter", "chapter-per-char", "chapter-chars"}   # set per element where it is used (86-picture-payments.css, 87-judge.css, 60-navigation.css), not theme tokens


def test_every_custom_property_used_is_defined():
    used = set(re.findall(r"var\(--([\w-]+)\)", ALL_CSS))
    assert used - set(LIGHT) - LOCAL == set()
    assert all(re.search(rf"--{name}:", ALL_CSS) for name in LOCAL)


def _luminance(hex_colour: str) -> float:
    """Relative luminance, https://www.w3.org/TR/WCAG21/#dfn-relative-luminance"""
    value = hex_colour.strip().lstrip("#")
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """Contrast ratio, https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio"""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


TEXT_PAIRS = [
    ("text", "bg"), ("text", "surface"), ("heading", "bg"), ("text-muted", "bg"), ("text-muted", "surface"),
    ("link", "bg"), ("link", "surface"), ("link-visited", "bg"), ("accent", "bg"),
    ("code-text", "code-bg"), ("text-muted", "code-bg"), ("text", "inline-code-bg"), ("text", "mark"),
    ("pause-title", "pause-bg"), ("drills-title", "drills-bg"), ("break-title", "break-bg"),
    ("text", "pause-bg"), ("text", "drills-bg"), ("text", "break-bg"),
    ("link", "pause-bg"), ("link", "drills-bg"), ("link", "break-bg"),
    ("term-text", "term-bg"), ("term-muted", "term-bg"), ("term-muted", "term-bar"), ("term-prompt", "term-bg"),
    ("term-input", "term-bg"), ("term-interrupt", "term-bg"), ("bg", "accent"),
] + [(f"syn-{kind}", "code-bg") for kind in
     ("keyword", "string", "comment", "number", "function", "class", "builtin", "decorator", "operator")]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("foreground,background", TEXT_PAIRS)
def test_text_contrast_is_at_least_aa(theme, foreground, background):
    tokens = LIGHT if theme == "light" else DARK
    ratio = contrast(tokens[foreground], tokens[background])
    assert ratio >= 4.5, f"{theme}: --{foreground} on --{background} is {ratio:.2f}:1"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_focus_ring_contrast_is_at_least_3(theme):
    tokens = LIGHT if theme == "light" else DARK
    assert contrast(tokens["focus"], tokens["bg"]) >= 3


def test_contrast_formula_matches_known_values():
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_templates_have_no_inline_script_style_or_handler():
    """No inline script but theme-init's and no <style> but the site's styles, which base.html
    writes from the build (their hashes are in the policy: tests/build/test_build.py)."""
    for path in (THEME / "templates").rglob("*.html"):
        text = path.read_text()
        if path.name == "base.html":
            assert text.count("<script>{{ head_script }}</script>") == 1
            assert text.count("<style>{{ head_style }}</style>") == 1
            assert "{{ head_script_hash }}; style-src 'self' {{ head_style_hash }}; img-src" in text
            text = text.replace("<script>{{ head_script }}</script>", "").replace("<style>{{ head_style }}</style>", "")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", text), path


def test_a_head_script_that_would_end_its_element_early_is_a_build_problem(tmp_path):
    import shutil
    from builder.problems import Problems
    from builder.theme import Theme
    theme = shutil.copytree(THEME, tmp_path / "theme")
    init = theme / "js" / "theme-init.js"
    init.write_text(init.read_text() + 'var bad = "</script>";\n')
    problems = Problems()
    Theme(theme, problems)
    assert ["would end the inline script early" in p.message for p in problems] == [True]


def test_the_site_styles_go_inline_without_comments_and_a_closing_tag_in_them_is_a_problem(tmp_path):
    import shutil
    from builder.problems import Problems
    from builder.theme import Theme
    problems = Problems()
    theme = Theme(THEME, problems)
    assert not problems and "/*" not in theme.head_style and "\n " not in theme.head_style
    site_sheets = "\n".join(p.read_text() for p in sorted((THEME / "css").glob("*.css")) if not p.name.startswith("8"))
    assert _classes(theme.head_style) == _classes(site_sheets) and "assets/site.css" not in theme.files
    assert "sim-widget" not in _classes(theme.head_style)   # the simulations' styles stay in assets/sims.css
    copy = shutil.copytree(THEME, tmp_path / "theme")
    base = copy / "css" / "10-base.css"
    base.write_text(base.read_text() + '.x::after { content: "</style>"; }\n')
    problems = Problems()
    Theme(copy, problems)
    assert [("would end the inline styles early" in p.message, p.line) for p in problems] == \
        [(True, base.read_text().count("\n"))]


def test_every_feature_script_is_bundled_into_the_one_module_pages_load():
    from builder.problems import Problems
    from builder.theme import FEATURES, OWN_PAGE, Theme
    assert sorted(p.stem for p in (THEME / "js").glob("*.js")) == sorted([*FEATURES, "theme-init", *OWN_PAGE])
    problems = Problems()
    bundle = Theme(THEME, problems).files["assets/js/site.js"].decode()
    assert not problems
    for name in FEATURES:
        assert f"// theme/js/{name}.js\ntry {{\n{(THEME / 'js' / f'{name}.js').read_text()}\n}}" in bundle
    base = (THEME / "templates" / "base.html").read_text()
    assert re.findall(r'<script type="module" src="([^"]+)"', base) == ["{{ asset('js/site.js') }}"]


def test_a_feature_script_that_imports_statically_is_a_build_problem(tmp_path):
    import shutil
    from builder.problems import Problems
    from builder.theme import Theme
    theme = shutil.copytree(THEME, tmp_path / "theme")
    search = theme / "js" / "search.js"
    search.write_text("// a comment\nimport { x } from './x.js';\n" + search.read_text())
    problems = Problems()
    Theme(theme, problems)
    assert [(p.line, "cannot import or export statically" in p.message) for p in problems] == [(2, True)]


def _classes(css: str) -> set[str]:
    """The class names the selectors of a stylesheet name (comments and declarations left out)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return {name for selector in re.findall(r"([^{}]+)\{", css)
            for name in re.findall(r"\.(-?[_a-zA-Z][\w-]*)", selector)}


def test_only_pages_that_embed_a_simulation_load_the_simulations_stylesheet(real_site):
    """assets/sims.css (theme/css/80-89) is linked by each page with an embed and by no other, in
    the body: first thing inside the first embed's stage (an in-body stylesheet holds back only what
    follows it, so the text above paints without it). Nothing before it uses a class that only
    sims.css styles (the stage's own box is styled by site.css), nor does any page without an
    embed (guide.html's cards are styled by site.css)."""
    assets = real_site.folder / "assets"
    site_styles = re.search(r"<style>(.*?)</style>", (real_site.folder / "index.html").read_text(), re.S).group(1)
    only_sims = _classes((assets / "sims.css").read_text()) - _classes(site_styles)
    assert "sim-widget" in only_sims and "sim-stage" not in only_sims and "sim-card" not in only_sims
    kinds = set()
    for page in sorted(real_site.folder.glob("*.html")):
        html = page.read_text()
        embeds = 'data-sim="' in html
        kinds.add(embeds)
        head, body = html.split("</head>")
        assert re.findall(r'<link rel="stylesheet" href="([^"?]+)', head) == [], page.name   # site styles inline
        sheets = re.findall(r'<link rel="stylesheet" href="([^"?]+)', body)
        assert sheets == (["assets/sims.css"] if embeds else []), page.name
        before = body.split('<link rel="stylesheet"')[0]
        if embeds:
            assert re.search(r'<div class="sim-stage"[^>]*>\n$', before), (page.name, before[-200:])
            assert 'data-sim="' not in before, page.name
        used = {name for value in re.findall(r'\bclass="([^"]*)"', before) for name in value.split()}
        assert used & only_sims == set(), (page.name, used & only_sims)
    assert kinds == {True, False}
