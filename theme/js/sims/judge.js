// The judge widget: the reader's own code for an exercise, in an editor (code-editor.js,
// CodeMirror, loaded only once the reader reaches the widget), judged under the chaos monkey.
// Run (with a seed), Reset to the starting code, Show the chapter's fix.
//
// Each Run is two steps in two Pythons (simulations/judge.py):
//   1. the reader's code runs in a Python of its own, in a worker of its own (python.js's
//      callOnce, entry "reader"), which records the effects the code asks for and is then ended:
//      nothing of one run is left for the next, and nothing is shared with the simulations;
//   2. the page's Python for the simulations (the bridge's "judge" op) replays those effects in
//      its own world and audits it. The verdict, the audit in words, the first failure's story
//      and the table all come from this second step; the reader's worker sends data only.
// A mistake in the reader's code is said at its line and marked there in the editor. A run that
// overstays WALL_SECONDS of real time (a loop inside one C call, which the line budget cannot
// see), or kills its worker (all its memory, a fatal error), ends only that worker: the other
// simulations on the page carry on. The next Run's worker is started once a run is over, so it
// is ready when the reader presses Run again; the first one starts at the first press of Run.
// The reader's edits are kept in this browser. Same contract as the other widgets: data-state.

import { codeLinkURL, packCode, readCodeLink, unpackCode } from "./code-link.js";
import { el, setText, thousands } from "./dom.js";
import { Python, callOnce } from "./python.js";

export const WALL_SECONDS = 8;   // real seconds: a judged run here takes well under one
const MAX_SEED = 2147483647;
const TABLES = { customers: "Customers after the run", jobs: "Jobs after the run", orders: "Alice’s orders after the run" };
const editorURL = new URL(`./code-editor.js${new URL(import.meta.url).search}`, import.meta.url).href;

export default class JudgeWidget {
  constructor(root, python) {
    this.root = root;
    this.python = python;
    this.id = root.id;
    this.visible = true;
    this.body = root.querySelector(".sim-widget");
    const params = JSON.parse(root.dataset.params || "{}");
    this.exercise = params.exercise;
    this.language = params.language;
    this.startCode = this.part("start-code").content.textContent;
    this.fixedCode = this.part("fixed-code").content.textContent;
    this.storageKey = `judge:${location.pathname}#${this.id}`;
    this.running = false;
    this.spare = null;        // the next Run's Python, started when a run is over
    this.editor = null;
    this.linked = readCodeLink(location.search, this.id);
    this.editorLoaded = this.loadEditor();
    this.body.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action]");
      if (!button || button.disabled) return;
      const action = button.dataset.action;
      if (action === "run") this.run();
      else if (action === "reset") this.useCode(this.startCode, "Back to the starting code.");
      else if (action === "fix") this.useCode(this.fixedCode, "This is the chapter’s fix. Press Run to judge it.");
      else if (action === "link") this.copyLink();
      else if (action === "retry") this.retry();
    });
    this.part("seed").addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); this.run(); }
    });
    python.addEventListener("loading", () => { if (this.state === "error") this.setState("loading"); });
    python.addEventListener("ready", () => { if (this.state === "loading") this.setState("ready"); });
    python.addEventListener("progress", (event) => this.showProgress(event.detail));
    python.addEventListener("error", (event) => this.showFailure(event.detail));
  }

  part(name) {
    return this.body.querySelector(`[data-part="${name}"]`);
  }

  get state() {
    return this.root.dataset.state;
  }

  setState(state) {
    this.root.dataset.state = state;
    const ready = state === "ready" && !this.running;
    for (const control of this.body.querySelectorAll(".judge-controls button, .judge-controls input")) {
      control.disabled = !ready && !["reset", "fix", "link"].includes(control.dataset.action);
    }
    for (const action of ["reset", "fix", "link"]) this.body.querySelector(`[data-action="${action}"]`).disabled = !this.editor;
  }

  say(text) {
    setText(this.part("message"), text);
  }

  announce(text) {
    setText(this.part("announce"), text);
  }

  async loadEditor() {
    try {
      const { makeEditor } = await import(editorURL);
      const saved = readSaved(this.storageKey);
      const linked = await this.linkedCode();
      const host = this.part("editor");
      host.replaceChildren();
      this.editor = makeEditor(host, linked ?? saved ?? this.startCode, {
        language: this.language, labelledBy: `${this.id}-code-label`, describedBy: `${this.id}-code-help`,
        onChange: () => this.edited(),
      });
      this.showEdited();
      this.setState(this.state);
    } catch (error) {
      this.say(`The editor could not load (${error.message}), so the code cannot be changed here. Reload the page to try again.`);
    }
  }

  /** The code the page's link carries, or null (and the reason said) when there is none to use.
   *  Nothing runs: the reader presses Run. The reader's own saved version stays saved until they
   *  type in this one. */
  async linkedCode() {
    const link = this.linked;
    if (!link) return null;
    let code = null;
    try {
      if (link.problem) throw new Error(link.problem);
      code = await unpackCode(link.packed);
    } catch (error) {
      this.say(`This page’s link could not be used: ${error.message}. The editor holds your own version.`);
      return null;
    }
    if (link.seed !== null) this.part("seed").value = link.seed;
    setText(this.part("link-status"), "This code came from a link. Nothing has run: press Run to judge it.");
    return code;
  }

  /** Put the code and the seed in the page's address and copy it, for someone else to open. */
  async copyLink() {
    if (!this.editor) return;
    const status = this.part("link-status");
    const seed = this.seed() ?? 0;
    const url = codeLinkURL(location, this.id, await packCode(this.editor.text), seed);
    history.replaceState(history.state, "", url.href);
    let copied = true;
    try {
      await navigator.clipboard.writeText(url.href);
    } catch (error) {
      copied = false;
    }
    const words = `${copied ? "Link copied" : "The link is in the address bar (this browser did not let the page copy it)"}: ` +
                  `it carries your code and seed ${seed}. Opening it shows the code and runs nothing until Run is pressed.`;
    setText(status, words);
    this.announce(words);
  }

  /** The reader typed: keep the text in this browser, and say that it is theirs. */
  edited() {
    try {
      if (this.editor.text === this.startCode) localStorage.removeItem(this.storageKey);
      else localStorage.setItem(this.storageKey, this.editor.text);
    } catch (error) { /* storage refused (private mode, full): the edit still stands in the page */ }
    this.showEdited();
  }

  showEdited() {
    setText(this.part("edited"), this.editor && this.editor.text !== this.startCode ? " (edited)" : "");
  }

  useCode(text, words) {
    if (!this.editor) return;
    this.editor.setText(text);
    this.edited();
    this.say("");
    this.announce(words);
  }

  // --- starting: the same life as every widget (runtime.js calls start) -----------------------
  start(reason) {
    if (this.state !== "idle") return;
    const python = this.python;
    if (python.state === "error") {
      if (reason === "click") this.retry();
      else this.showFailure(python.failure, true);
      return;
    }
    if (python.state !== "ready") python.load();
    this.setState(python.state === "ready" ? "ready" : "loading");
  }

  retry() {
    this.setState("loading");
    this.python.retry();
  }

  showProgress({ loaded, total, text }) {
    if (this.state !== "loading") return;
    const bar = this.part("progress");
    bar.max = total || 1;
    bar.value = Math.min(loaded, total || 1);
    setText(this.part("progress-text"), `${text}…`);
  }

  showFailure(failure, force = false) {
    if (!failure || (this.state === "idle" && !force)) return;
    setText(this.part("error-message"), `The exercise could not start: ${failure.message}`);
    setText(this.part("error-fix"), failure.fix.replaceAll("`", ""));
    this.setState("error");
  }

  // --- Run ----------------------------------------------------------------------------------------
  seed() {
    const text = this.part("seed").value.trim();
    const seed = Number(text);
    return /^\d+$/.test(text) && seed <= MAX_SEED ? seed : null;
  }

  async run() {
    if (this.running || this.state !== "ready" || !this.editor) return;
    const seed = this.seed();
    const field = this.part("seed");
    field.setAttribute("aria-invalid", String(seed === null));
    if (seed === null) {
      this.say(`The seed must be a whole number from 0 to ${thousands(MAX_SEED)}.`);
      field.focus();
      return;
    }
    this.say("");
    this.running = true;
    this.setState("ready");
    this.editor.markLine(null);
    this.part("result").replaceChildren(el("p", { class: "judge-verdict" }, `Running your code under the chaos monkey (seed ${seed})…`));
    this.announce("Running your code.");
    const outcome = await this.judged({ exercise: this.exercise, code: this.editor.text, seed });
    this.running = false;
    if (outcome.result) this.draw(outcome.result);
    else this.stopped(outcome.verdict, outcome.words);
    this.setState(this.python.state === "ready" ? "ready" : this.python.state === "error" ? "error" : "loading");
  }

  /** A fresh Python for the reader's code: never used before, ended after its one call. */
  readerPython() {
    return new Python({ ...this.python.config, sims: [], entry: "reader" });
  }

  /** Step 1 in the reader's own worker, step 2 in the page's Python. Resolves with {result} (the
      judge's verdict) or {verdict, words} (why there is none); every word here is the page's own,
      and nothing the reader's worker sent is shown except as the reader's (its printed lines,
      its error at its line, the name of an exception it raised). */
  async judged({ exercise, code, seed }) {
    const reader = this.spare || this.readerPython();
    this.spare = null;
    performance.mark("judge:run");   // bench/bench_judge_page.py reads these three
    const recorded = await callOnce(reader, { op: "record", exercise, code, seed }, WALL_SECONDS);
    performance.mark("judge:recorded");
    this.spare = this.readerPython();
    this.spare.load();
    if (!recorded.ok) {
      const type = recorded.error.type;
      if (type === "Overstayed") {
        return { verdict: "Stopped: your code ran too long.",
                 words: `Your code ran for more than ${WALL_SECONDS} s without finishing (an endless loop?), so the page ` +
                        "ended the Python it ran in. The other simulations on this page were not touched. " +
                        "Change your code, then press Run." };
      }
      if (type === "NotStarted") {
        const failure = reader.failure || {};
        return { verdict: "Your code could not be run.",
                 words: `The Python for your code could not start: ${failure.message || "it stopped"} ${failure.fix || ""}`.trim() };
      }
      if (type === "Stopped" || type === "ReplyError" || type === "WorkerError") {   // WorkerError: Python's own fatal error
        return { verdict: "Stopped: your code ended its own Python.",
                 words: "Your code’s run ended the Python it ran in before it finished (it may have used all the " +
                        "memory it had, or nested something too deeply). Only that Python was lost: the other " +
                        "simulations on this page carry on. Change your code, then press Run." };
      }
      return { verdict: "Stopped: your code ended its own run.",
               words: `Your code’s run stopped with an exception the judge does not catch (${type}), before the ` +
                      "judge could see what it did. Change your code, then press Run." };
    }
    const reply = await this.python.call({ op: "judge", exercise, seed, trace: recorded.trace });
    performance.mark("judge:verdict");
    if (reply.ok && reply.result && typeof reply.result === "object") return { result: reply.result };
    if (reply.error.type === "ParamError") return { verdict: "Not judged.", words: String(reply.error.message) };
    return { verdict: "Not judged.",
             words: `The judge hit a problem it did not expect (${reply.error.type}). Reload the page to try again.` };
  }

  stopped(verdict, words) {
    this.part("result").replaceChildren(el("p", { class: "judge-verdict", "data-passed": "false" }, verdict),
                                        el("p", { class: "judge-reader-error" }, words));
    this.announce(`${verdict} ${words}`);
  }

  draw(result) {
    const parts = [];
    const error = result.error;
    if (error) {
      parts.push(el("p", { class: "judge-verdict", "data-passed": "false" }, "Your code did not run to the end."));
      const where = error.line ? `Line ${error.line}${error.text ? ` (${error.text})` : ""}: ` : "";
      parts.push(el("p", { class: "judge-reader-error", "data-part": "reader-error" }, `${where}${error.message}`));
      this.editor.markLine(error.line);
    } else {
      const verdict = result.passed ? `Passed the audit on seed ${result.seed}.`
        : `Failed the audit on seed ${result.seed}: ${result.problems.length} ${result.problems.length === 1 ? "problem" : "problems"}.`;
      parts.push(el("p", { class: "judge-verdict", "data-passed": String(result.passed) }, verdict));
      if (result.problems.length) parts.push(list("ul", result.problems, "What went wrong"));
      if (result.story.length) parts.push(list("ol", result.story, "The story of the first failure"));
      const figures = Object.entries(result.figures);
      if (figures.length) {
        parts.push(el("p", { class: "judge-figures" }, figures.map(([name, value]) => `${name}: ${value}`).join(" · ")));
      }
      const rows = Object.keys(TABLES).find((key) => Array.isArray(result[key]));
      if (rows) parts.push(table(result[rows], `${TABLES[rows]} (seed ${result.seed})`));
    }
    if (result.printed.length) parts.push(list("ul", result.printed, "What your code printed"));
    this.part("result").replaceChildren(...parts);
    this.announce(parts.slice(0, 2).map((node) => node.textContent).join(" "));
  }
}

function list(tag, items, title) {
  return el("div", {}, el("p", { class: "judge-list-title" }, title),
            el(tag, { class: "judge-list" }, ...items.map((item) => el("li", {}, String(item)))));
}

function table(rows, caption) {
  const columns = Object.keys(rows[0] || {}).filter((key) => key !== "ok");
  const cell = (value) => (Array.isArray(value) ? value.join(", ") : String(value));
  return el("div", { class: "sim-table-box", role: "region", "aria-label": caption, tabindex: "0" },
    el("table", { class: "sim-table" },
      el("caption", {}, caption),
      el("thead", {}, el("tr", {}, ...columns.map((key) => el("th", { scope: "col" }, key.replaceAll("_", " "))))),
      el("tbody", {}, ...rows.map((row) => el("tr", { class: row.ok === false ? "sim-bad" : null },
        ...columns.map((key) => el("td", {}, cell(row[key]))))))));
}

function readSaved(key) {
  try {
    return localStorage.getItem(key);
  } catch (error) {
    return null;
  }
}
