"""Links: in the built site, served at a host's root and under a sub-path, every internal link
and #anchor resolves (including those the templates write, the stylesheet's url()s and the
search index's results), nothing is loaded from another host, and every code/ download link
serves the exercise file itself."""
import pytest

from tests.conftest import ROOT
from tests.quality.checks import report
from tests.quality.conftest import SUB_PATH
from tests.quality.site_pages import FORWARDING, PAGES

SKIP = {"code", "pyodide", "simulations", "assets"}   # folders of files, not pages


def test_every_built_page_is_checked(site):
    built = sorted(p.relative_to(site.folder).as_posix() for p in site.folder.rglob("*.html")
                   if p.relative_to(site.folder).parts[0] not in SKIP)
    assert built == sorted(PAGES + FORWARDING), "a page the build writes is missing from tests/quality/site_pages.py"


@pytest.mark.parametrize("base", ["/", SUB_PATH])
def test_every_link_resolves(crawls, base):
    crawl = crawls(base)
    assert not crawl.problems, report(f"links, site served at {base}", crawl.problems)
    assert len(crawl.pages) == len(PAGES)
    kinds = {(link.tag, link.attribute) for link in crawl.links}
    assert {("a", "href"), ("link", "href"), ("script", "src"), ("search", "url")} <= kinds


def test_code_downloads_serve_the_file(crawls, site):
    crawl = crawls(SUB_PATH)
    downloads = sorted({link.target.split("#")[0] for link in crawl.links
                        if link.target.startswith(site.sub + "code/")})
    assert downloads, "no page links to an exercise file"
    for url in downloads:
        relative = url[len(site.sub):]
        expected = (ROOT / relative).read_bytes()
        if relative == "code/check_output.py":   # the site's copy carries the transcripts (build.py)
            served = crawl.bodies.get(url, b"").split(b"\n")
            lines = expected.split(b"\n")
            changed = [i for i, (a, b) in enumerate(zip(lines, served)) if a != b]
            assert len(served) == len(lines) and len(changed) == 1, f"{url} does not serve {relative}"
            assert lines[changed[0]] == b"EMBEDDED = None"
            assert served[changed[0]].startswith(b"EMBEDDED = json.loads(")
            continue
        assert crawl.bodies.get(url) == expected, f"{url} does not serve {relative}"


def test_the_control_fixture_passes(crawls):
    assert crawls(("fixture", "good.html")).problems == []


def test_dead_anchors_and_a_missing_page_fail(crawls):
    problems = crawls(("fixture", "dead-anchor.html")).problems
    assert [p.split(">: ", 1)[1] for p in problems] == [
        "no id 'nowhere' in dead-anchor.html",
        "no id 'nowhere' in good.html",
        "HTTP 404 for missing-page.html",
    ], problems


def test_a_missing_file_and_another_hosts_image_fail(crawls):
    assert any("HTTP 404 for missing-picture.svg" in p for p in crawls(("fixture", "missing-file.html")).problems)
    assert any("loads a resource from another host" in p for p in crawls(("fixture", "other-host.html")).problems)
