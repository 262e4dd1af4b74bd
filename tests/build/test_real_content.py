"""The guide itself (content/, code/, the real simulations) builds without a problem."""
from builder import BuildError, Config, build_site
from tests.conftest import ROOT


def test_the_guide_builds(tmp_path):
    try:
        report = build_site(Config(root=ROOT, out=tmp_path / "site"))
    except BuildError as error:
        raise AssertionError(f"the guide does not build:\n{error}") from None
    assert report.chapters >= 1 and (tmp_path / "site" / "guide.html").is_file()
