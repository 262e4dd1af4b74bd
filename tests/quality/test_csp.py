"""Security headers a static host can carry: every page has a Content-Security-Policy <meta>
that lets only the site's own scripts run ('self', and 'wasm-unsafe-eval' for Pyodide; no eval,
no other host, no inline script but the one whose hash the policy names: theme-init), nothing in
the page contradicts it, and it is in force: an injected inline script, inline event handler and
string timer (an eval) are all blocked."""
import pytest

from tests.quality.checks import report, usable
from tests.quality.csp import page_csp_problems, parse_policy, policy_problems, script_hash
from tests.quality.site_pages import PAGES

SITE_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
               "img-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; "
               "base-uri 'none'; form-action 'none'")
PROBES = {"inline <script>", "inline onclick", "string setTimeout (eval)"}


@pytest.mark.parametrize("name", PAGES)
def test_page_carries_a_strict_policy(site, name):
    problems = page_csp_problems((site.folder / name).read_text(encoding="utf-8"))
    assert not problems, report(f"{name}: Content-Security-Policy", problems)


@pytest.mark.parametrize("name", PAGES)
def test_policy_is_in_force(audits, name):
    audit = audits(name)
    usable(audit)
    assert not audit.csp, report(f"{name}: scripts the policy let run", audit.csp)
    assert {"script-src-elem", "script-src-attr", "script-src"} <= set(audit.csp_blocked), audit.csp_blocked


def test_the_site_policy_passes_and_the_control_fixture_too(broken):
    assert policy_problems(parse_policy(SITE_POLICY)) == []
    assert page_csp_problems((broken.folder / "good.html").read_text(encoding="utf-8")) == []


def test_an_inline_script_fails_and_is_blocked(broken, audits):
    problems = page_csp_problems((broken.folder / "inline-script.html").read_text(encoding="utf-8"))
    assert [p for p in problems if "inline <script>" in p], problems
    console = audits(("fixture", "inline-script.html")).console
    assert any("inline script" in line and "blocked" in line for line in console), console


def test_a_weak_policy_fails_and_lets_scripts_run(broken, audits):
    problems = page_csp_problems((broken.folder / "weak-csp.html").read_text(encoding="utf-8"))
    assert any("'unsafe-inline'" in p for p in problems) and any("'unsafe-eval'" in p for p in problems), problems
    ran = audits(("fixture", "weak-csp.html")).csp
    assert {line.split(" ran:")[0] for line in ran} == PROBES, ran


def test_a_page_without_a_policy_fails(broken):
    assert page_csp_problems((broken.folder / "other-host.html").read_text(encoding="utf-8")) == [
        'no <meta http-equiv="Content-Security-Policy">']


@pytest.mark.parametrize("policy, complaint", [
    ("script-src 'self'", "no default-src"),
    ("default-src *", "script-src allows *"),
    ("default-src 'self'; script-src 'self' https://cdn.example", "script-src allows https://cdn.example"),
    ("default-src 'self'; script-src 'self' data:", "script-src allows data:"),
    ("default-src 'self'; script-src 'self' 'unsafe-inline'", "script-src allows 'unsafe-inline'"),
    ("default-src 'self'; script-src 'self' 'unsafe-eval'", "script-src allows 'unsafe-eval'"),
    ("default-src 'self'; script-src 'self' 'nonce-abc'", "script-src allows 'nonce-abc'"),
    ("default-src 'self'; script-src 'self'; script-src-attr 'unsafe-inline'", "script-src-attr allows 'unsafe-inline'"),
    ("default-src 'self'; worker-src data:", "worker-src allows data:"),
    ("default-src 'self'; script-src 'self' blob:", "script-src allows blob:"),
    ("default-src 'self'; worker-src 'self' https://cdn.example", "worker-src allows https://cdn.example"),
    ("default-src 'self'; img-src https:", "img-src allows https:"),
    ("default-src 'self'; connect-src 'self' https://api.example", "connect-src allows https://api.example"),
    ("default-src 'self'; object-src 'self'", "object-src is not 'none'"),
    ("default-src 'self'; object-src 'none'", "base-uri is not"),
])
def test_each_weak_policy_is_named(policy, complaint):
    assert any(complaint in p for p in policy_problems(parse_policy(policy))), policy_problems(parse_policy(policy))


def test_a_policy_after_the_scripts_does_not_count():
    page = ('<!doctype html><html><head><script src="a.js"></script>'
            f'<meta http-equiv="Content-Security-Policy" content="{SITE_POLICY}"></head><body></body></html>')
    assert page_csp_problems(page) == ["the CSP meta tag comes after a script, link or style: it does not cover them"]


@pytest.mark.parametrize("markup, complaint", [
    ('<button onclick="go()">Go</button>', "inline event handler"),
    ('<p style="color: red">Red</p>', "style-src 'self' blocks it"),
    ("<style>p { color: red }</style>", "<style> element"),
    ('<a href="javascript:go()">Go</a>', "javascript:"),
    ('<script src="data:text/javascript,go()"></script>', "src=data:"),
])
def test_markup_the_policy_would_block_is_named(markup, complaint):
    page = (f'<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="{SITE_POLICY}">'
            f"</head><body>{markup}</body></html>")
    assert any(complaint in p for p in page_csp_problems(page)), page_csp_problems(page)


THEME_CODE = 'document.documentElement.classList.add("js");'


def _page(policy: str, head: str) -> str:
    return (f'<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="{policy}">'
            f"{head}</head><body><p>Text</p></body></html>")


def test_an_inline_script_named_by_its_hash_passes():
    policy = SITE_POLICY.replace("'wasm-unsafe-eval'", f"'wasm-unsafe-eval' {script_hash(THEME_CODE)}")
    assert page_csp_problems(_page(policy, f"<script>{THEME_CODE}</script>")) == []


def test_an_inline_script_that_differs_from_the_hash_fails():
    policy = SITE_POLICY.replace("'wasm-unsafe-eval'", f"'wasm-unsafe-eval' {script_hash(THEME_CODE)}")
    problems = page_csp_problems(_page(policy, f"<script>{THEME_CODE} </script>"))
    assert any("inline <script> whose hash the policy does not name" in p for p in problems), problems
    assert any("the hash of no inline script on the page" in p for p in problems), problems


def test_a_hash_keeps_its_case():
    """Base64 is case-sensitive: the policy reader must not lower-case a hash (keywords, yes)."""
    assert parse_policy("script-src 'SELF' 'SHA256-AbC+/x='")["script-src"] == ["'self'", "'sha256-AbC+/x='"]


SITE_STYLES = "p { color: #123 }\n.js .menu { display: block }"


def test_an_inline_style_named_by_its_hash_passes():
    policy = SITE_POLICY.replace("style-src 'self'", f"style-src 'self' {script_hash(SITE_STYLES)}")
    assert page_csp_problems(_page(policy, f"<style>{SITE_STYLES}</style>")) == []


def test_an_inline_style_that_differs_from_the_hash_fails_and_so_does_a_style_attribute():
    policy = SITE_POLICY.replace("style-src 'self'", f"style-src 'self' {script_hash(SITE_STYLES)}")
    problems = page_csp_problems(_page(policy, f"<style>{SITE_STYLES}\n</style>"))
    assert any("<style> element whose hash the policy does not name" in p for p in problems), problems
    assert any("the hash of no <style> element on the page" in p for p in problems), problems
    attribute = _page(policy, f"<style>{SITE_STYLES}</style>").replace("<p>", '<p style="color: red">')
    assert any("style=" in p for p in page_csp_problems(attribute)), page_csp_problems(attribute)


def test_styles_allow_only_self_and_hashes():
    for source in ("'unsafe-inline'", "https://fonts.example", "'nonce-abc'"):
        policy = SITE_POLICY.replace("style-src 'self'", f"style-src 'self' {source}")
        assert any(f"style-src allows {source}" in p for p in policy_problems(parse_policy(policy))), source
