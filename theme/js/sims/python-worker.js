// A Python in a module Web Worker (Pyodide 314 needs one) that loads the vendored Pyodide and the
// simulations package once, then answers JSON messages. Two kinds, told by the load's entry:
//   "bridge"  the page's one Python for the simulations: every widget's messages go to
//             simulations/bridge.py's handle(); the judge's verdicts are decided here.
//   "reader"  a judge widget's Run: a Python of its own for the reader's code, answering one
//             message with simulations/judge/reader.py's handle() (a trace of the effects the
//             code asked for); the page then throws the worker away.
// Only plain JSON-able values cross to the page. python.js starts each worker from a blob: URL
// that imports this file, so the worker runs under the page's own Content-Security-Policy.
//
//   page -> worker  {type: "load", pyodide: URL of the pyodide/ folder, python: URL of the bundle,
//                    total: bytes to download, warm: the names of the page's simulations,
//                    entry: "bridge" (the default) or "reader"}
//                   {type: "call", req, message: JSON text for handle()}   (kept until Python is
//                   ready, so a widget's first request needs no round trip after it starts)
//   worker -> page  {type: "progress", stage: "download" | "start" | "import", loaded, total}
//                   {type: "ready", python, sqlite}
//                   {type: "error", problem, message}    problem: a word the page turns into advice
//                   {type: "reply", req, reply: JSON text}
//
// Failures are caught here, where they happen: a missing file or a wasm file served with the
// wrong type would otherwise leave loadPyodide() hanging forever (see the project's pyodide notes).
// After reporting one, the worker waits to be terminated by the page: nothing is thrown, so no
// error escapes to the page's console.
//
// Each phase of the start leaves a performance mark named "python:<phase>" in this worker's
// timeline (DevTools shows them; bench/bench_widgets.py's `ready` reads them): worker, load,
// pyodide.mjs, bundle, started, written, sqlite3, imported, first-call, first-reply.

const realFetch = globalThis.fetch.bind(globalThis);
let handle = null;
let warmUp = [];      // what to import once the first reply is out (see warm())
let runPython = null;
const waiting = [];   // calls that came before Python was ready
let failed = false;
const download = { loaded: 0, total: 0, open: 0 };   // bytes so far, expected, requests not finished
const never = () => new Promise(() => {});           // what a failed fetch gives Pyodide: the page ends it
const mark = (phase) => performance.mark(`python:${phase}`);
mark("worker");

function post(message) {
  postMessage(message);
}

function fail(problem, message) {
  if (failed) return;
  failed = true;
  post({ type: "error", problem, message });
}

function fileName(url) {
  return String(url).split("?")[0].split("/").pop() || String(url);
}

// Reads a copy of a response's body only to count its bytes, so the page can show how much
// of the download has arrived. The original goes to Pyodide untouched (streaming compilation
// and the browser's compiled-wasm cache both keep working).
async function count(response) {
  if (!response.body) return finished();
  const reader = response.body.getReader();
  let lastPost = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      download.loaded += value.byteLength;
      const now = performance.now();
      if (now - lastPost > 200) {   // a few reports a second: the page redraws the bar for each
        lastPost = now;
        post({ type: "progress", stage: "download", loaded: download.loaded, total: download.total });
      }
    }
  } catch (error) {
    // The original stream fails the same way; Pyodide's own error path reports it.
  } finally {
    finished();
  }
}

function finished() {
  download.open -= 1;
  post({ type: "progress", stage: download.open ? "download" : "start", loaded: download.loaded,
         total: download.total });
}

// Pyodide calls the global fetch() for its wasm, its standard library and its lock file.
async function watchedFetch(input, init) {
  const url = input instanceof Request ? input.url : String(input);
  let response;
  download.open += 1;   // until its body has arrived: a request with no answer yet counts too
  try {
    response = await realFetch(input, init);
  } catch (error) {
    fail("network", `${fileName(url)} could not be fetched (${error.message || error}).`);
    return never();
  }
  if (!response.ok) {
    fail("missing", `${fileName(url)}: the server answered HTTP ${response.status}.`);
    return never();
  }
  const type = (response.headers.get("content-type") || "").split(";")[0].trim();
  if (url.split("?")[0].endsWith(".wasm") && type !== "application/wasm") {
    fail("wasm-type", `the server sends ${fileName(url)} as "${type || "no type"}", not "application/wasm".`);
    return never();
  }
  count(response.clone());
  return response;
}

async function fetchBundle(url) {
  const response = await watchedFetch(url);
  const bundle = await response.json();
  if (!bundle || typeof bundle.files !== "object") throw new Error(`${fileName(url)} holds no files`);
  return bundle.files;
}

// Why an `import()` of a Pyodide module failed: ask the server for the file and read its answer.
async function explainImport(url, error) {
  try {
    const response = await realFetch(url, { method: "GET", cache: "no-store" });
    const type = (response.headers.get("content-type") || "").split(";")[0].trim();
    if (!response.ok) return ["missing", `${fileName(url)}: the server answered HTTP ${response.status}.`];
    if (!/javascript|ecmascript/.test(type)) {
      return ["module-type", `the server sends ${fileName(url)} as "${type || "no type"}", not as JavaScript.`];
    }
  } catch (probe) {
    return ["network", `${fileName(url)} could not be fetched (${probe.message || probe}).`];
  }
  return ["python", `${fileName(url)} did not load: ${error.message || error}`];
}

const ENTRIES = {
  bridge: "from simulations.bridge import handle; handle",
  // The judge's modules are imported at the start, before any code of the reader's arrives: a
  // spare reader worker is started ahead of the Run that uses it (judge.js).
  reader: "from simulations.judge.reader import handle, warm; warm(); handle",
};

async function load({ pyodide: pyodideURL, python: pythonURL, total, warm: names, entry }) {
  mark("load");
  const reader = entry === "reader";
  warmUp = reader ? [] : ["checkpoint", ...(Array.isArray(names) ? names : [])];
  download.total = total || 0;
  globalThis.fetch = watchedFetch;
  const moduleURL = new URL("pyodide.mjs", pyodideURL).href;
  const module = import(moduleURL);        // first: it is on the way to everything else
  const bundle = fetchBundle(pythonURL);   // in parallel with Pyodide's own start
  bundle.then(() => mark("bundle"), () => {});
  bundle.catch(() => {});                  // reported below, once Pyodide is up
  module.catch(() => {});
  post({ type: "progress", stage: "download", loaded: 0, total: download.total });

  let loadPyodide;
  try {
    ({ loadPyodide } = await module);
    mark("pyodide.mjs");
  } catch (error) {
    fail(...(await explainImport(moduleURL, error)));
    return;
  }
  let pyodide;
  try {
    pyodide = await loadPyodide({ indexURL: pyodideURL, stdout: () => {}, stderr: () => {} });
  } catch (error) {
    fail("python", `Python did not start: ${error.message || error}`);
    return;
  }
  if (failed) return;
  mark("started");
  post({ type: "progress", stage: "import", loaded: download.loaded, total: download.total });
  let files;
  try {
    files = await bundle;
  } catch (error) {
    fail(failed ? "python" : "missing", `the simulations' Python (${fileName(pythonURL)}) did not load: ${error.message || error}`);
    return;
  }
  try {
    const folders = new Set();
    for (const [path, text] of Object.entries(files)) {
      if (!/^[\w/.-]+\.py$/.test(path) || path.includes("..")) continue;
      const folder = `/app/${path}`.split("/").slice(0, -1).join("/");
      if (!folders.has(folder)) pyodide.FS.mkdirTree(folder);
      folders.add(folder);
      pyodide.FS.writeFile(`/app/${path}`, text);
    }
    mark("written");
    const versions = pyodide.runPython(`
import sys, sqlite3
sys.path.insert(0, "/app")
sys.version.split()[0] + " " + sqlite3.sqlite_version`);
    mark("sqlite3");
    handle = pyodide.runPython(ENTRIES[reader ? "reader" : "bridge"]);
    runPython = (code) => pyodide.runPython(code);
    mark("imported");
    const [python, sqlite] = versions.split(" ");
    globalThis.fetch = realFetch;
    post({ type: "ready", python, sqlite });
    for (const message of waiting.splice(0)) call(message);
  } catch (error) {
    fail("python", `the simulations did not import: ${String(error.message || error).trim().split("\n").pop()}`);
  }
}

let calls = 0;

function call({ req, message }) {
  let reply;
  const first = !calls++;
  if (first) mark("first-call");
  try {
    reply = handle(message);
  } catch (error) {
    reply = JSON.stringify({ ok: false, error: { type: "WorkerError", message: String(error.message || error) } });
  }
  post({ type: "reply", req, reply });
  if (first) {
    mark("first-reply");
    setTimeout(warm);
  }
}

// Once the first reply is out, import what the page will need next (simulations/bridge.py's
// warm()): the timelines' checkpoints (the 16th move takes the first), then each simulation the
// page embeds. One a task, so a call that comes meanwhile waits behind one import at most; the
// first call does not wait for any of them (bench/bench_widgets.py, `ready`).
function warm() {
  const name = warmUp.shift();
  if (name === undefined) return;
  try {
    runPython(`import simulations.bridge; simulations.bridge.warm(${JSON.stringify(String(name))})`);
  } catch (error) {
    return;   // warm() never raises: Python itself failed, and the next call says so
  }
  setTimeout(warm);
}

addEventListener("message", ({ data }) => {
  if (data && data.type === "load") load(data);
  else if (data && data.type === "call") handle ? call(data) : waiting.push(data);
});
