// The simulations on this page: finds each embed the build rendered (a `.sim[data-sim]` holding
// its widget's markup) and starts it when the reader presses Start or scrolls it into view.
// Python (the page's one worker, python.js) and the widget's own code (widget.js and the module
// that draws it) start loading earlier, when the reader comes within two screens of a widget
// (NEAR_MARGIN), so that it is ready when they arrive. Until then the page holds only this module
// and python.js: a chapter costs a few kilobytes until the reader nears a simulation.
//
// Configured by this script's own element (theme/templates/sim/_scripts.html):
//   data-sim-python   the Python bundle's URL ("" when the site has no simulations package)
//   data-sim-pyodide  the folder holding Pyodide's files
//   data-sim-bytes    how many bytes the worker downloads, for the progress bar
// A page opened from disk (file://) cannot run module scripts at all: file-notice.js explains.

import { rememberFolds } from "./folds.js";
import { Python } from "./python.js";

const WIDGETS = {
  "live-queue": "./live-queue.js",
  race: "./race.js",
  "crash-timing": "./crash-timing.js",
  payments: "./payments.js",
  judge: "./judge.js",
};
const VIEW_MARGIN = "200px 0px";   // start the widget a little before it scrolls in
// Start Python (and fetch the widget's code) while the reader is still two screens away: Pyodide's
// start takes seconds (half a minute on a busy machine), a screen of reading most of a minute, and
// a reader who skims covers a screen in about ten seconds; from one screen away, a skimmer arrived
// to wait about half of Python's start (bench/bench_widgets.py, arrival). A reader who stays further
// from every simulation, or never scrolls from the top of the page, downloads none of it.
const NEAR_MARGIN = "200% 0px";

// Sibling modules carry this module's own version (?v=...), set by the build.
const version = new URL(import.meta.url).search;
const sibling = (path) => new URL(path + version, import.meta.url).href;
const STATIC_IMPORT = /^\s*import\b[^"'`;]*?["'](\.\/[^"']+)["']/gm;   // import ... from "./x.js?v=..."

/**
 * Download a module and, recursively, the sibling modules it imports, before import() runs it.
 * A browser remembers a module that failed to download for the life of the page (HTML's module
 * map: https://html.spec.whatwg.org/multipage/webappapis.html#fetching-scripts), so import()
 * itself cannot be tried again; fetch() can, and the import that follows reads its responses
 * from the HTTP cache. Rejects with the file's name when one cannot be fetched.
 */
async function fetchModules(url, seen = new Set()) {
  if (seen.has(url)) return;
  seen.add(url);
  const name = new URL(url).pathname.split("/").pop();
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new LoadError(name, "could not be fetched (the network failed)");
  }
  if (!response.ok) throw new LoadError(name, `could not be fetched (the server answered HTTP ${response.status})`);
  const text = await response.text();
  const imports = [...text.matchAll(STATIC_IMPORT)].map((match) => new URL(match[1], url).href);
  await Promise.all(imports.map((next) => fetchModules(next, seen)));
}

class LoadError extends Error {
  constructor(file, words) {
    super(`its code (${file}) ${words}`);
    this.file = file;
  }
}

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
    sims: [...new Set(roots.map((root) => root.dataset.sim))],
  });
  const kinds = new Map();     // simulation name -> promise of its widget class
  const widgets = new Map();   // root -> promise of its widget
  const visible = new Map();   // root -> whether it is on screen now
  const refetching = new Set(); // roots whose code is fetched again after Try again

  /** The widget of `root`, made once its code is in. A download that fails is said in the
      widget, with Try again, and forgotten: the next start fetches the code again. */
  function kindFor(name) {
    if (!kinds.has(name)) {
      const url = sibling(WIDGETS[name]);
      kinds.set(name, fetchModules(url).then(() => import(url)).then((module) => module.default));
    }
    return kinds.get(name);
  }

  function widgetFor(root) {
    if (!widgets.has(root)) {
      const name = root.dataset.sim;
      const made = kindFor(name).then((Kind) => {
        const widget = new Kind(root, python);
        widget.visible = visible.get(root) ?? true;
        return widget;
      });
      made.catch((error) => {
        kinds.delete(name);
        widgets.delete(root);
        codeFailed(root, error);
      });
      widgets.set(root, made);
    }
    return widgets.get(root);
  }

  function start(root, reason) {
    const saving = navigator.connection && navigator.connection.saveData;
    if (reason === "view" && saving && python.state !== "ready") return;
    if (reason === "view" && root.dataset.state === "error") return;   // it waits for Try again
    if (python.state === "idle") python.load();   // at once: the widget's code arrives meanwhile
    widgetFor(root).then((widget) => {
      if (refetching.delete(root)) root.dataset.state = "idle";   // see retryCode: the widget takes over
      widget.start(reason);
    }, () => refetching.delete(root));
  }

  /** The widget's own code did not arrive: say so as a failed Python load is said (widget.js). */
  function codeFailed(root, error) {
    const part = (name) => root.querySelector(`[data-part="${name}"]`);
    const focused = root.contains(document.activeElement);
    const found = error instanceof LoadError;
    part("error-message").textContent = `The simulation could not start: ${
      found ? error.message : `its code could not be loaded (${error.message})`}.`;
    part("error-fix").textContent = found
      ? "Check your connection (or that the server is still running), then press Try again."
      : "Press Try again; if it fails again, reload the page.";
    root.dataset.state = "error";
    if (focused) root.querySelector('[data-action="retry"]').focus();
  }

  /** Try again on a widget whose code failed: fetch it again (a widget that exists retries itself). */
  function retryCode(root) {
    if (widgets.has(root) || root.dataset.state !== "error") return;
    const text = root.querySelector('[data-part="progress-text"]');
    text.textContent = "Loading the simulation’s code…";
    const focused = root.contains(document.activeElement);
    refetching.add(root);
    root.dataset.state = "loading";
    if (focused) text.focus();
    start(root, "click");
  }

  const watcher = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      visible.set(entry.target, entry.isIntersecting);
      if (widgets.has(entry.target)) widgets.get(entry.target).then((w) => { w.visible = entry.isIntersecting; });
      if (entry.isIntersecting) start(entry.target, "view");
    }
  }, { rootMargin: VIEW_MARGIN });
  /** The reader nears a widget: load Python and the widget's code, but start nothing yet. */
  function prepare(root) {
    if (navigator.connection && navigator.connection.saveData) return;   // only on Start, then
    if (python.state === "idle") python.load();
    const name = root.dataset.sim;
    // With the widget's code (widget.js imports recording.js), the embed's recorded run: Play
    // then moves at once, however far Python's start still has to go (recording.js).
    kindFor(name).then(() => name !== "judge" && import(sibling("./recording.js")))
      .then((module) => module && module.loadRecording(root), () => kinds.delete(name));   // said, and fetched again, if it starts
  }

  // A widget that is already near when the page opens, but out of sight (chapter 3's is two screens
  // down), waits for the reader's first scroll: a reader who reads the opening screen and leaves
  // downloads no Python, and one who reads on still gets two screens of lead.
  let scrolled = scrollY > 0;
  const waiting = new Set();
  addEventListener("scroll", () => {
    scrolled = true;
    for (const root of waiting) prepare(root);
    waiting.clear();
  }, { once: true, passive: true });
  const nearing = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      nearing.unobserve(entry.target);
      if (!scrolled && entry.boundingClientRect.top > innerHeight) waiting.add(entry.target);
      else prepare(entry.target);
    }
  }, { rootMargin: NEAR_MARGIN });
  for (const root of roots) {
    rememberFolds(root);
    nearing.observe(root);
    const button = root.querySelector('[data-action="start"]');
    // The press itself starts Python, a moment before the click completes.
    button.addEventListener("pointerdown", () => start(root, "click"));
    button.addEventListener("click", () => start(root, "click"));
    root.querySelector('[data-action="retry"]').addEventListener("click", () => retryCode(root));
    watcher.observe(root);
    // A link that sets up this widget's run: its widget is made now, to say at once if the link is bad.
    if (location.search.includes(`${root.id}.`)) widgetFor(root);
  }
  // Predict, then run: challenges beside the widgets (predict.js), loaded only on pages that have one.
  const boxes = [...document.querySelectorAll(".predict[data-predict-for]")];
  if (boxes.length) {
    const started = (root) => {
      start(root, "click");
      return widgetFor(root);
    };
    import(sibling("./predict.js")).then((module) => module.default(boxes, started));
  }
  document.documentElement.dataset.simsReady = "true";   // the widgets are wired (tests wait on it)
}

if (location.protocol !== "file:") main();
