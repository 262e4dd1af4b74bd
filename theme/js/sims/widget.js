// What every simulation widget does, whatever it draws: its life (idle -> loading -> ready, or
// error with a retry), playback (play, pause, step, speed, reset), the parameter fields (a bad
// value gets the simulation's own message next to the field), the reader's actions, the event
// log, and the run in the URL. A widget module subclasses Widget and writes draw(snapshot).
//
// The contract the tests rely on (project notes, "Widget contract"): the root element carries
// data-sim and data-state = idle | loading | ready | error; every control is a real button,
// input or select with a name a person would understand.
//
// Time: when playing, each animation frame asks Python to advance the simulation by the real
// time elapsed since the last frame times the speed, one request in flight per widget, so no
// call runs long and the page never waits on Python (docs/simulations.md, "The bridge").

import { el, setAttr, setText, seconds, thousands } from "./dom.js";
import { EventLog } from "./event-log.js";
import { readLink, writeLink } from "./permalink.js";

const MAX_FRAME_SECONDS = 0.25;  // real seconds one frame may cover (after a stall, time is dropped)
const BUILT_IN = new Set(["start", "retry", "play", "step", "reset", "link", "defaults", "finish"]);
const TABLE_MS = 100;             // while playing, a job table is redrawn at most this often
const STEPS_PER_FRAME = 20;       // "Run to the end": steps per animation frame (200 with reduced motion)
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

export class Widget {
  /** The reader's actions this widget records in links: {name: [argument names]}. */
  static vocabulary = {};
  /** Parameters changed on the running simulation with act("set"); others start it again. */
  static live = [];
  /** Keep playing when the simulation has nothing to do (an action may bring work back). */
  static idleWhenFinished = false;

  constructor(root, python) {
    this.root = root;
    this.python = python;
    this.id = root.id;
    this.sim = root.dataset.sim;
    this.body = root.querySelector(".sim-widget");
    this.paramNames = (this.body.dataset.paramNames || "").split(" ").filter(Boolean);
    this.chapter = { ...parseJSON(root.dataset.params), seed: Number(root.dataset.seed) || 0 };
    this.params = { ...this.chapter };
    this.snapshot = null;
    this.actions = [];       // [{time, name, args}] since the run started: what a link replays
    this.applied = {};       // {field: the value last applied}, so one edit applies once
    this.playing = false;
    this.visible = true;
    this.queue = Promise.resolve();
    this.busy = 0;
    this.speed = Number(this.part("speed-select")?.value || 1);
    this.log = new EventLog(this.part("log"));
    this.link = readLink(location.search, this.id, this.paramNames, this.constructor.vocabulary);
    if (this.link && this.link.problem) {
      this.say(`This page's link could not set up this simulation (${this.link.problem}), so it shows the chapter's own settings.`);
      this.link = null;
    } else if (this.link) {
      this.say("This page's link sets up its own run of this simulation: it is shown once the simulation starts.");
    }
    this.bindBuiltIns();
    python.addEventListener("loading", () => {   // another widget's Try again: this one comes too
      if (this.state !== "error") return;
      this.setState("loading");
      this.boot();
    });
    python.addEventListener("progress", (event) => this.showProgress(event.detail));
    python.addEventListener("failed", (event) => this.showFailure(event.detail));
  }

  // --- parts of the template ------------------------------------------------------------------
  part(name) {
    if (name === "speed-select") return this.body.querySelector('[data-control="speed"]');
    return this.body.querySelector(`[data-part="${name}"]`);
  }

  button(action) {
    return this.body.querySelector(`[data-action="${action}"]`);
  }

  get state() {
    return this.root.dataset.state;
  }

  setState(state) {
    const focused = this.body.contains(document.activeElement) ? document.activeElement : null;
    this.root.dataset.state = state;
    const ready = state === "ready";
    for (const control of this.body.querySelectorAll("button[data-action], select, input")) {
      const action = control.dataset.action;
      if (action === "start" || action === "retry") continue;
      control.disabled = !ready;
    }
    if (this.snapshot) this.refresh();   // the widget disables what does not apply now
    // A focused control that is now hidden or disabled (Start while Python loads, the progress
    // text once ready, Play after a failure): the focus goes to what the reader reads or presses
    // next, never to the page's <body>, where a screen reader would lose its place.
    if (focused && (focused.disabled || !focused.checkVisibility({ visibilityProperty: true }))) {
      const next = ready ? this.button("play") : state === "error" ? this.button("retry") : this.part("progress-text");
      if (next) next.focus();
    }
  }

  say(text) {
    setText(this.part("message"), text);
  }

  announce(text) {
    setText(this.part("announce"), text);
  }

  // --- starting --------------------------------------------------------------------------------
  /** Start because the reader pressed Start ("click") or scrolled here ("view"): runtime.js calls it. */
  start(reason) {
    if (this.state !== "idle") return;
    const python = this.python;
    if (python.state === "failed") {
      if (reason === "view") return this.showFailure(python.failure, true);
      this.retry();
      return;
    }
    if (reason === "view" && python.state !== "ready" && navigator.connection && navigator.connection.saveData) return;
    if (python.state !== "ready") python.load();   // first: the worker starts before the page redraws
    this.setState("loading");
    if (python.state === "loading") {
      if (python.progress) this.showProgress(python.progress);
      this.announce("Loading Python for the simulation.");
    }
    this.boot();   // its first request waits in the worker until Python is ready
  }

  showProgress({ stage, loaded, total, text }) {
    if (this.state !== "loading") return;
    const bar = this.part("progress");
    // Once downloaded, the bar stays full while Python starts: an indeterminate bar would animate,
    // repainting all the while the worker compiles (and slowing it on a small machine).
    bar.max = total || 1;
    bar.value = stage === "download" ? Math.min(loaded, total) : bar.max;
    setText(this.part("progress-text"), `${text}…`);
    if (stage !== this.lastStage) this.announce(`${text}.`);
    this.lastStage = stage;
  }

  /** Python failed: say what happened and how to fix it (an idle widget only when `force`d). */
  showFailure(failure, force = false) {
    if (!failure || (this.state === "idle" && !force)) return;
    this.pause();
    setText(this.part("error-message"), `The simulation could not start: ${failure.message}`);
    this.part("error-fix").replaceChildren(...withCode(failure.fix));
    this.lastStage = null;
    this.setState("error");
  }

  /** Python is up: create this widget's simulation (from the link, if the page has one). */
  async boot() {
    const link = this.link;
    this.link = null;
    let params = { ...this.chapter };
    if (link) params = { ...params, ...link.params };
    let reply = await this.send({ op: "create", sim: this.sim, params });
    let replay = link;
    if (!reply.ok && link && reply.error.type === "ParamError") {
      this.say(`This page's link could not set up this simulation (${reply.error.message}), so it shows the chapter's own settings.`);
      params = { ...this.chapter };
      replay = null;
      reply = await this.send({ op: "create", sim: this.sim, params });
    }
    if (!reply.ok) return this.bug(reply);
    this.params = params;
    if (!replay) this.setState("ready");   // then the first frame is drawn once, ready to use
    this.started(reply.snapshot);
    if (replay) {
      await this.replay(replay);
      this.setState("ready");
    }
    this.announce("The simulation is ready.");
  }

  /** Run the link's actions at their times, then on to its time: the run the link recorded. */
  async replay({ actions, time }) {
    for (const action of actions) {
      if (!(await this.runUntil(action.time))) return;
      const reply = await this.send({ op: "act", name: action.name, args: action.args });
      if (!reply.ok) {
        const back = await this.send({ op: "create", sim: this.sim, params: { ...this.chapter } });
        if (!back.ok) return this.bug(back);
        this.params = { ...this.chapter };
        this.log.clear();
        this.started(back.snapshot);
        this.say(`This page's link asked for an action the simulation refused (${reply.error.message}), so it shows the chapter's own settings.`);
        return;
      }
      this.actions.push(action);
      this.apply(reply.snapshot);
    }
    if (time) await this.runUntil(time);
    this.say("This is the run the link recorded. Press Play to go on, or Reset to start it again.");
  }

  async runUntil(time) {
    for (let calls = 0; calls < 1000; calls += 1) {
      const reply = await this.send({ op: "run", until: time });
      if (!reply.ok) return this.bug(reply) && false;
      this.apply(reply.snapshot);
      if (reply.reached) return true;
    }
    return false;
  }

  // --- talking to Python ------------------------------------------------------------------------
  /** Send one message about this widget's simulation; replies come back in order. */
  send(message) {
    return this.enqueue(() => this.python.call({ ...message, id: this.id }));
  }

  /** Run `task` (returning a promise) after every earlier request of this widget. */
  enqueue(task) {
    this.busy += 1;
    const result = this.queue.then(task);
    this.queue = result.then(() => { this.busy -= 1; }, () => { this.busy -= 1; });
    return result;
  }

  /** A reply that is not a reader's mistake: a bug, or Python gone (reported as a failure). */
  bug(reply) {
    this.pause();
    if (reply.error && (reply.error.type === "Stopped" || reply.error.type === "NotReady")) return false;
    this.say(`The simulation hit a problem it did not expect (${reply.error.type}: ${reply.error.message}). ` +
             "Reset it, or reload the page.");
    return false;
  }

  // --- drawing ------------------------------------------------------------------------------------
  /** A new simulation started (created, reset or restarted with new settings). */
  started(snapshot) {
    this.actions = [];
    this.snapshot = null;
    this.restarted(snapshot);
    this.apply(snapshot);
    this.showParams(snapshot);
  }

  /** Hook: forget per-run history (charts). */
  restarted(snapshot) {}

  apply(snapshot) {
    if (!this.snapshot || snapshot.time < this.snapshot.time) this.target = snapshot.time;
    this.snapshot = snapshot;
    setText(this.part("time"), `${seconds(snapshot.time)} s`);
    setText(this.part("outcome"), snapshot.outcome);
    this.log.add(snapshot.events || [], snapshot.events_dropped || 0);
    if (snapshot.finished && this.playing && !this.constructor.idleWhenFinished) {
      this.pause();
      this.announce(`Finished. ${snapshot.outcome}`);
    }
    this.refresh();
  }

  /** Draw the latest snapshot and set which controls can be used now. */
  refresh() {
    const snapshot = this.snapshot;
    const focused = this.body.contains(document.activeElement) ? document.activeElement : null;
    this.draw(snapshot);
    const over = snapshot.finished && !this.constructor.idleWhenFinished;
    setText(this.part("play-label"), this.playing ? "Pause" : over ? "Play again" : "Play");
    const step = this.button("step");
    if (step) step.disabled = !this.ready || snapshot.finished;
    if (this.ready && focused && focused.disabled) this.handFocusOn(focused);
  }

  /** The focused button `lost` no longer applies (disabled): focus the next one that does, in
      its group first (`data-focus-group`: the other worker's Step), then Play, Step or Reset. */
  handFocusOn(lost) {
    const group = lost.closest("[data-focus-group]");
    const candidates = [...(group ? group.querySelectorAll("button") : []),
                        this.button("play"), this.button("step"), this.button("reset")];
    const next = candidates.find((button) => button && button !== lost && !button.disabled);
    if (next) next.focus();
  }

  get ready() {
    return this.state === "ready";
  }

  /** Whether a big part (a table of up to 100 rows) should be redrawn now: always, except while
      playing, when at most every TABLE_MS (the rest of the widget follows every frame). */
  due(part) {
    const now = performance.now();
    this.drawnAt ||= {};
    const wait = TABLE_MS - (now - (this.drawnAt[part] || 0));
    if (this.playing && wait > 0) {
      // Skipped now: the latest snapshot is drawn in full a moment later, even if no other comes.
      this.trailing ||= setTimeout(() => {
        this.trailing = null;
        if (this.snapshot) this.refresh();
      }, wait);
      return false;
    }
    this.drawnAt[part] = now;
    return true;
  }

  /** Draw the snapshot, and disable the widget's own controls that do not apply (`this.ready`
      is false until Python runs: then every control stays disabled). Each module writes it. */
  draw(snapshot) {}

  // --- playback -------------------------------------------------------------------------------------
  bindBuiltIns() {
    this.body.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action]");
      if (!button || button.disabled || !this.body.contains(button)) return;
      const action = button.dataset.action;
      if (action === "start") return;   // runtime.js starts widgets (it made this one)
      if (action === "retry") this.retry();
      else if (action === "play") this.playing ? this.pauseAndSay() : this.play();
      else if (action === "step") this.stepOnce();
      else if (action === "finish") this.play(true);
      else if (action === "reset") this.reset();
      else if (action === "link") this.copyLink();
      else if (action === "defaults") this.useChapterSettings();
      else if (!BUILT_IN.has(action)) this.onAction(action, button);
    });
    const speed = this.part("speed-select");
    if (speed) speed.addEventListener("change", () => { this.speed = Number(speed.value) || 1; });
    this.body.addEventListener("change", (event) => {
      const field = event.target.closest("[data-field]");
      if (field && this.state === "ready") this.applyField(field.dataset.field);
    });
    // Enter in a number field applies it at once (there is no submit button to press).
    this.body.addEventListener("keydown", (event) => {
      const field = event.target.closest("[data-field]");
      if (field && event.key === "Enter" && event.target.type === "number" && this.state === "ready") {
        event.preventDefault();
        this.applyField(field.dataset.field);
      }
    });
    const form = this.part("params");
    if (form) form.addEventListener("submit", (event) => event.preventDefault());
  }

  retry() {
    this.python.retry();   // other widgets showing the failure start again too ("loading" event)
    if (this.state !== "loading") {
      this.setState("loading");
      this.boot();
    }
    this.showProgress({ stage: "download", loaded: 0, total: this.python.config.total, text: "Downloading Python" });
  }

  /** Play at the chosen speed, or (`toEnd`) as fast as it goes, a few steps a frame, to the end. */
  play(toEnd = false) {
    if (this.state !== "ready") return;
    if (this.playing) {
      this.toEnd = this.toEnd || toEnd;
      return;
    }
    this.say("");
    if (this.snapshot.finished && !this.constructor.idleWhenFinished) {
      this.reset().then(() => this.play(toEnd));
      return;
    }
    this.toEnd = toEnd;
    this.playing = true;
    this.root.dataset.playing = "true";
    setText(this.part("play-label"), "Pause");
    this.lastFrame = performance.now();
    this.frame = requestAnimationFrame((now) => this.tick(now));
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.toEnd = false;
    delete this.root.dataset.playing;
    cancelAnimationFrame(this.frame);
    if (this.snapshot) this.refresh();   // everything as it stands, tables too
  }

  /** The reader paused: tell a screen reader where the run stands (nothing is said while playing). */
  pauseAndSay() {
    this.pause();
    if (this.snapshot) this.announce(`Paused at ${seconds(this.snapshot.time)} s. ${this.snapshot.outcome}`);
  }

  /** What the reader's own action (a step, a button) did, for a screen reader: its first events,
      or the outcome. The event log itself is not a live region (it would flood while playing). */
  announceResult(snapshot) {
    const events = snapshot.events || [];
    const said = events.slice(0, 3).map((event) => event.text);
    if (events.length > 3) said.push(`and ${thousands(events.length - 3)} more events`);
    this.announce(said.length ? `${seconds(snapshot.time)} s: ${said.join("; ")}.` : snapshot.outcome);
  }

  tick(frameTime) {
    if (!this.playing) return;
    this.frame = requestAnimationFrame((next) => this.tick(next));
    const elapsed = Math.min((frameTime - this.lastFrame) / 1000, MAX_FRAME_SECONDS);
    this.lastFrame = frameTime;
    this.owed = Math.min((this.owed || 0) + elapsed, MAX_FRAME_SECONDS);
    if (this.busy || !this.visible) return;          // one request at a time; none while off screen
    if (this.toEnd) {
      this.owed = 0;
      this.send({ op: "step", count: reducedMotion.matches ? 200 : STEPS_PER_FRAME }).then((reply) => {
        if (reply.ok) this.apply(reply.snapshot);
        else this.bug(reply);
      });
      return;
    }
    const now = this.snapshot.time;
    if (this.snapshot.finished && this.constructor.idleWhenFinished) {
      this.owed = 0;
      this.target = now;
      return;
    }
    // The virtual time to reach: it accumulates across frames (a simulation that ticks every
    // 0.1 s moves once enough has built up), but never runs far ahead of a simulation that lags.
    const from = Math.max(this.target ?? now, now);
    this.target = Math.min(from + this.owed * this.speed, now + Math.max(1, this.speed));
    this.owed = 0;
    this.send({ op: "run", until: this.target }).then((reply) => {
      if (reply.ok) this.apply(reply.snapshot);
      else this.bug(reply);
    });
  }

  async stepOnce() {
    this.pause();
    this.say("");
    const reply = await this.send({ op: "step", count: 1 });
    if (!reply.ok) return this.bug(reply);
    this.apply(reply.snapshot);
    this.announceResult(reply.snapshot);
  }

  async reset() {
    this.pause();
    this.say("");
    const reply = await this.send({ op: "act", name: "reset", args: {} });
    if (!reply.ok) return this.bug(reply);
    this.log.note("Started again from the beginning.");
    this.announce("Started again from the beginning.");
    this.started(reply.snapshot);
  }

  // --- the reader's actions ---------------------------------------------------------------------------
  /** A widget button other than playback: an action of the simulation, args from data-*. */
  onAction(name, button) {
    const names = this.constructor.vocabulary[name] || [];
    this.act(name, Object.fromEntries(names.map((arg) => [arg, button.dataset[arg]])));
  }

  /** Do a reader's action; a refusal (ParamError) is said in the widget unless `quiet`. */
  act(name, args = {}, quiet = false) {
    this.say("");
    return this.enqueue(async () => {
      const before = this.snapshot.time;   // the time the action happens at, for the link
      const reply = await this.python.call({ op: "act", id: this.id, name, args });
      if (reply.ok) {
        if (name in this.constructor.vocabulary) this.actions.push({ time: before, name, args });
        this.apply(reply.snapshot);
        this.announceResult(reply.snapshot);
      } else if (reply.error.type === "ParamError") {
        if (!quiet) this.say(reply.error.message);
      } else {
        this.bug(reply);
      }
      return reply;
    });
  }

  // --- parameters -------------------------------------------------------------------------------------
  fieldBox(name) {
    return this.body.querySelector(`[data-field="${name}"]`);
  }

  readField(name) {
    const box = this.fieldBox(name);
    const checked = box.querySelector("input[type=radio]:checked");
    if (checked) return checked.value;
    const input = box.querySelector("input, select");
    if (input.type === "checkbox") return input.checked;
    return input.value.trim();
  }

  /** Show the settings of a new run in the fields (live settings as they are now). */
  showParams(snapshot) {
    const values = { ...snapshot.params, ...(snapshot.settings || {}) };
    this.applied = {};
    for (const box of this.body.querySelectorAll("[data-field]")) {
      const name = box.dataset.field;
      if (!(name in values)) continue;
      this.fieldError(name, "");
      const value = values[name];
      this.applied[name] = String(value);
      for (const input of box.querySelectorAll("input, select")) {
        if (input.type === "checkbox") input.checked = Boolean(value);
        else if (input.type === "radio") input.checked = input.value === String(value);
        else input.value = String(value);
      }
    }
  }

  fieldError(name, text) {
    const box = this.fieldBox(name);
    if (!box) {
      if (text) this.say(text);
      return;
    }
    setText(box.querySelector('[data-part="error"]'), text);
    for (const input of box.querySelectorAll("input, select")) setAttr(input, "aria-invalid", text ? "true" : null);
  }

  /** The words of a ParamError, with the field's own label: "Lease (s): must be from ...". */
  explain(error) {
    const text = String(error.message || "");
    if (!error.field || !this.fieldBox(error.field)) return text;
    const rest = text.startsWith(`${error.field}: `) ? text.slice(error.field.length + 2) : text;
    return `${this.fieldLabel(error.field)}: ${rest.replace(/got ''$/, "got nothing")}`;
  }

  /** The parameters of a fresh run after the reader set `name` to `value`. Another field still
      showing its error keeps the value the run uses (so this edit's own error, if any, is said
      beside this field, and the other error stays beside its own). */
  paramsAfter(name, value) {
    const current = { ...this.params };
    const settings = (this.snapshot && this.snapshot.settings) || {};
    for (const field of this.paramNames) if (Object.hasOwn(settings, field)) current[field] = settings[field];
    for (const box of this.body.querySelectorAll("[data-field]")) {
      const field = box.dataset.field;
      if (field !== name && box.querySelector('[aria-invalid="true"]')) continue;
      current[field] = this.readField(field);
    }
    return { ...current, [name]: value };
  }

  async applyField(name) {
    const value = this.readField(name);
    if (this.applied[name] === String(value)) return;   // Enter, then the change event on leaving
    this.applied[name] = String(value);
    this.fieldError(name, "");
    this.say("");
    if (this.constructor.live.includes(name)) {
      const reply = await this.act("set", { param: name, value }, true);
      if (!reply.ok && reply.error.type === "ParamError") {
        this.fieldError(name, this.explain({ ...reply.error, field: reply.error.field === "value" ? name : reply.error.field }));
      }
      return;
    }
    const params = this.paramsAfter(name, value);
    const wasPlaying = this.playing;
    const reply = await this.send({ op: "create", sim: this.sim, params });
    if (!reply.ok) {
      if (reply.error.type !== "ParamError") return this.bug(reply);
      this.fieldError(this.fieldBox(reply.error.field) ? reply.error.field : name, this.explain(reply.error));
      return;
    }
    this.pause();
    this.params = params;
    this.log.note(`Started again: ${this.describe(name, value)}.`);
    this.started(reply.snapshot);
    if (wasPlaying) this.play();
  }

  /** A field's visible name: its legend (a group of radios) or its label. */
  fieldLabel(name) {
    const box = this.fieldBox(name);
    const title = box && (box.querySelector(":scope > legend") || box.querySelector(":scope > label, :scope > .sim-check"));
    return title ? title.textContent.trim() : name;
  }

  /** A new setting in words: "Lease (s) is now 2", "Policy is now Ack before the work" (a menu's
      words, not its value), or a chosen radio's own words. */
  describe(name, value) {
    const box = this.fieldBox(name);
    const radio = box.querySelector("input[type=radio]:checked");
    if (radio) return radio.closest("label").textContent.trim();
    const option = box.querySelector("select")?.selectedOptions[0];
    const shown = option ? option.textContent.trim() : value === true ? "on" : value === false ? "off" : String(value);
    return `${this.fieldLabel(name)} is now ${shown}`;
  }

  async useChapterSettings() {
    this.pause();
    this.say("");
    const reply = await this.send({ op: "create", sim: this.sim, params: { ...this.chapter } });
    if (!reply.ok) return this.bug(reply);
    this.params = { ...this.chapter };
    this.log.note("Started again with the chapter's settings.");
    this.started(reply.snapshot);
  }

  // --- the link ------------------------------------------------------------------------------------------
  async copyLink() {
    const snapshot = this.snapshot;
    const link = writeLink(location.href, this.id, {
      params: snapshot.params, time: snapshot.time, actions: this.actions,
    }, this.constructor.vocabulary);
    history.replaceState(history.state, "", link.href);
    const status = this.part("link-status");
    let where;
    try {
      await navigator.clipboard.writeText(link.href);
      where = "Link copied. It is in the address bar too.";
    } catch (error) {
      where = "The link is in the address bar: copy it from there.";
    }
    // A link holds a limited number of actions: a longer run is linked up to the last one that
    // fits, and the reader is told (the opened link shows exactly that part of the run).
    const partial = link.kept < link.total;
    setText(status, partial
      ? `This run has ${thousands(link.total)} actions, more than a link holds: the link replays the first ` +
        `${link.kept}, up to ${seconds(link.time)} s, and stops there. ${where}`
      : where.replace("The link is", "The link to this run is"));
    clearTimeout(this.linkTimer);
    this.linkTimer = setTimeout(() => setText(status, ""), partial ? 20000 : 6000);
  }
}

/** Text with `commands` in backticks -> text nodes and <code> elements (never HTML). */
function withCode(text) {
  return String(text).split("`").map((piece, index) => (index % 2 ? el("code", {}, piece) : piece));
}

function parseJSON(text) {
  try {
    const value = JSON.parse(text || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch (error) {
    return {};
  }
}

export { reducedMotion };
