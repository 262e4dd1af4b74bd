"""What a page's Content-Security-Policy allows, read from its HTML, and what is wrong with it.

The site is static, so its only security header is the CSP in a `<meta http-equiv>` tag. The
policy a page must carry: scripts only from the site's own origin (`'self'`), plus
`'wasm-unsafe-eval'` so Pyodide can compile its WebAssembly; no `eval`, no other host anywhere;
`object-src 'none'` and a `base-uri` so injected markup cannot load plugins or move relative URLs
elsewhere. No inline script, but for those the policy names by the hash of their exact text
(`'sha256-...'`, the build's theme-init): a hash lets only that text run, never an injected
script, and a hash that matches no script on the page is a problem too (left behind). Likewise
for styles: no inline <style> but those whose hash style-src names (the build's site styles),
and no style attribute at all (a hash never allows one without 'unsafe-hashes').

Sources: CSP Level 3, https://www.w3.org/TR/CSP3/ (directive fallback: section 6.8.3,
"Get the effective directive"; a `<meta>` policy applies only to what comes after it: section
3.3; hash sources: section 6.7.2.8, "Does element match source list", the digest of the
element's text, base64-encoded); the checks Lighthouse's "CSP is effective against XSS" audit makes,
https://developer.chrome.com/docs/lighthouse/best-practices/csp-xss.
"""
from __future__ import annotations

import base64
import hashlib
import html.parser
import re

# Fetch directives and the directives each falls back to, in order (CSP3 6.8.3).
FALLBACKS = {
    "script-src-elem": ("script-src", "default-src"),
    "script-src-attr": ("script-src", "default-src"),
    "script-src": ("default-src",),
    "worker-src": ("child-src", "script-src", "default-src"),
    "child-src": ("default-src",),
    "frame-src": ("child-src", "default-src"),
    "connect-src": ("default-src",), "img-src": ("default-src",), "style-src": ("default-src",),
    "style-src-elem": ("style-src", "default-src"), "style-src-attr": ("style-src", "default-src"),
    "font-src": ("default-src",), "media-src": ("default-src",), "manifest-src": ("default-src",),
    "object-src": ("default-src",),
}
SCRIPT_SOURCES = {"'self'", "'wasm-unsafe-eval'"}   # all a script directive may hold
# ...and worker-src blob:, for the workers python.js makes from a blob: URL. Such a worker runs
# under the page's own policy (a "local scheme" worker inherits its creator's policy container:
# https://w3c.github.io/webappsec-csp/#initialize-global-object-csp), and only a script the
# policy already let run can make a blob: URL; a worker from its own URL would get no policy.
WORKER_SOURCES = SCRIPT_SOURCES | {"blob:"}
OTHER_SOURCES = {"'self'", "'none'", "data:"}        # all any other fetch directive may hold
NEVER = ("'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'strict-dynamic'")
EVENT_HANDLER = re.compile(r"^on[a-z]+$")
HASH_SOURCE = re.compile(r"^'(sha256|sha384|sha512)-([A-Za-z0-9+/]+={0,2})'$", re.I)


def script_hash(text: str, algorithm: str = "sha256") -> str:
    """The CSP source that lets exactly `text` (an inline script's contents) run: 'sha256-...'."""
    digest = hashlib.new(algorithm, text.encode("utf-8")).digest()
    return f"'{algorithm}-{base64.b64encode(digest).decode('ascii')}'"


def parse_policy(text: str) -> dict[str, list[str]]:
    """`"default-src 'self'; img-src 'self' data:"` -> {"default-src": ["'self'"], "img-src": [...]}.

    Names and keywords are lower-cased; a repeated directive is ignored, as browsers do.
    """
    policy: dict[str, list[str]] = {}
    for part in text.split(";"):
        words = part.split()
        if words and words[0].lower() not in policy:
            policy[words[0].lower()] = [_normal(w) for w in words[1:]]
    return policy


def _normal(source: str) -> str:
    """Keywords and schemes lower-cased; a hash keeps its base64 value as it is (case matters)."""
    found = HASH_SOURCE.match(source)
    if found:
        return f"'{found.group(1).lower()}-{found.group(2)}'"
    return source.lower() if source.startswith("'") or source.endswith(":") else source


def effective(policy: dict[str, list[str]], directive: str) -> list[str] | None:
    """The sources that govern `directive`: its own, or those of the directive it falls back to."""
    for name in (directive, *FALLBACKS.get(directive, ())):
        if name in policy:
            return policy[name]
    return None


def policy_problems(policy: dict[str, list[str]]) -> list[str]:
    """Everything in `policy` that lets a script or a request escape the site's own origin."""
    problems = []
    if "default-src" not in policy:
        problems.append("no default-src: what no directive names may load from anywhere")
    for directive in ("script-src", "script-src-elem", "script-src-attr", "worker-src"):
        sources = effective(policy, directive)
        if sources is None:
            problems.append(f"{directive}: not restricted")
            continue
        for source in sources:
            allowed = WORKER_SOURCES if directive == "worker-src" and "worker-src" in policy else SCRIPT_SOURCES
            if source in NEVER or (source not in allowed and not HASH_SOURCE.match(source)):
                problems.append(f"{directive} allows {source} (only 'self', 'wasm-unsafe-eval' and the "
                                "hash of an inline script on the page may run)")
    for directive in sorted(set(policy) & set(FALLBACKS)):
        if directive.startswith("script-src") or directive == "worker-src":
            continue
        for source in policy[directive]:
            if source in OTHER_SOURCES or (directive in ("style-src", "style-src-elem") and HASH_SOURCE.match(source)):
                continue
            problems.append(f"{directive} allows {source} (only 'self', 'none' and data: are allowed"
                            + (", and the hash of an inline <style>)" if directive.startswith("style") else ")"))
    if effective(policy, "object-src") != ["'none'"]:
        problems.append("object-src is not 'none'")
    if policy.get("base-uri") not in (["'none'"], ["'self'"]):
        problems.append("base-uri is not 'none' or 'self'")
    return problems


class _Reader(html.parser.HTMLParser):
    """Collects the CSP meta tags (with their position) and whatever such a policy must block."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.policies: list[tuple[str, int]] = []   # (content, elements seen before it)
        self.first_resource: int | None = None       # index of the first script/link/style
        self.elements = 0
        self.inline: list[str] = []                  # what the policy would block, as found
        self.scripts: list[tuple[int, str]] = []     # (line, text) of each inline <script>
        self.styles: list[tuple[int, str]] = []      # (line, text) of each <style>
        self._script_line: int | None = None
        self._script_text: list[str] = []
        self._style_line: int | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        line = self.getpos()[0]
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == "content-security-policy":
            self.policies.append((attrs.get("content") or "", self.elements))
        if tag in ("script", "link", "style", "img") and self.first_resource is None:
            self.first_resource = self.elements
        if tag == "script" and "src" not in attrs:
            self._script_line, self._script_text = line, []
        if tag == "script" and (attrs.get("src") or "").strip().lower().startswith("data:"):
            self.inline.append(f"line {line}: <script src=data:...>")
        if tag == "style":
            self._style_line, self._script_text = line, []
        for name, value in attrs.items():
            if EVENT_HANDLER.match(name):
                self.inline.append(f"line {line}: <{tag} {name}=...> inline event handler")
            elif name == "style":
                self.inline.append(f"line {line}: <{tag} style=...> (style-src 'self' blocks it)")
            elif name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith("javascript:"):
                self.inline.append(f"line {line}: <{tag} {name}=javascript:...>")
        self.elements += 1

    def handle_data(self, data):
        if self._script_line is not None or self._style_line is not None:
            self._script_text.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._script_line is not None:
            text = "".join(self._script_text)
            if text.strip():
                self.scripts.append((self._script_line, text))
            self._script_line = None
        if tag == "style" and self._style_line is not None:
            self.styles.append((self._style_line, "".join(self._script_text)))
            self._style_line = None


def page_csp_problems(html_text: str) -> list[str]:
    """What is wrong with one page's CSP: missing, misplaced, too weak, or contradicted by the page."""
    reader = _Reader()
    reader.feed(html_text)
    reader.close()
    if not reader.policies:
        return ["no <meta http-equiv=\"Content-Security-Policy\">"]
    problems = []
    if len(reader.policies) > 1:
        problems.append(f"{len(reader.policies)} CSP meta tags (each one is enforced; keep one)")
    content, position = reader.policies[0]
    if reader.first_resource is not None and reader.first_resource < position:
        problems.append("the CSP meta tag comes after a script, link or style: it does not cover them")
    policy = parse_policy(content)
    problems += policy_problems(policy)
    allowed = [source for source in effective(policy, "script-src-elem") or [] if HASH_SOURCE.match(source)]
    matched = set()
    for line, text in reader.scripts:
        hashes = {script_hash(text, HASH_SOURCE.match(source).group(1).lower()) for source in allowed}
        if hashes & set(allowed):
            matched |= hashes & set(allowed)
        else:
            problems.append(f"line {line}: inline <script>" + (" whose hash the policy does not name" if allowed else ""))
    problems += [f"script-src names {source}, the hash of no inline script on the page (left behind?)"
                 for source in allowed if source not in matched]
    problems += _hashed_problems(reader.styles, policy, "style-src-elem", "<style> element", "style-src")
    problems += reader.inline
    return problems


def _hashed_problems(found: list[tuple[int, str]], policy: dict[str, list[str]], directive: str, what: str,
                     named: str) -> list[str]:
    """Each inline element in `found` whose hash `directive` does not name, and each named hash
    that matches none of them (left behind)."""
    allowed = [source for source in effective(policy, directive) or [] if HASH_SOURCE.match(source)]
    problems, matched = [], set()
    for line, text in found:
        hashes = {script_hash(text, HASH_SOURCE.match(source).group(1).lower()) for source in allowed}
        if hashes & set(allowed):
            matched |= hashes & set(allowed)
        else:
            problems.append(f"line {line}: {what}" + (" whose hash the policy does not name" if allowed
                                                      else f" ({named} 'self' blocks it)"))
    return problems + [f"{named} names {source}, the hash of no {what} on the page (left behind?)"
                       for source in allowed if source not in matched]
