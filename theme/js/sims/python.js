// The page's side of its one Python worker (python-worker.js): starts it on first use, reports
// how the loading goes, turns every failure into words a reader can act on, and sends the
// widgets' messages to simulations/bridge.py. One instance per page, shared by every widget.
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

export class Python extends EventTarget {
  /** config: {worker: URL, pyodide: URL, python: URL, total: bytes, sims: the names of the page's
      simulations, imported in the worker once the first reply is out} (all URLs absolute). */
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
    try {
      this.worker = new Worker(this.config.worker, { type: "module", name: "python" });
    } catch (error) {
      queueMicrotask(() => this.fail("unsupported", `The Python worker could not start: ${error.message}`));
      return this.ready;
    }
    this.worker.addEventListener("message", (event) => this.receive(event.data));
    this.worker.addEventListener("error", (event) => {
      event.preventDefault();  // reported to the reader instead of the console
      this.fail("python", `The Python worker stopped: ${event.message || "it could not be loaded"}.`);
    });
    this.worker.postMessage({ type: "load", pyodide: this.config.pyodide, python: this.config.python,
                              total: this.config.total, warm: this.config.sims || [] });
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
    if (data.type === "progress" && this.state === "loading") {
      this.setProgress(data);
    } else if (data.type === "ready" && this.state === "loading") {
      clearTimeout(this.stallTimer);
      this.state = "ready";
      for (const [req, waiting] of this.pending) waiting.timer = this.limit(req, waiting.resolve, waiting.options);
      this.versions = { python: data.python, sqlite: data.sqlite };
      this.dispatchEvent(new Event("ready"));
      this.settle.resolve();
    } else if (data.type === "error") {
      this.fail(data.problem, data.message);
    } else if (data.type === "reply") {
      const waiting = this.pending.get(data.req);
      if (!waiting) return;
      this.pending.delete(data.req);
      clearTimeout(waiting.timer);
      let reply;
      try {
        reply = JSON.parse(data.reply);
      } catch (error) {
        reply = { ok: false, error: { type: "ReplyError", message: "The simulation's reply was not JSON." } };
      }
      waiting.resolve(reply);
    }
  }

  fail(problem, message) {
    if (this.state === "error") return;
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
}
