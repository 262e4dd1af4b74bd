// A block wider than the column (code, a diagram, a table) scrolls sideways; while it does, it
// takes keyboard focus, so it can be scrolled with the arrow keys, not only with a mouse.
// https://dequeuniversity.com/rules/axe/4.10/scrollable-region-focusable
const SCROLLERS = ".code-block pre, .diagram-art, .prose table";

// Every width is read before any attribute is written: one layout, not one per block. A block
// that is not drawn (inside a closed <details>) reports a width of 0 and is checked when it opens.
const watcher = new ResizeObserver((entries) => {
  const drawn = entries.filter((entry) => entry.contentRect.width > 0).map((entry) => entry.target);
  const scrolls = drawn.map((element) => element.scrollWidth > element.clientWidth + 1);
  drawn.forEach((element, i) => {
    if (scrolls[i]) element.setAttribute("tabindex", "0");
    else element.removeAttribute("tabindex");
  });
});
document.querySelectorAll(SCROLLERS).forEach((element) => watcher.observe(element));
