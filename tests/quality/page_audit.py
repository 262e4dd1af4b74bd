"""Audit one page in Chromium the way a reader uses it, recording everything the checks judge.

One audit = one fresh browser context, one page, in this order:
  1. load the page, recording layout shifts; its simulations stay idle (the reader's browser
     asks to save data, so no widget starts by itself when scrolled into view);
  2. axe-core on the whole page, light then dark (the system's colour scheme);
  3. start every simulation (its "Start" button) and wait until each is `ready`; axe on the
     widgets, light and dark;
  4. open every <details>, then use every control: click each enabled button (the theme toggle
     and a simulation's "Full screen" twice, each <summary> twice), pick each option of each <select>, re-enter each field's
     value, tick each checkbox twice; axe on the widgets again (open answers and settings
     included), light and dark;
  5. open search, type a word, wait for the results; axe on the search dialog, light and dark;
  6. stop recording, then check that the Content-Security-Policy is in force: inject an inline
     script, an inline event handler and a string timer (an eval), and see that none runs.

Every request is recorded; one to another origin is aborted before it leaves the machine (and is
a problem), as is any failed request or HTTP error, console error, and uncaught exception (from
the page or its workers). Layout shifts are recorded while the page loads (step 1).
"""
from __future__ import annotations

import dataclasses
import time

from tests.quality.axe import axe_violations
from tests.quality.layout_shift import RECORD, layout_shifts
from tests.support.served import origin

SIMS = ".sim[data-sim]"
READY_SECONDS = 120          # a cold Pyodide start takes 3-4 s here; a loaded CI machine, more
CLICK_MS = 10000             # Playwright waits this long for a control to be visible, stable, enabled
SAVE_DATA = """(() => {
  // The reader asked to save data: simulations start only when the reader presses Start.
  const info = navigator.connection;
  if (info) Object.defineProperty(Object.getPrototypeOf(info), "saveData", { get: () => true });
})();"""

WIDGET_STATES = """(selector) => [...document.querySelectorAll(selector)].map((root) => ({
  id: root.id, sim: root.dataset.sim, state: root.dataset.state,
  message: root.dataset.state === "error" ? root.innerText.slice(0, 300) : "" }))"""

CSP_PROBE = """() => new Promise((resolve) => {
  const blocked = [];
  document.addEventListener("securitypolicyviolation", (e) => blocked.push(e.violatedDirective));
  window.__cspProbe = [];
  const script = document.createElement("script");
  script.textContent = "window.__cspProbe.push('inline <script>')";
  document.head.append(script);
  const button = document.createElement("button");
  button.setAttribute("onclick", "window.__cspProbe.push('inline onclick')");
  document.body.append(button);
  button.click();
  button.remove();
  try { setTimeout("window.__cspProbe.push('string setTimeout (eval)')", 0); } catch (e) {}
  setTimeout(() => resolve({ ran: window.__cspProbe, blocked }), 300);
})"""

# Every control a reader can use, once every <details> is open (as a reader can open them):
# [selector for it, kind, name, is a view toggle pressed twice], in page order.
CONTROLS = """() => {
  // Not opacity: a copy button is transparent until the pointer is over its code block.
  const visible = (e) => e.checkVisibility({ visibilityProperty: true });
  document.querySelectorAll("details:not([open])").forEach((details) => { details.open = true; });
  const found = [];
  document.querySelectorAll("button, select, input, textarea, summary").forEach((e, i) => {
    // Inert by design: from 80rem the page contents' <summary> is a title (pointer-events: none).
    if (e.closest("dialog") || e.disabled || !visible(e) || getComputedStyle(e).pointerEvents === "none") return;
    if (e.id === "search-open") return;   // search is used on its own, in step 5
    e.dataset.auditControl = String(i);
    const kind = e.tagName === "INPUT" ? `input-${e.type}` : e.tagName.toLowerCase();
    const name = (e.getAttribute("aria-label") || e.labels?.[0]?.textContent || e.textContent || e.name || "")
      .replace(/\\s+/g, " ").trim().slice(0, 60);
    // Toggles of the whole view (theme, a simulation's full screen) are pressed twice, to put them back.
    found.push([`[data-audit-control="${i}"]`, kind, name, e.id === "theme-toggle" || e.dataset.action === "fullscreen"]);
  });
  return found;
}"""


@dataclasses.dataclass
class Audit:
    """What one page did while it was used. Every list of strings is a list of problems, except
    `requests`, `controls_used` and `csp_blocked`."""

    page: str
    url: str
    axe: dict[str, list[str]] = dataclasses.field(default_factory=dict)   # phase -> violations
    requests: list[str] = dataclasses.field(default_factory=list)
    outside: list[str] = dataclasses.field(default_factory=list)          # to another origin
    failed: list[str] = dataclasses.field(default_factory=list)           # failed, or HTTP >= 400
    console: list[str] = dataclasses.field(default_factory=list)          # errors, exceptions
    widgets: list[str] = dataclasses.field(default_factory=list)          # did not reach a state
    controls: list[str] = dataclasses.field(default_factory=list)         # could not be used
    controls_used: list[str] = dataclasses.field(default_factory=list)
    csp: list[str] = dataclasses.field(default_factory=list)              # ran despite the CSP
    csp_blocked: list[str] = dataclasses.field(default_factory=list)      # directives that blocked
    shifts: list[str] = dataclasses.field(default_factory=list)           # layout moved as it loaded
    broken: str = ""                                                       # the audit itself failed
    seconds: float = 0.0

    def axe_problems(self, scheme: str) -> list[str]:
        return [f"[{phase}] {v}" for phase, found in self.axe.items() if phase.endswith(scheme) for v in found]


class _Recorder:
    """Listens to a context and its pages; aborts any request for another origin."""

    def __init__(self, context, audit: Audit, origin: str):
        self.audit, self.origin, self.on = audit, origin, True
        context.route(lambda url: not self._ours(url), self._elsewhere)
        context.on("request", self._request)
        context.on("requestfailed", self._failed)
        context.on("response", self._response)
        context.on("console", self._console)
        context.on("weberror", lambda error: self._problem(self.audit.console, f"uncaught: {error.error}"))
        context.on("page", self._page)

    def _ours(self, url: str) -> bool:
        return url.startswith(self.origin) or url.startswith(("data:", "blob:", "about:"))

    def _problem(self, where: list[str], text: str) -> None:
        if self.on:
            where.append(text)

    def _elsewhere(self, route) -> None:
        route.abort("blockedbyclient")   # never let it leave the machine

    def _page(self, page) -> None:
        page.on("worker", lambda worker: worker.on("console", self._worker_console))

    def _request(self, request) -> None:
        if self.on:
            self.audit.requests.append(request.url)
        if not self._ours(request.url):
            self._problem(self.audit.outside, f"{request.method} {request.url}")

    def _failed(self, request) -> None:
        if self._ours(request.url):
            self._problem(self.audit.failed, f"{request.url}: {request.failure}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self._problem(self.audit.failed, f"{response.url}: HTTP {response.status}")

    def _console(self, message) -> None:
        if message.type in ("error", "assert"):
            where = message.location or {}
            self._problem(self.audit.console, f"console {message.type}: {message.text} "
                                              f"({where.get('url', '')}:{where.get('lineNumber', '')})")

    def _worker_console(self, message) -> None:
        if message.type in ("error", "assert"):
            self._problem(self.audit.console, f"worker console {message.type}: {message.text}")


def _axe_both(page, audit: Audit, phase: str, include: str | None = None) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        audit.axe[f"{phase}, {scheme}"] = axe_violations(page, include)
    page.emulate_media(color_scheme="light")


def _wait_for_widgets(page, audit: Audit, state: str, seconds: float, idle_seconds: float = 20) -> bool:
    """Wait until every widget is in `state`. A widget in `error` stops the wait at once, and so
    does one still `idle` after `idle_seconds` when waiting for another state (Start did nothing)."""
    started = time.monotonic()
    while True:
        widgets = page.evaluate(WIDGET_STATES, SIMS)
        waited = time.monotonic() - started
        errors = [w for w in widgets if w["state"] == "error"]
        others = [w for w in widgets if w["state"] != state]
        stuck = state != "idle" and waited > idle_seconds and any(w["state"] == "idle" for w in others)
        if errors or not others or stuck or waited > seconds:
            break
        page.wait_for_timeout(250)
    for w in errors or others:
        audit.widgets.append(f"#{w['id']} ({w['sim']}) is {w['state']}, not {state}, after {waited:.0f} s"
                             + (f": {' '.join(w['message'].split())}" if w["message"] else ""))
    return not (errors or others)


def _start_widgets(page, audit: Audit) -> None:
    """Press each idle simulation's Start button, as a reader would, one after the other."""
    for root in page.locator(SIMS).all():
        start = root.locator('[data-action="start"]')
        try:
            if root.get_attribute("data-state") == "idle" and start.is_visible() and start.is_enabled():
                start.click(timeout=CLICK_MS)
        except Exception as error:   # noqa: BLE001 - reported; the wait for `ready` tells the rest
            if root.get_attribute("data-state") == "idle":
                audit.widgets.append(f"#{root.get_attribute('id')}: its Start button could not be pressed: "
                                     f"{str(error).splitlines()[0]}")


def _use_controls(page, audit: Audit) -> None:
    for selector, kind, name, is_theme in page.evaluate(CONTROLS):
        control = page.locator(selector)
        label = f"{kind} {name!r}"
        try:
            if not control.is_visible() or not control.is_enabled():
                continue   # hidden or disabled by an earlier control (Play hides Start...)
            if kind == "select":
                values = control.evaluate("(s) => [...s.options].filter((o) => !o.disabled).map((o) => o.value)")
                before = control.input_value()
                for value in values:
                    control.select_option(value, timeout=CLICK_MS)
                control.select_option(before, timeout=CLICK_MS)
            elif kind in ("input-checkbox", "input-radio"):
                control.click(timeout=CLICK_MS)
                if kind == "input-checkbox":
                    control.click(timeout=CLICK_MS)
            elif kind.startswith("input-") or kind == "textarea":
                value = control.input_value()
                control.fill(value, timeout=CLICK_MS)
                control.press("Tab", timeout=CLICK_MS)
            else:
                control.click(timeout=CLICK_MS)
                if kind == "summary" or is_theme:
                    control.click(timeout=CLICK_MS)   # put it back as it was
            audit.controls_used.append(label)
        except Exception as error:   # noqa: BLE001 - any failure to use a control is reported
            if control.is_visible() and control.is_enabled():
                audit.controls.append(f"{label}: {str(error).splitlines()[0]}")


def _use_search(page, audit: Audit, axe: bool) -> None:
    button = page.locator("#search-open")
    if not button.count() or not button.is_visible():
        return
    button.click()
    box = page.get_by_role("searchbox")
    box.fill("lease")
    try:
        page.locator("#search-results li").first.wait_for(timeout=15000)
        audit.controls_used.append("search 'lease'")
    except Exception as error:   # noqa: BLE001
        audit.controls.append(f"search: no result listed for 'lease' ({str(error).splitlines()[0]})")
    if axe:
        _axe_both(page, audit, "search dialog", "#search-dialog")
    page.keyboard.press("Escape")


def audit_page(browser, url: str, name: str, *, axe: bool = True, controls: bool = True) -> Audit:
    """Load `url` in a fresh context of `browser` and audit it (see the module docstring).

    `axe=False` skips the accessibility runs and `controls=False` the use of every control
    (simulations are still started, and search still used): a check of requests alone.
    """
    started = time.monotonic()
    audit = Audit(name, url)
    context = browser.new_context(color_scheme="light", viewport={"width": 1280, "height": 900})
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin(url).rstrip("/"))
        context.add_init_script(SAVE_DATA)
        context.add_init_script(RECORD)
        recorder = _Recorder(context, audit, origin(url))
        page = context.new_page()
        page.goto(url, wait_until="load")
        page.wait_for_load_state("networkidle")
        audit.shifts = layout_shifts(page)
        has_sims = page.locator(SIMS).count() > 0
        if has_sims:
            _wait_for_widgets(page, audit, "idle", 5)
        if axe:
            _axe_both(page, audit, "page")
        if has_sims:
            _start_widgets(page, audit)
            if _wait_for_widgets(page, audit, "ready", READY_SECONDS) and axe:
                _axe_both(page, audit, "simulations ready", SIMS)
        if controls:
            _use_controls(page, audit)
            page.wait_for_timeout(500)
            if has_sims and axe:
                _axe_both(page, audit, "simulations used", SIMS)
        _use_search(page, audit, axe)
        page.wait_for_load_state("networkidle")
        if has_sims and controls:
            _wait_for_widgets(page, audit, "ready", 10)
        recorder.on = False   # the probe below makes the browser report blocked scripts
        probe = page.evaluate(CSP_PROBE)
        audit.csp = [f"{what} ran: the Content-Security-Policy did not block it" for what in probe["ran"]]
        audit.csp_blocked = probe["blocked"]
    except Exception as error:   # noqa: BLE001 - reported by every check of this page
        audit.broken = f"{type(error).__name__}: {error}"
    finally:
        context.close()
    audit.seconds = time.monotonic() - started
    return audit
