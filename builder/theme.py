"""The theme: Jinja templates, the CSS bundle, the site's own scripts and static files.

theme/
  site.json        the guide's title and description
  templates/       base.html and one template per kind of page; sim/ for simulation embeds
  css/*.css        concatenated in name order into two bundles: the site's styles (every page; tokens
                   first), written into every page's <head> as an inline <style> (comments and
                   indentation left out, its sha256 hash in the page's Content-Security-Policy), so the
                   first paint waits for no request: a blocking stylesheet held chapter 3's first paint
                   behind MkDocs Material's (bench/bench_paint.py); and assets/sims.css
                   (80-89: the simulations' embeds and widgets), which only pages that embed a
                   simulation load, inside their first embed's stage (builder/pages.py)
  js/*.js          the site's scripts, one per feature: theme-init.js (run before the first paint)
                   written into every page's <head> as an inline script, its sha256 hash in the page's
                   Content-Security-Policy (INLINE_HEAD), so the first paint waits for no request of
                   it; the features (FEATURES) bundled in that order into one module,
                   assets/js/site.js, so that a page makes one request for them
  static/          copied as they are to assets/ (the favicon)

Every asset URL carries `?v=<hash>` of its content, so a reader never runs a stale script.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from pathlib import Path

import jinja2
from markupsafe import Markup

from builder.problems import Problems

STATIC_ID = re.compile(r'\bid="([A-Za-z][\w-]*)"')
# The features every page runs, in the order they start. Each is a module with no static import or
# export of its own (a dynamic import() is fine), bundled into assets/js/site.js, each in its own
# block, so its names stay its own and one that throws does not stop the others.
FEATURES = ("aliases", "theme-toggle", "sidebar", "page-toc", "code-blocks", "scrollable", "keyboard-nav", "search",
            "print", "progress", "fullscreen")   # aliases first: it rewrites an old link before the sims read it
# The one script a page runs inline, at the top of its <head>: it must act before the first paint
# (the dark theme without a flash), and an external one would hold the parser for a request.
INLINE_HEAD = "theme-init"
# Scripts of a page that is no chapter, loaded on their own: moved.js forwards an old address
# (theme/templates/moved.html, builder/moved.py).
OWN_PAGE = ("moved",)
LEADING_COMMENT = re.compile(r"\A(?:[ \t]*//[^\n]*\n)+")
SIM_CSS = re.compile(r"^8\d-")   # theme/css/80-*.css to 89-*.css: assets/sims.css, not the inline styles
CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)   # no sheet has "/*" inside a string
STATIC_IMPORT = re.compile(r"^\s*(import\s*[\w{*'\"]|export\b)", re.M)


def _csp_hash(text: str) -> str:
    """The CSP source that allows exactly this inline text: 'sha256-<base64 of its SHA-256>'."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode('utf-8')).digest()).decode('ascii')}'"


def seconds(value) -> str:
    """A time in seconds as a reader wants it: 0.0 -> "0", 2.50 -> "2.5", 1/3 -> "0.33"."""
    return f"{round(float(value), 2):g}"


class Theme:
    """Templates and assets read from one theme folder."""

    def __init__(self, folder: Path, problems: Problems, shown=str):
        self.folder = Path(folder)
        self.problems, self.shown = problems, shown
        self.site = json.loads((self.folder / "site.json").read_text(encoding="utf-8"))
        self.jinja = jinja2.Environment(
            loader=jinja2.FileSystemLoader(self.folder / "templates"), autoescape=True,
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        self.files = self._collect()
        self.versions = {path: hashlib.sha256(data).hexdigest()[:10] for path, data in self.files.items()}
        self.head_script, self.head_script_hash = self._head_script()
        self.jinja.globals.update(asset=self.asset, site=self.site, head_script=Markup(self.head_script),
                                  head_script_hash=Markup(self.head_script_hash),
                                  head_style=Markup(self.head_style), head_style_hash=Markup(self.head_style_hash))
        self.jinja.filters["seconds"] = seconds

    @functools.cached_property
    def ids(self) -> frozenset[str]:
        """Every fixed id written in a template, so chapter headings never take one."""
        found = set()
        for path in (self.folder / "templates").rglob("*.html"):
            found.update(STATIC_ID.findall(path.read_text(encoding="utf-8")))
        return frozenset(found)

    def _collect(self) -> dict[str, bytes]:
        files: dict[str, bytes] = {}
        sims, inline = [], []
        for path in sorted((self.folder / "css").glob("*.css")):
            text = path.read_text(encoding="utf-8")
            if SIM_CSS.match(path.name):
                sims.append(f"/* theme/css/{path.name} */\n{text}")
            else:
                inline.append((path, text))
        files["assets/sims.css"] = "\n".join(sims).encode("utf-8")
        self.head_style, self.head_style_hash = self._head_style(inline)
        for path in sorted((self.folder / "js").glob("*.js")):
            if path.stem not in FEATURES and path.stem != INLINE_HEAD:
                files[f"assets/js/{path.name}"] = path.read_bytes()
        files["assets/js/site.js"] = self._bundle().encode("utf-8")
        static = self.folder / "static"
        for path in sorted(p for p in static.rglob("*") if p.is_file()):
            files[f"assets/{path.relative_to(static).as_posix()}"] = path.read_bytes()
        return files

    def _head_style(self, sheets: list[tuple[Path, str]]) -> tuple[str, str]:
        """The site's styles as they go between <style> and </style> (each sheet's comments and
        indentation left out: a few kilobytes less in every page), and the CSP source of those exact
        bytes, 'sha256-...' (CSP3: a hash in style-src lets that one <style> element apply)."""
        parts = []
        for path, text in sheets:
            found = re.search(r"</style", text, re.I)
            if found:
                self.problems.add(self.shown(path), text.count("\n", 0, found.start()) + 1,
                                  "'</style' would end the inline styles early: write it another way")
                continue
            text = CSS_COMMENT.sub("", text)
            parts.append("\n".join(line.strip() for line in text.splitlines() if line.strip()))
        css = "\n".join(parts)
        return css, _csp_hash(css)

    def _head_script(self) -> tuple[str, str]:
        """theme-init.js's code (its leading comment left out) as it goes between <script> and
        </script>, and its CSP source: 'sha256-<base64 of the SHA-256 of those exact bytes>'
        (CSP3, https://www.w3.org/TR/CSP3/#match-element-to-source-list)."""
        path = self.folder / "js" / f"{INLINE_HEAD}.js"
        if not path.is_file():
            return "", ""
        code = LEADING_COMMENT.sub("", path.read_text(encoding="utf-8")).strip()
        found = re.search(r"</script|<!--", code, re.I)
        if found:
            self.problems.add(self.shown(path), code.count("\n", 0, found.start()) + 1,
                              f"{found.group(0)!r} would end the inline script early: write it another way")
            return "", ""
        return code, _csp_hash(code)

    def _bundle(self) -> str:
        """The FEATURES as one module: each file's text in a block, its errors reported, not thrown."""
        parts = ["// The site's features, bundled by builder/theme.py from theme/js/ (one file each).\n"]
        for name in FEATURES:
            path = self.folder / "js" / f"{name}.js"
            if not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            found = STATIC_IMPORT.search(text)
            if found:
                line = text.count("\n", 0, found.start()) + 1
                self.problems.add(self.shown(path), line, "a feature script cannot import or export statically "
                                  "(the features are bundled into one module): use import() or a sims/ module")
                continue
            parts.append(f"// theme/js/{name}.js\ntry {{\n{text}\n}} catch (error) {{\n  reportError(error);\n}}\n")
        return "\n".join(parts)

    def asset(self, path: str) -> str:
        """`js/search.js` -> `assets/js/search.js?v=1a2b3c4d5e` (relative to the site's root)."""
        key = f"assets/{path}"
        if key not in self.versions:
            raise jinja2.TemplateRuntimeError(f"asset({path!r}): no {key} in the theme")
        return f"{key}?v={self.versions[key]}"

    def render(self, template: str, **context) -> str:
        """Render a template; a template error becomes a problem naming its file and line."""
        try:
            return self.jinja.get_template(template).render(**context)
        except jinja2.TemplateSyntaxError as error:
            self.problems.add(self.shown(self.folder / "templates" / (error.name or template)),
                              error.lineno, f"template: {error.message}")
        except jinja2.TemplateError as error:
            self.problems.add(self.shown(self.folder / "templates" / template), None,
                              f"template: {error}")
        return ""

    def render_sim(self, context: dict) -> str:
        """The HTML of one simulation embed (sim/<name>.html if the theme has it, else generic)."""
        return Markup(self.render("sim/_embed.html", sim=context))
