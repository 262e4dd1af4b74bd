// The simulations on this page: finds each embed the build rendered (a `.sim[data-sim]` holding
// its widget's markup) and starts it when the reader presses Start or scrolls it into view.
// Until then the page holds only this module and python.js: a widget's own code (widget.js and
// the module that draws it) is fetched when it starts, while Python loads, so a chapter costs a
// few kilobytes until a simulation is used. Python itself is the page's one worker (python.js).
//
// Configured by this script's own element (theme/templates/sim/_scripts.html):
//   data-sim-python   the Python bundle's URL ("" when the site has no simulations package)
//   data-sim-pyodide  the folder holding Pyodide's files
//   data-sim-bytes    how many bytes the worker downloads, for the progress bar
// A page opened from disk (file://) cannot run module scripts at all: file-notice.js explains.

import { Python } from "./python.js";

const WIDGETS = {
  "live-queue": "./live-queue.js",
  race: "./race.js",
  "crash-timing": "./crash-timing.js",
  payments: "./payments.js",
};
const VIEW_MARGIN = "200px 0px";   // start loading a little before the widget scrolls in

// Sibling modules carry this module's own version (?v=...), set by the build.
const version = new URL(import.meta.url).search;
const sibling = (path) => new URL(path + version, import.meta.url).href;

function main() {
  const script = document.querySelector("script[data-sim-python]");
  if (!script || !script.dataset.simPython) return;
  const roots = [...document.querySelectorAll(".sim[data-sim]")]
    .filter((root) => Object.hasOwn(WIDGETS, root.dataset.sim) && root.id && root.querySelector(".sim-widget"));
  if (!roots.length) return;

  const python = new Python({
    worker: sibling("./python-worker.js"),
    pyodide: new URL(script.dataset.simPyodide, document.baseURI).href,
    python: new URL(script.dataset.simPython, document.baseURI).href,
    total: Number(script.dataset.simBytes) || 0,
  });
  const kinds = new Map();     // simulation name -> promise of its widget class
  const widgets = new Map();   // root -> promise of its widget
  const visible = new Map();   // root -> whether it is on screen now

  function widgetFor(root) {
    if (!widgets.has(root)) {
      const name = root.dataset.sim;
      if (!kinds.has(name)) kinds.set(name, import(sibling(WIDGETS[name])).then((module) => module.default));
      widgets.set(root, kinds.get(name).then((Kind) => {
        const widget = new Kind(root, python);
        widget.visible = visible.get(root) ?? true;
        return widget;
      }));
    }
    return widgets.get(root);
  }

  function start(root, reason) {
    const saving = navigator.connection && navigator.connection.saveData;
    if (reason === "view" && saving && python.state !== "ready") return;
    if (python.state === "idle") python.load();   // at once: the widget's code arrives meanwhile
    widgetFor(root).then((widget) => widget.start(reason));
  }

  const watcher = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      visible.set(entry.target, entry.isIntersecting);
      if (widgets.has(entry.target)) widgets.get(entry.target).then((w) => { w.visible = entry.isIntersecting; });
      if (entry.isIntersecting) start(entry.target, "view");
    }
  }, { rootMargin: VIEW_MARGIN });
  for (const root of roots) {
    const button = root.querySelector('[data-action="start"]');
    // The press itself starts Python, a moment before the click completes.
    button.addEventListener("pointerdown", () => start(root, "click"));
    button.addEventListener("click", () => start(root, "click"));
    watcher.observe(root);
    // A link that sets up this widget's run: its widget is made now, to say at once if the link is bad.
    if (location.search.includes(`${root.id}.`)) widgetFor(root);
  }
  document.documentElement.dataset.simsReady = "true";   // the widgets are wired (tests wait on it)
}

if (location.protocol !== "file:") main();
