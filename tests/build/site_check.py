"""Read a built page with the standard library's HTML parser: its ids, links, scripts, and
anything the site's Content-Security-Policy would block."""
from __future__ import annotations

import html.parser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class Page(html.parser.HTMLParser):
    """What one HTML page contains that the tests check."""

    def __init__(self, path: Path):
        super().__init__(convert_charrefs=True)
        self.path = path
        self.ids: list[str] = []
        self.links: list[tuple[str, str, str]] = []   # (tag, attribute, url)
        self.tags: list[tuple[str, dict]] = []
        self.inline_scripts: list[str] = []   # the text of each inline <script>
        self.inline_styles: list[str] = []    # the text of each <style>
        self._in_script = self._in_style = False
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids.append(attrs["id"])
        for name in ("href", "src"):
            if name in attrs:
                self.links.append((tag, name, attrs[name]))
        if tag == "script":
            self._in_script = "src" not in attrs
            if self._in_script:
                self.inline_scripts.append("")
        if tag == "style":
            self._in_style = True
            self.inline_styles.append("")

    def handle_data(self, data):
        if self._in_script:
            self.inline_scripts[-1] += data
        if self._in_style:
            self.inline_styles[-1] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False
        if tag == "style":
            self._in_style = False

    def count(self, tag: str) -> int:
        return sum(1 for name, _ in self.tags if name == tag)

    def find(self, tag: str, **attrs) -> list[dict]:
        return [a for name, a in self.tags if name == tag and all(a.get(k) == v for k, v in attrs.items())]


def broken_links(site: Path) -> list[str]:
    """Every relative href/src in every page that names a missing file or #anchor."""
    pages = {p.relative_to(site).as_posix(): Page(p) for p in site.rglob("*.html")}
    broken = []
    for name, page in pages.items():
        for tag, attribute, url in page.links:
            parts = urlsplit(url)
            if parts.scheme or url.startswith("//"):
                continue
            target = name if not parts.path else (Path(name).parent / unquote(parts.path)).as_posix()
            if not (site / target).is_file():
                broken.append(f"{name}: <{tag} {attribute}={url!r}>: no file {target}")
            elif parts.fragment and target in pages and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{name}: <{tag} {attribute}={url!r}>: no id {parts.fragment!r} in {target}")
    return broken
