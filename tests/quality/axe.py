"""Run axe-core (the npm package in node_modules/) in a Playwright page and list its violations.

axe-core checks the rendered page against WCAG 2.x A and AA and its own best-practice rules:
https://github.com/dequelabs/axe-core/blob/develop/doc/API.md (axe.run, its context and results).
The script is evaluated in the page by Playwright (not added as a <script>), so the page's own
Content-Security-Policy stays exactly as strict as it is for readers.

axe-core ships some rules switched off (`enabled: false` in its rule list), among them
`target-size` (WCAG 2.2 2.5.8: a target at least 24 by 24 CSS px, or spaced so), which Lighthouse
runs. RULES switches them on for every run here, so a small target fails our tests first.
"""
from __future__ import annotations

import functools

from tests.conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

RULES = {"target-size": {"enabled": True}}

RUN = """async ([include, rules]) => {
  const context = include ? { include: [...document.querySelectorAll(include)] } : document;
  if (include && context.include.length === 0) return [];
  const results = await axe.run(context, { resultTypes: ["violations"], rules });
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary.replace(/\\s+/g, " ")}`),
  }));
}"""


@functools.cache
def axe_source() -> str:
    if not AXE.is_file():
        raise FileNotFoundError(f"{AXE}: missing; run `npm ci --ignore-scripts` (see README.md)")
    return AXE.read_text(encoding="utf-8")


def axe_violations(page, include: str | None = None) -> list[str]:
    """axe's violations in `page` (or only inside the elements matching the CSS selector
    `include`), one line per rule: `rule-id (impact): help -- target: why; target: why`."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(RUN, [include, RULES])
    return [f"{v['id']} ({v['impact']}): {v['help']} -- " + "; ".join(v["nodes"][:6])
            + (f"; ... {len(v['nodes']) - 6} more" if len(v["nodes"]) > 6 else "")
            for v in found]
