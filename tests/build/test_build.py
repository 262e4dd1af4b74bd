"""The whole build on the fixture book: the pages, the all-in-one page, links, assets, search."""
import base64
import filecmp
import hashlib
import shutil
import json
import re
from collections import Counter

import pytest

from builder import build_site
from builder.assets import PYODIDE_FILES
from tests.build.site_check import Page, broken_links
from tests.conftest import ROOT, fixture_config

CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {hash}; style-src 'self' {style}; img-src 'self' data:; "
       "connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'")
# theme/js/theme-init.js as the pages carry it inline: its code, without its leading comment.
THEME_INIT = re.sub(r"\A(?:\s*//[^\n]*\n)+", "", (ROOT / "theme" / "js" / "theme-init.js").read_text()).strip()
CHAPTERS = ["00-start.html", "01-queue.html", "02-retries.html"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("build") / "site"
    report = build_site(fixture_config(out))
    assert (report.pages, report.chapters, report.sims) == (6, 3, 1)
    return out


@pytest.fixture(scope="module")
def pages(site):
    return {p.name: Page(p) for p in sorted(site.glob("*.html"))}


def test_one_page_per_chapter_plus_index_and_guide(pages):
    assert sorted(pages) == sorted(CHAPTERS + ["index.html", "guide.html", "guide-student.html"])


def _csp_hash(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


def test_every_page_has_the_policy_one_h1_lang_and_no_inline_code_but_theme_init(site, pages):
    """The one inline script is theme-init.js, first in <head>, and the policy names its SHA-256
    (CSP3: base64 of the digest of the element's text), so it runs and no other inline script does.
    The one <style> is the site's styles, right after it, its SHA-256 in style-src likewise; the head
    links no stylesheet (so the first paint waits for no request)."""
    for name, page in pages.items():
        (styles,) = page.inline_styles
        assert page.find("meta", **{"http-equiv": "Content-Security-Policy"})[0]["content"] == \
            CSP.format(hash=_csp_hash(THEME_INIT), style=_csp_hash(styles)), name
        assert page.count("h1") == 1, name
        assert page.find("html")[0]["lang"] == "en", name
        assert page.inline_scripts == [THEME_INIT], name
        order = [(tag, attrs.get("rel")) for tag, attrs in page.tags]
        assert order.index(("script", None)) + 1 == order.index(("style", None)) < order.index(("body", None)), name
        assert ("link", "stylesheet") not in order[:order.index(("body", None))], name
        for tag, attrs in page.tags:
            assert "style" not in attrs and not any(a.startswith("on") for a in attrs), (name, tag, attrs)


def test_every_id_is_unique_on_its_page(pages):
    for name, page in pages.items():
        repeated = [i for i, n in Counter(page.ids).items() if n > 1]
        assert not repeated, (name, repeated)


def test_every_relative_link_reaches_a_file_and_anchor(site):
    assert broken_links(site) == []


def test_urls_are_relative_and_nothing_loads_from_elsewhere(pages):
    for name, page in pages.items():
        for tag, attribute, url in page.links:
            assert not url.startswith("/"), (name, url)
            if tag != "a":
                assert "://" not in url, (name, tag, url)


def test_chapter_page_frame(pages):
    page = pages["01-queue.html"]
    assert page.find("link", rel="prev")[0]["href"] == "00-start.html"
    assert page.find("link", rel="next")[0]["href"] == "02-retries.html"
    assert [a["href"] for a in page.find("a", rel="prev")] == ["00-start.html"] * 2   # top and bottom
    assert [a["href"] for a in page.find("a", rel="next")] == ["02-retries.html"] * 2
    assert [a["href"] for a in page.find("a", **{"aria-current": "page"})] == ["01-queue.html"]
    toc = re.search(r'<nav class="page-toc".*?</nav>', page.path.read_text(), re.S).group()
    assert re.findall(r'href="([^"]+)"', toc) == ["#the-table", "#running-it", "#watching-workers"]
    first, last = pages["00-start.html"], pages["02-retries.html"]
    assert first.find("link", rel="prev")[0]["href"] == "index.html"
    assert not last.find("link", rel="next")


def test_guide_holds_every_chapter_with_prefixed_ids_and_internal_links(pages):
    guide = pages["guide.html"]
    assert [s["id"] for s in guide.find("section")] == ["ch0", "ch1", "ch2"]
    assert {"ch1-the-table", "ch2-waiting-between-attempts", "pause-0-1", "ch0-pause-0-1"} & set(guide.ids) == {
        "ch1-the-table", "ch2-waiting-between-attempts", "ch0-pause-0-1"}
    hrefs = [url for tag, _, url in guide.links if tag == "a"]
    assert "#ch1" in hrefs and "#ch2-waiting-between-attempts" in hrefs
    # Links between chapters stay on this page; only a simulation's card links to the live one.
    leaving = [h for h in hrefs if "#" in h and h[0] != "#" and (h.endswith(".md") or re.match(r"0\d-\w+\.html", h))]
    assert all(re.fullmatch(r"0\d-\w+\.html#sim-\d+", h) for h in leaving), leaving
    assert guide.count("h3") > 0 and guide.count("h1") == 1   # a chapter's ## is an <h3> here


def test_guide_sidebar_jumps_within_the_page(pages):
    guide = pages["guide.html"]
    sidebar = re.search(r'<nav class="sidebar".*?</nav>', guide.path.read_text(), re.S).group()
    assert re.findall(r'href="(#ch\d)"', sidebar) == ["#ch0", "#ch1", "#ch2"]


def test_chapter_description_is_its_first_paragraph(pages):
    (meta,) = pages["02-retries.html"].find("meta", name="description")
    assert meta["content"] == ("When a job fails, the worker can try again later. Waiting longer after each failure is "
                               "called backoff.")


def test_sim_embed_carries_the_widget_contract(pages):
    (embed,) = pages["01-queue.html"].find("div", **{"data-sim": "counter"})
    assert embed["data-state"] == "idle"
    assert json.loads(embed["data-params"]) == {"workers": 2, "jobs": 3, "lease": 2.5, "mode": "naive"}
    assert embed["data-seed"] == "7"


def test_a_figure_is_copied_and_shown_by_a_relative_url_with_its_alt_text(site, pages):
    source = ROOT / "tests" / "build" / "fixtures" / "book" / "content" / "figures" / "queue.svg"
    assert filecmp.cmp(site / "figures" / "queue.svg", source, shallow=False)
    alt = "Three squares in a row, three queued jobs"
    for name in ("01-queue.html", "guide.html"):
        assert pages[name].find("img", src="figures/queue.svg", alt=alt, width="120", height="40"), name


def test_pyodide_runtime_is_vendored_exactly(site):
    assert sorted(p.name for p in (site / "pyodide").iterdir()) == sorted(PYODIDE_FILES)
    for name in PYODIDE_FILES:
        assert filecmp.cmp(site / "pyodide" / name, ROOT / "node_modules" / "pyodide" / name, shallow=False)


def test_minisearch_code_files_and_theme_assets_are_copied(site):
    minisearch = (site / "assets" / "vendor" / "minisearch.js").read_text()
    assert minisearch.rstrip().endswith("export { MiniSearch as default };")   # no source map to miss
    assert (site / "code" / "ex01_queue.py").is_file() and (site / "code" / "capstone" / "notes.txt").is_file()
    assert not list(site.rglob("__pycache__"))
    assert (site / "assets" / "sims.css").stat().st_size > 0 and (site / ".nojekyll").exists()
    assert not (site / "assets" / "site.css").exists()   # the site's styles are inline in each page


def test_search_documents_one_per_section(site):
    documents = json.loads((site / "search-index.json").read_text())
    assert [d["id"] for d in documents] == list(range(len(documents)))
    holding = [d["url"] for d in documents if "zeppelin" in d["text"]]
    assert holding == ["02-retries.html#waiting-between-attempts"]
    (start,) = [d for d in documents if d["url"] == "00-start.html"]
    assert start["title"] == "Start here" and start["chapter"] == "0. Start here"


def test_a_simulation_template_and_page_scripts_come_from_the_theme(tmp_path):
    theme = tmp_path / "theme"
    shutil.copytree(ROOT / "theme", theme)
    (theme / "templates" / "sim" / "counter.html").write_text(
        '<p class="counter-start">{{ sim.snapshot.outcome }} (seed {{ sim.seed }})</p>\n')
    (theme / "js" / "sim-widgets.js").write_text("// widgets\n")
    (theme / "templates" / "sim" / "_scripts.html").write_text(
        '{% for name in page.sims %}<meta name="sim" content="{{ name }}">{% endfor %}\n'
        '<script type="module" src="{{ asset(\'js/sim-widgets.js\') }}"></script>\n')
    build_site(fixture_config(tmp_path / "site", theme=theme))
    with_sim = (tmp_path / "site" / "01-queue.html").read_text()
    assert '<p class="counter-start">3 jobs waiting for 2 worker(s) (seed 7)</p>' in with_sim
    assert 'data-sim="counter" data-state="idle"' in with_sim            # the root stays the build's
    head = with_sim.split("</head>")[0]
    assert '<meta name="sim" content="counter">' in head and "assets/js/sim-widgets.js?v=" in head
    for other in ("00-start.html", "02-retries.html", "index.html"):
        assert "sim-widgets.js" not in (tmp_path / "site" / other).read_text(), other
    guide = (tmp_path / "site" / "guide.html").read_text()
    assert "sim-widgets.js" not in guide and "data-sim=" not in guide   # no widget, no Python there
    card = guide.split('<aside class="sim-card"', 1)[1].split("</aside>", 1)[0]   # a card instead
    assert 'href="01-queue.html#sim-1"' in card and "Simulation 1.1" in card, card


def test_the_transcripts_are_saved_for_the_readers_checker(site):
    saved = json.loads((site / "code" / "transcripts.json").read_text())
    assert saved and all(set(t) == {"path", "line", "attrs", "lines"} for t in saved.values())
    assert all(t["lines"][0].startswith("$ ") for t in saved.values())


def test_a_chapter_with_answers_offers_both_prints_and_one_without_none(pages):
    """"Print with answers" and "Print the student copy" (js/print.js) under the title of a
    chapter that has answers to leave out; a chapter with none prints as it is."""
    for name, has_answers in (("00-start.html", True), ("01-queue.html", True), ("02-retries.html", False)):
        buttons = [b["data-print"] for b in pages[name].find("button") if "data-print" in b]
        assert buttons == (["answers", "student"] if has_answers else []), name
