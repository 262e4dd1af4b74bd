"""Layout shifts: content that moves after it was shown (a script folding a list, a late banner).

Chromium reports each shift (Layout Instability API, https://wicg.github.io/layout-instability/);
the sum of those not caused by the reader's input is close to Lighthouse's Cumulative Layout
Shift, which weighs 25% of its performance score (0.1 or less is "good":
https://web.dev/articles/cls). Our pages move nothing, so any shift is reported.
"""
from __future__ import annotations

RECORD = """(() => {
  window.__layoutShifts = [];
  const describe = (node) => !node || node.nodeType !== 1 ? String(node && node.nodeName)
    : node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") + (node.className && typeof node.className === "string"
      ? "." + node.className.trim().split(/\\s+/).join(".") : "");
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__layoutShifts.push({ value: entry.value, at: Math.round(entry.startTime),
        moved: (entry.sources || []).map((s) => `${describe(s.node)} from y=${Math.round(s.previousRect.y)} to y=${Math.round(s.currentRect.y)}`) });
    }
  }).observe({ type: "layout-shift", buffered: true });
})();"""

THRESHOLD = 0.01   # well under Lighthouse's "good" (0.1); sub-pixel rounding stays under it


def layout_shifts(page) -> list[str]:
    """The shifts recorded so far in `page` (loaded with RECORD as an init script), as problems:
    one line per shift when they add up to THRESHOLD or more, else an empty list."""
    shifts = page.evaluate("() => window.__layoutShifts || []")
    total = sum(shift["value"] for shift in shifts)
    if total < THRESHOLD:
        return []
    return [f"{shift['value']:.3f} at {shift['at']} ms: " + "; ".join(shift["moved"][:3]) for shift in shifts]
