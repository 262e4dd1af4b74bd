// "Full screen" for a simulation, for projecting it in class: the widget and its bar fill the
// screen (the browser's full screen when it has one, else the window); the button, Escape or
// the browser's own way out leave it, and the focus goes back to the button.
const stages = [...document.querySelectorAll(".sim-stage")];

function setPressed(stage, on) {
  const button = stage.querySelector('[data-action="fullscreen"]');
  stage.classList.toggle("is-fullscreen", on);
  document.documentElement.classList.toggle("has-fullscreen-sim", on);
  button.setAttribute("aria-pressed", String(on));
  button.textContent = on ? "Leave full screen" : "Full screen";
}

function current() {
  return stages.find((stage) => stage.classList.contains("is-fullscreen"));
}

async function enter(stage) {
  setPressed(stage, true);
  if (stage.requestFullscreen) {
    try {
      await stage.requestFullscreen({ navigationUI: "hide" });
    } catch {
      // Refused (an iframe without permission, an old browser): the window alone is the stage.
    }
  }
}

async function leave(stage) {
  setPressed(stage, false);
  if (document.fullscreenElement === stage) {
    try {
      await document.exitFullscreen();
    } catch {
      // Already left.
    }
  }
  stage.querySelector('[data-action="fullscreen"]').focus();
}

for (const stage of stages) {
  stage.querySelector('[data-action="fullscreen"]').addEventListener("click", () => {
    if (stage.classList.contains("is-fullscreen")) leave(stage);
    else enter(stage);
  });
}

// The browser's own Escape (or F11, or a gesture) ends its full screen: follow it.
document.addEventListener("fullscreenchange", () => {
  const stage = current();
  if (stage && document.fullscreenElement !== stage) leave(stage);
});

document.addEventListener("keydown", (event) => {
  const stage = current();
  if (event.key !== "Escape" || !stage || event.defaultPrevented) return;
  // Escape in an open <select> closes the menu first.
  if (event.target instanceof Element && event.target.closest("select")) return;
  event.preventDefault();
  leave(stage);
});
