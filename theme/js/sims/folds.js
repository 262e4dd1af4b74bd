// A widget's folds (<details data-fold>, sim/_parts.html: its settings, figures, tables and log)
// start closed so the picture and Play share one screen; one a reader opens stays open on every
// page and visit, per simulation and fold ("sim-fold:live-queue:log" in localStorage), and one they
// close stays closed. print.js opens every fold while printing and closes them after: that round
// trip is left out of what is remembered.

const KEY = "sim-fold:";
let printing = false;
addEventListener("beforeprint", () => { printing = true; });
addEventListener("afterprint", () => { setTimeout(() => { printing = false; }); });

function store() {
  try {
    return window.localStorage;
  } catch {
    return null;   // storage refused (a private window's policy): folds simply start closed
  }
}

/** Open the folds of the widget `root` its reader left open, and remember each change. */
export function rememberFolds(root) {
  const storage = store();
  if (!storage) return;
  for (const fold of root.querySelectorAll("details[data-fold]")) {
    const key = `${KEY}${root.dataset.sim}:${fold.dataset.fold}`;
    if (storage.getItem(key) === "open") fold.open = true;
    fold.addEventListener("toggle", () => {
      if (printing) return;
      try {
        if (fold.open) storage.setItem(key, "open");
        else storage.removeItem(key);
      } catch {
        // Storage full or refused: the fold works, it is just not remembered.
      }
    });
  }
}
