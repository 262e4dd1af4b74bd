// The page's side of a Python worker (python-worker.js): starts it on first use, reports how the
// loading goes, turns every failure into words a reader can act on, and sends messages to it.
// The page's one Python for the simulations is one instance, shared by every widget
// (simulations/bridge.py); each Run of a judge widget has a throwaway one of its own (callOnce(),
// entry "reader", simulations/judge/reader.py), whose messages are data and nothing more.
//
// Every worker is started from a blob: URL holding one line, an import of python-worker.js by its
// absolute URL: a worker made from a blob: URL runs under its creator's Content-Security-Policy
// (https://w3c.github.io/webappsec-csp/#initialize-global-object-csp: "local scheme" workers
// inherit their creator's policy container), so the page's connect-src 'self' binds the worker
// too. A worker loaded from its own URL would get only the policy its HTTP response sends, and a
// static host sends none.
//
// Events (an EventTarget): "loading", "progress" {detail: {stage, loaded, total, text}},
// "ready", "error" {detail: {problem, message, fix}}, and around restart(): "restarting" and
// "restarted" {detail: {reason}} (each widget rebuilds its simulation: rebuild.js).

const STALL_SECONDS = { download: 30, start: 90, import: 90 };  // no word from the worker this long: give up
const CALL_SECONDS = 30;  // every call is bounded by the simulations; one this slow means a stuck worker

const FIXES = {
  file: "Pages opened straight from disk cannot run Python. Serve the folder instead: in a terminal, " +
        "in the guide's folder, run `python3 build.py --serve` (or, in the folder holding this page, " +
        "`python3 -m http.server`) and open the address it prints.",
  "wasm-type": "The web server must send .wasm files as application/wasm. `python3 build.py --serve` " +
               "and `python3 -m http.server` both do; configure your own server the same way.",
  "module-type": "The web server must send .mjs and .js files as text/javascript. `python3 build.py --serve` does.",
  missing: "A file of the site is missing. Rebuild it with `python3 build.py` (after `npm ci`), then reload.",
  network: "The connection to the server failed. Check that the server is still running, then try again.",
  stalled: "Loading stopped making progress. The connection may be very slow or the server busy: try again.",
  stuck: "Python stopped answering. Try again: the simulation starts over.",
  python: "Python could not start in this browser. Try again, or try a recent Chrome, Firefox or Safari.",
  unsupported: "This browser cannot run Python in a background worker. Try a recent Chrome, Firefox or Safari.",
};

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1);
}

/** A blob: URL for a module worker whose only line imports `url` (absolute, same origin). */
function inheritingURL(url) {
  const line = `import ${JSON.stringify(new URL(url, location.href).href)};\n`;
  return URL.createObjectURL(new Blob([line], { type: "text/javascript" }));
}

export class Python extends EventTarget {
  /** config: {worker: URL, pyodide: URL, python: URL, total: bytes, sims: the names of the page's
      simulations, imported in the worker once the first reply is out, entry: "bridge" (default)
      or "reader"} (all URLs absolute). A "reader" worker is not trusted: its messages never
      become the page's words (see receive()). */
  constructor(config) {
    super();
    this.config = config;
    this.state = "idle";       // idle | loading | ready | error (the same words as a widget's data-state)
    this.progress = null;      // the latest progress detail
    this.failure = null;       // {problem, message, fix} when failed
    this.worker = null;
    this.pending = new Map();  // req -> {resolve, timer}
    this.nextReq = 1;
    this.ready = null;         // a promise, once loading started
  }

  /** Start Python (once); resolves when the simulations can be called, rejects on failure. */
  load() {
    if (this.state === "loading" || this.state === "ready") return this.ready;
    this.ready = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.ready.catch(() => {});
    this.state = "loading";
    this.failure = null;
    this.progress = null;
    this.dispatchEvent(new Event("loading"));
    if (location.protocol === "file:") {
      queueMicrotask(() => this.fail("file", "This page was opened as a file, not from a web server."));
      return this.ready;
    }
    if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
      queueMicrotask(() => this.fail("unsupported", "This browser has no Web Workers or WebAssembly."));
      return this.ready;
    }
    const reader = this.config.entry === "reader";
    let url;
    try {
      url = inheritingURL(this.config.worker);
      this.worker = new Worker(url, { type: "module", name: reader ? "reader" : "python" });
    } catch (error) {
      if (url) URL.revokeObjectURL(url);
      queueMicrotask(() => this.fail("unsupported", `The Python worker could not start: ${error.message}`));
      return this.ready;
    }
    // The worker has fetched its blob once it says anything (its first message is progress).
    this.worker.addEventListener("message", () => URL.revokeObjectURL(url), { once: true });
    this.worker.addEventListener("message", (event) => this.receive(event.data));
    this.worker.addEventListener("error", (event) => {
      event.preventDefault();  // reported to the reader instead of the console
      this.fail("python", `The Python worker stopped: ${event.message || "it could not be loaded"}.`);
    });
    this.worker.postMessage({ type: "load", pyodide: this.config.pyodide, python: this.config.python,
                              total: this.config.total, warm: this.config.sims || [],
                              entry: reader ? "reader" : "bridge" });
    this.setProgress({ stage: "download", loaded: 0, total: this.config.total });
    return this.ready;
  }

  /** Throw the failed worker away and start again. */
  retry() {
    if (this.state === "loading" || this.state === "ready") return this.ready;
    this.state = "idle";
    return this.load();
  }

  setProgress(detail) {
    const { stage, loaded, total } = detail;
    let text;
    if (stage === "download") {
      text = total ? `Downloading Python: ${megabytes(Math.min(loaded, total))} of ${megabytes(total)} MB`
                   : "Downloading Python";
    } else if (stage === "start") {
      text = "Starting Python";
    } else {
      text = "Loading the simulations";
    }
    this.progress = { ...detail, text };
    this.watch(STALL_SECONDS[stage] || 60);
    this.dispatchEvent(new CustomEvent("progress", { detail: this.progress }));
  }

  watch(seconds) {
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => {
      if (this.state === "loading") {
        this.fail("stalled", `Nothing new arrived for ${seconds} s while ${this.progress.text.toLowerCase()}.`);
      }
    }, seconds * 1000);
  }

  receive(data) {
    if (!data || typeof data !== "object") return;
    const trusted = this.config.entry !== "reader";
    if (data.type === "progress" && this.state === "loading") {
      const number = (value) => (Number.isFinite(value) && value >= 0 ? value : 0);
      this.setProgress({ stage: ["download", "start", "import"].includes(data.stage) ? data.stage : "start",
                         loaded: number(data.loaded), total: number(data.total) });
    } else if (data.type === "ready" && this.state === "loading") {
      clearTimeout(this.stallTimer);
      this.state = "ready";
      for (const [req, waiting] of this.pending) waiting.timer = this.limit(req, waiting.resolve, waiting.options);
      this.versions = { python: String(data.python).slice(0, 20), sqlite: String(data.sqlite).slice(0, 20) };
      this.dispatchEvent(new Event("ready"));
      this.settle.resolve();
    } else if (data.type === "error") {
      // A worker's words about its own failure are shown only from the page's own worker, and
      // only while it starts; a problem the page does not know is "python".
      const problem = Object.hasOwn(FIXES, data.problem) ? data.problem : "python";
      if (trusted && this.state === "loading") this.fail(problem, String(data.message).slice(0, 300));
      else this.fail(problem, "Python reported that it failed.");
    } else if (data.type === "reply") {
      const waiting = this.pending.get(data.req);
      if (!waiting) return;
      this.pending.delete(data.req);
      clearTimeout(waiting.timer);
      let reply = null;
      try {
        reply = JSON.parse(String(data.reply));
      } catch (error) { /* said below */ }
      const shaped = reply && typeof reply === "object" && (reply.ok === true ||
        (reply.ok === false && reply.error && typeof reply.error === "object"));
      if (!shaped) reply = { ok: false, error: { type: "ReplyError", message: "The simulation's reply was not JSON." } };
      else if (!reply.ok) reply.error.type = String(reply.error.type).slice(0, 60);
      waiting.resolve(reply);
    }
  }

  fail(problem, message) {
    if (this.state === "error" || this.state === "ended") return;
    const wasReady = this.state === "ready";
    clearTimeout(this.stallTimer);
    this.state = "error";
    this.failure = { problem, message, fix: FIXES[problem] || FIXES.python };
    if (this.worker) this.worker.terminate();
    this.worker = null;
    for (const { resolve, timer } of this.pending.values()) {
      clearTimeout(timer);
      resolve({ ok: false, error: { type: "Stopped", message } });
    }
    this.pending.clear();
    if (!wasReady) this.settle.reject(new Error(message));
    this.dispatchEvent(new CustomEvent("error", { detail: this.failure }));
  }

  /** End the worker and start a fresh one, e.g. when a reader's code overstays its time. Calls
      waiting are answered {ok: false, error: {type: "Stopped"}}; "restarting" is said first (so
      widgets keep what they need to rebuild), "restarted" once the new worker is ready. */
  restart(reason) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    clearTimeout(this.stallTimer);
    const stopped = [...this.pending.values()];
    this.pending.clear();
    this.state = "idle";
    this.dispatchEvent(new CustomEvent("restarting", { detail: { reason } }));
    for (const { resolve, timer } of stopped) {
      clearTimeout(timer);
      resolve({ ok: false, error: { type: "Stopped", message: reason } });
    }
    this.load().then(() => this.dispatchEvent(new CustomEvent("restarted", { detail: { reason } })), () => {});
  }

  /** Send one message to simulations/bridge.py; resolves with its reply (never rejects). While
      Python loads, the message waits in the worker (and its time limit starts once Python is up).
      options: {seconds: its time limit (default CALL_SECONDS), restart: true to restart the worker
      (reply {type: "Restarted"}) rather than fail the page's Python when it overstays}. */
  call(message, options = {}) {
    if ((this.state !== "ready" && this.state !== "loading") || !this.worker) {
      return Promise.resolve({ ok: false, error: { type: "NotReady", message: "Python is not running." } });
    }
    const req = this.nextReq++;
    return new Promise((resolve) => {
      const waiting = { resolve, timer: null, options };
      if (this.state === "ready") waiting.timer = this.limit(req, resolve, options);
      this.pending.set(req, waiting);
      this.worker.postMessage({ type: "call", req, message: JSON.stringify(message) });
    });
  }

  limit(req, resolve, options = {}) {
    const seconds = options.seconds || CALL_SECONDS;
    return setTimeout(() => {
      this.pending.delete(req);
      if (options.alone) {
        this.end();
        resolve({ ok: false, error: { type: "Overstayed", message: `The run did not finish within ${seconds} s.` } });
        return;
      }
      if (options.restart) {
        const reason = `A run did not finish within ${seconds} s.`;
        resolve({ ok: false, error: { type: "Restarted", message: reason } });
        this.restart(reason);
        return;
      }
      this.fail("stuck", `A simulation did not answer within ${seconds} s.`);
      resolve({ ok: false, error: { type: "Stopped", message: "Python stopped answering." } });
    }, seconds * 1000);
  }

  /** End this worker for good (a throwaway worker, after its one call). Calls waiting are
      answered {ok: false, error: {type: "Stopped"}}. */
  end() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    clearTimeout(this.stallTimer);
    this.state = "ended";
    for (const { resolve, timer } of this.pending.values()) {
      clearTimeout(timer);
      resolve({ ok: false, error: { type: "Stopped", message: "The worker was ended." } });
    }
    this.pending.clear();
  }
}

/**
 * One message to a throwaway worker (a Python made with entry "reader"), which is then ended
 * whatever happens. Resolves (never rejects) with the reply, or {ok: false, error: {type}} where
 * type is "NotStarted" (Python did not start: python.failure says why), "Overstayed" (no answer
 * within `seconds` of real time, counted from Python's start), "Stopped" (the worker died: out of
 * memory, a fatal error) or "ReplyError" (the reply was not JSON).
 */
export async function callOnce(python, message, seconds) {
  try {
    await python.load();
  } catch (error) {
    python.end();
    return { ok: false, error: { type: "NotStarted", message: "Python did not start." } };
  }
  const reply = await python.call(message, { seconds, alone: true });
  python.end();
  return reply;
}
