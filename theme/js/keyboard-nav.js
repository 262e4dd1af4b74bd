// The left and right arrow keys go to the previous and next chapter, unless the reader is typing,
// scrolling a wide code block, or using a simulation's controls.
const SKIP = "input, textarea, select, [contenteditable], pre, table, .sim, dialog";

document.addEventListener("keydown", (event) => {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target instanceof Element && event.target.closest(SKIP)) return;
  const link = document.querySelector(event.key === "ArrowLeft" ? 'link[rel="prev"]' : 'link[rel="next"]');
  if (link) {
    event.preventDefault();
    location.href = link.href;
  }
});
