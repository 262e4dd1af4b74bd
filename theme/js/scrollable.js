// A block wider than the column (code, a diagram, a table) scrolls sideways; while it does, it
// takes keyboard focus, so it can be scrolled with the arrow keys, not only with a mouse.
// https://dequeuniversity.com/rules/axe/4.10/scrollable-region-focusable
// A simulation's table box (already focusable: it also scrolls down) says so when it scrolls
// sideways: a shadow on its right edge and the words "Scroll sideways for more" above it, shown
// only while it overflows (a table that scrolls sideways must say so, or a reader misses its columns).
const SCROLLERS = ".code-block pre, .diagram-art, .prose table";
const CUED = ".sim-table-box";

function cue(box) {
  if (box.previousElementSibling?.classList.contains("scroll-cue")) return box.previousElementSibling;
  const words = document.createElement("p");
  words.className = "scroll-cue";
  words.setAttribute("aria-hidden", "true");   // for the eye: the table's cells read in order anyway
  words.textContent = "Scroll sideways for more →";
  box.before(words);
  return words;
}

// Every width is read before any attribute is written: one layout, not one per block. A block
// that is not drawn (inside a closed <details>) reports a width of 0 and is checked when it opens.
const watcher = new ResizeObserver((entries) => {
  const drawn = entries.filter((entry) => entry.contentRect.width > 0).map((entry) => entry.target);
  const scrolls = drawn.map((element) => element.scrollWidth > element.clientWidth + 1);
  drawn.forEach((element, i) => {
    if (element.matches(CUED)) {
      element.toggleAttribute("data-scrolls-sideways", scrolls[i]);
      cue(element).classList.toggle("is-shown", scrolls[i]);
    } else if (scrolls[i]) element.setAttribute("tabindex", "0");
    else element.removeAttribute("tabindex");
  });
});
// guide.html: the browser does not lay out the chapters off screen (content-visibility,
// 60-navigation.css), and the watcher hears of a block there only once its chapter is drawn. Until
// then any of them may scroll, so each takes focus from the start; the watcher takes it back from
// a block that turns out to fit. Measuring them now would lay out the whole page.
document.querySelectorAll(`.guide-chapter :is(${SCROLLERS})`).forEach((element) => element.setAttribute("tabindex", "0"));
document.querySelectorAll(SCROLLERS).forEach((element) => watcher.observe(element));
// A table's width changes with its rows: watch the table inside the box too.
document.querySelectorAll(CUED).forEach((box) => {
  watcher.observe(box);
  const table = box.querySelector("table");
  if (table) new ResizeObserver(() => { watcher.unobserve(box); watcher.observe(box); }).observe(table);
});
