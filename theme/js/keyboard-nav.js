// The left and right arrow keys go to the previous and next chapter, unless the reader is typing,
// scrolling a wide code block, or using a simulation's controls.
const SKIP = "input, textarea, select, [contenteditable], pre, table, .sim, [data-sim], dialog";

// A click on a part of a simulation that takes no focus (its text, its table) leaves the focus
// on <main> or <body>: the reader is still "in" the simulation, so the arrows stay put until
// they click or move the focus somewhere else.
let lastClick = null;
document.addEventListener("pointerdown", (event) => {
  lastClick = event.target instanceof Element ? event.target : null;
}, { capture: true });
document.addEventListener("focusin", (event) => {
  if (event.target !== document.getElementById("main")) lastClick = null;
});

function inSimulation(event) {
  const target = event.target instanceof Element ? event.target : null;
  if (target && target.closest(SKIP)) return true;
  const unfocused = !target || target === document.body || target.id === "main";
  return unfocused && lastClick !== null && lastClick.isConnected && lastClick.closest(".sim, [data-sim]") !== null;
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (inSimulation(event)) return;
  const link = document.querySelector(event.key === "ArrowLeft" ? 'link[rel="prev"]' : 'link[rel="next"]');
  if (link) {
    event.preventDefault();
    location.href = link.href;
  }
});
