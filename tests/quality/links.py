"""Follow every link of a served site over HTTP, as a reader's browser would, and list the broken.

Starts from the given pages and crawls every same-site HTML page they link to. Checks each
href/src/srcset/poster/data attribute of every element, every `url(...)` of each stylesheet, and the
`url` of every entry in the search index (search results are links written by the build): the
target must be under the site's base URL, answer 200, and hold the `#anchor` (an `id`, or an
`<a name>`) when there is one. A resource (script, style, image...) from another host is an
error; a link to another host (`<a href="https://...">`) is only reading further, and is not
fetched.
"""
from __future__ import annotations

import dataclasses
import html.parser
import json
import re
import urllib.error
import urllib.request
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

URL_ATTRIBUTES = ("href", "src", "poster", "data", "action", "formaction", "cite")
NAVIGATION_RELS = {"prev", "next", "alternate", "canonical", "license", "help", "author", "bookmark"}
CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")


@dataclasses.dataclass
class Link:
    source: str      # where it was found: the page's path and line, or the file
    tag: str
    attribute: str
    url: str         # as written
    target: str      # absolute, with its fragment
    rels: frozenset = frozenset()   # a <link>'s rel values

    @property
    def is_resource(self) -> bool:
        """Loaded by the page itself (a script, an image...), not followed by the reader."""
        return self.tag != "a" and self.attribute != "action" and not (
            self.tag == "link" and self.attribute == "href" and self.rels & NAVIGATION_RELS)


class _PageReader(html.parser.HTMLParser):
    def __init__(self, source: str, url: str):
        super().__init__(convert_charrefs=True)
        self.source, self.url = source, url
        self.base = url
        self.ids: set[str] = set()
        self.links: list[Link] = []

    def _add(self, tag, attribute, value, rels=frozenset()):
        value = value.strip()
        where = f"{self.source}:{self.getpos()[0]}"
        self.links.append(Link(where, tag, attribute, value, urljoin(self.base, value), rels))

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            self.ids.add(attrs["name"])
        if tag == "base" and "href" in attrs:
            self.base = urljoin(self.url, attrs["href"])
        rels = frozenset(attrs.get("rel", "").lower().split())
        for attribute in URL_ATTRIBUTES:
            if attribute in attrs:
                self._add(tag, attribute, attrs[attribute], rels)
        for attribute in ("srcset", "imagesrcset"):
            for candidate in filter(None, (c.strip() for c in attrs.get(attribute, "").split(","))):
                self._add(tag, attribute, candidate.split()[0])

    handle_startendtag = handle_starttag


@dataclasses.dataclass
class Crawl:
    """What a crawl found: every link, and every problem (an empty list: all links work)."""

    base: str
    pages: dict[str, set[str]] = dataclasses.field(default_factory=dict)   # page URL -> its ids
    links: list[Link] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)
    bodies: dict[str, bytes] = dataclasses.field(default_factory=dict)     # URL -> body, for 200s


def _fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, "", b""
    except (urllib.error.URLError, OSError) as error:
        return 0, str(error), b""


def crawl(base: str, start: list[str], search_index: str | None = "search-index.json") -> Crawl:
    """Check every link reachable from the pages `start` (paths relative to `base`, which ends in /)."""
    result = Crawl(base)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(base))
    fetched: dict[str, tuple[int, str]] = {}

    def get(url: str) -> tuple[int, str]:
        if url not in fetched:
            status, kind, body = _fetch(url)
            fetched[url] = (status, kind)
            if status == 200:
                result.bodies[url] = body
        return fetched[url]

    def name(url: str) -> str:
        return url[len(base):] if url.startswith(base) else url

    queue = [urljoin(base, page) for page in start]
    starts = set(queue)
    seen_pages: set[str] = set()
    while queue:
        url = queue.pop(0)
        if url in seen_pages:
            continue
        seen_pages.add(url)
        status, kind = get(url)
        if status != 200:
            if url in starts:   # a page found by a link is reported with that link
                result.problems.append(f"{name(url)}: HTTP {status or kind}")
            continue
        reader = _PageReader(name(url), url)
        reader.feed(result.bodies[url].decode("utf-8"))
        reader.close()
        result.pages[url] = reader.ids
        result.links += reader.links
        for link in reader.links:
            target = urldefrag(link.target).url
            if target.startswith(base) and link.tag == "a" and target.endswith(".html"):
                queue.append(target)

    extra: list[Link] = []
    stylesheets = {urldefrag(link.target).url for link in result.links
                   if link.tag == "link" and "stylesheet" in link.rels and link.target.startswith(base)}
    for url in sorted(stylesheets):
        if get(url)[0] == 200:
            extra += _css_links(name(url), url, result.bodies[url].decode("utf-8", "replace"))
    if search_index:
        index_url = urljoin(base, search_index)
        status, kind = get(index_url)
        if status != 200:
            result.problems.append(f"{search_index}: HTTP {status or kind}")
        else:
            for i, entry in enumerate(json.loads(result.bodies[index_url])):
                extra.append(Link(f"{search_index}: entry {i}", "search", "url", entry["url"],
                                  urljoin(base, entry["url"])))
    result.links += extra

    for link in result.links:
        result.problems += _link_problems(link, base, origin, result, get)
    result.problems = list(dict.fromkeys(result.problems))
    return result


def _css_links(source: str, url: str, text: str) -> list[Link]:
    """The url(...) references of a stylesheet (data: URLs aside)."""
    links = []
    for match in CSS_URL.finditer(text):
        value = match.group(2).strip()
        if not value.startswith("data:"):
            line = text.count("\n", 0, match.start()) + 1
            links.append(Link(f"{source}:{line}", "css", "url()", value, urljoin(url, value)))
    return links


def _link_problems(link: Link, base: str, origin: str, result: Crawl, get) -> list[str]:
    said = f"{link.source}: <{link.tag} {link.attribute}={link.url!r}>"
    parts = urlsplit(link.target)
    if link.url in ("", "#") and link.tag == "a":
        return [f"{said}: links to nothing"]
    if parts.scheme == "javascript":
        return [f"{said}: a javascript: URL works only with scripts"]
    if parts.scheme not in ("http", "https"):
        return []   # mailto:, data:, tel:
    if f"{parts.scheme}://{parts.netloc}" != origin:
        return [f"{said}: loads a resource from another host"] if link.is_resource else []
    target, fragment = urldefrag(link.target)
    if not target.startswith(base):
        return [f"{said}: leaves the site's folder ({parts.path} is outside {urlsplit(base).path})"]
    status, kind = get(target)
    if status != 200:
        return [f"{said}: HTTP {status or kind} for {target[len(base):]}"]
    if fragment and link.attribute != "url()":
        ids = result.pages.get(target)
        if ids is None:
            if not target.split("?")[0].endswith(".html"):
                return [f"{said}: #{fragment} on a file that is not a page"]
            reader = _PageReader(target, target)
            reader.feed(result.bodies[target].decode("utf-8"))
            ids = result.pages[target] = reader.ids
        if unquote(fragment) not in ids:
            return [f"{said}: no id {unquote(fragment)!r} in {target[len(base):]}"]
    return []
