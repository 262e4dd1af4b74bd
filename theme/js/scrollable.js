// A block wider than the column (code, a diagram, a table) scrolls sideways; while it does, it
// takes keyboard focus, so it can be scrolled with the arrow keys, not only with a mouse.
// https://dequeuniversity.com/rules/axe/4.10/scrollable-region-focusable
const SCROLLERS = ".code-block pre, .diagram-art, .prose table";

function focusIfScrolls(element) {
  if (element.scrollWidth > element.clientWidth + 1) element.setAttribute("tabindex", "0");
  else element.removeAttribute("tabindex");
}

const watcher = new ResizeObserver((entries) => entries.forEach((entry) => focusIfScrolls(entry.target)));
document.querySelectorAll(SCROLLERS).forEach((element) => watcher.observe(element));
