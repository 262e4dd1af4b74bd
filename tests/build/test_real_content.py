"""The guide itself (content/, code/, the real simulations) builds without a problem, and every
address it ever published still answers (content/moved.toml)."""
import json
import tomllib

from builder import BuildError, Config, build_site
from builder.problems import Problems
from builder.summary import load_summary
from tests.build.site_check import Page
from tests.conftest import ROOT


def test_the_guide_builds(tmp_path):
    try:
        report = build_site(Config(root=ROOT, out=tmp_path / "site"))
    except BuildError as error:
        raise AssertionError(f"the guide does not build:\n{error}") from None
    site = tmp_path / "site"
    assert report.chapters >= 1 and (site / "guide.html").is_file()
    current = {c.url for c in load_summary(ROOT / "content", Problems())}
    old = {name[: -len(".md")] + ".html" for name in tomllib.loads((ROOT / "content" / "moved.toml").read_text())}
    for page in old - current:   # a forwarding page, to a page of today
        forwards = [a["data-moved-to"] for a in Page(site / page).find("script") if "data-moved-to" in a]
        assert len(forwards) == 1 and forwards[0] in current, page
    # What the reader navigates by names only today's pages.
    searched = {d["url"].split("#")[0] for d in json.loads((site / "search-index.json").read_text())}
    assert searched <= current
    contents = {href for tag, _, href in Page(site / "index.html").links if tag == "a" and href.endswith(".html")}
    assert not contents & (old - current) and current <= contents | {"index.html"}
