// The simulations on this page: finds each embed the build rendered (a `.sim[data-sim]` holding
// its widget's markup), loads the module that draws it, and gives every widget the page's one
// Python worker. Python itself loads only when the reader starts a simulation or scrolls one
// into view. Configured by this script's own element (theme/templates/sim/_scripts.html):
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

async function main() {
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

  const names = [...new Set(roots.map((root) => root.dataset.sim))];
  const modules = Object.fromEntries(await Promise.all(
    names.map(async (name) => [name, (await import(sibling(WIDGETS[name]))).default])));
  const widgets = new Map(roots.map((root) => [root, new modules[root.dataset.sim](root, python)]));

  const watcher = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const widget = widgets.get(entry.target);
      widget.visible = entry.isIntersecting;
      if (entry.isIntersecting) widget.start("view");
    }
  }, { rootMargin: VIEW_MARGIN });
  for (const root of roots) watcher.observe(root);
  document.documentElement.dataset.simsReady = "true";   // the widgets are wired (tests wait on it)
}

if (location.protocol !== "file:") main();
