// What every simulation widget does, whatever it draws: its life (idle -> loading -> ready, or
// error with a retry), the reader's buttons, and its requests to Python. The rest is split by
// concern, each a group of methods mixed into Widget: playback.js (play, pause, step, speed,
// reset), fields.js (the parameter fields: a bad value gets the simulation's own words next to
// the field), link-replay.js (the run in the URL, and replaying it) and drawing.js (a snapshot
// drawn, and which controls apply). A widget module subclasses Widget and writes draw(snapshot).
//
// The contract the tests rely on (project notes, "Widget contract"): the root element carries
// data-sim and data-state = idle | loading | ready | error; every control is a real button,
// input or select with a name a person would understand.

import { Compare } from "./compare.js";
import { Drawing } from "./drawing.js";
import { el, setText } from "./dom.js";
import { EventLog } from "./event-log.js";
import { Fields } from "./fields.js";
import { LinkReplay } from "./link-replay.js";
import { now, readLink } from "./permalink.js";
import { TimeTravel } from "./timetravel.js";
import { Playback, reducedMotion } from "./playback.js";
import { Rebuild } from "./rebuild.js";
import { Recorded } from "./recording.js";

const BUILT_IN = new Set(["start", "retry", "play", "step", "next", "back", "keep", "compare", "reset", "link", "defaults", "finish"]);

export class Widget {
  static vocabulary = {};
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
    // Everything a widget keeps, declared here (a widget module adds only its own drawing state).
    this.snapshot = null;    // the latest snapshot drawn
    this.resumeAs = null;    // what rebuilds it after Python restarts (rebuild.js)
    this.actions = [];       // [{time, name, args}] since the run started: what a link replays
    this.applied = {};       // {field: the value last applied}, so one edit applies once
    this.shownKey = null;    // the level's form last drawn (fields.js, showFields)
    this.requests = Promise.resolve();   // this widget's messages to Python, answered in order
    this.busy = 0;           // how many of them are still unanswered
    this.playing = false;    // playback (playback.js):
    this.toEnd = false;      //   "Run to the end": steps as fast as it goes
    this.speed = Number(this.part("speed-select")?.value || 1);
    this.frame = null;       //   the animation frame asked for
    this.lastFrame = 0;      //   when the previous frame ran (ms)
    this.owed = 0;           //   real seconds not yet turned into virtual time
    this.target = null;      //   the virtual time (s) the frames are heading for
    this.visible = true;     //   false while off screen (runtime.js): no requests then
    this.drawnAt = {};       // drawing (drawing.js): {part: when a big part was last drawn (ms)}
    this.trailing = null;    //   the timer that draws a skipped frame a moment later
    this.lastStage = null;   // the loading stage last announced
    this.stand = null;       // the recorded run standing in for Python while it starts (recording.js)
    this.linkTimer = null;   // the link (link-replay.js): clears the "Link copied" status
    this.log = new EventLog(this.part("log"));
    this.link = readLink(location.search, this.id, this.paramNames, this.constructor.vocabulary);
    if (this.link && this.link.problem) {
      this.say(`This page's link could not set up this simulation (${this.link.problem}), so it shows the chapter's own settings.`);
      this.link = null;
    } else if (this.link) {
      this.say("This page's link sets up its own run of this simulation: it is shown once the simulation starts.");
    }
    this.bindBuiltIns();
    this.bindTimeTravel();   // Step back and the timeline slider (timetravel.js)
    this.bindCompare();      // two runs side by side (compare.js)
    python.addEventListener("loading", () => {   // another widget's Try again: this one comes too
      if (this.state !== "error") return;
      this.setState("loading");
      this.boot();
    });
    python.addEventListener("progress", (event) => this.showProgress(event.detail));
    python.addEventListener("error", (event) => this.showFailure(event.detail));
    python.addEventListener("restarting", () => this.suspend());   // rebuild.js
    python.addEventListener("restarted", () => this.rebuild());
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
      control.disabled = !this.ready;   // ready, or playing a recorded run while Python starts (recording.js)
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
    if (python.state === "error") {
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
    if (await this.fromRecording(this.link)) return;   // plays at once; Python takes over (recording.js)
    const link = this.link;
    this.link = null;
    let params = { ...this.chapter };
    if (link) params = { ...params, ...link.params };
    if (this.fix && !(await this.keepFix())) return;
    let reply = await this.send({ op: "create", sim: this.sim, params });
    let replay = link;
    if (!reply.ok && link && reply.error.type === "ParamError") {
      this.say(`This page's link could not set up this simulation (${reply.error.message}), so it shows the chapter's own settings.`);
      params = { ...this.chapter };
      replay = null;
      reply = await this.send({ op: "create", sim: this.sim, params });
    }
    if (!reply.ok) return this.refused(reply);
    this.params = params;
    if (this.fix) reply = await this.send({ op: "compare", on: true });   // the pair, side by side
    if (!reply.ok) return this.refused(reply);
    if (!replay) this.setState("ready");   // then the first frame is drawn once, ready to use
    this.started(reply.snapshot);
    if (replay) {
      await this.replay(replay);
      this.setState("ready");
    }
    this.announce("The simulation is ready.");
  }

  /** Python is up but would not create this simulation: the widget says so, with Try again,
      rather than staying "loading" (Python gone is said by the "error" event instead). */
  refused(reply) {
    if (reply.error.type === "Stopped" || reply.error.type === "NotReady") return this.bug(reply);
    this.showFailure({ message: `Python refused it (${reply.error.type}: ${reply.error.message}).`,
                       fix: "Reload the page. If it says the same again, the page is at fault: please report it." }, true);
    return false;
  }

  // --- talking to Python ------------------------------------------------------------------------
  /** Send one message about this widget's simulation; replies come back in order. */
  send(message) {
    return this.afterRequests(() => this.call({ ...message, id: this.id }));
  }

  /** Run `task` (returning a promise) after every earlier request of this widget. */
  afterRequests(task) {
    this.busy += 1;
    const result = this.requests.then(task);
    this.requests = result.then(() => { this.busy -= 1; }, () => { this.busy -= 1; });
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

  // --- the reader's actions ---------------------------------------------------------------------------
  /** A widget button other than playback: an action of the simulation, args from data-*. */
  onAction(name, button) {
    const names = this.constructor.vocabulary[name] || [];
    this.act(name, Object.fromEntries(names.map((arg) => [arg, button.dataset[arg]])));
  }

  /** Do a reader's action; a refusal (ParamError) is said in the widget unless `quiet`. */
  act(name, args = {}, quiet = false) {
    this.say("");
    return this.afterRequests(async () => {
      const before = now(this.snapshot);   // the time the action happens at, exact, for the link
      const reply = await this.call({ op: "act", id: this.id, name, args });
      if (reply.ok) {
        if (name in this.constructor.vocabulary) this.actions.push({ time: before, name, args });
        this.apply(reply.snapshot);
        this.announceResult(reply.snapshot);
        this.sayBranch(reply);
      } else if (reply.error.type === "ParamError") {
        if (!quiet) this.say(this.explain(reply.error));
      } else {
        this.bug(reply);
      }
      return reply;
    });
  }

  // --- the reader's buttons ----------------------------------------------------------------------
  bindBuiltIns() {
    this.body.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action]");
      if (!button || button.disabled || !this.body.contains(button)) return;
      const action = button.dataset.action;
      if (action === "start") return;   // runtime.js starts widgets (it made this one)
      if (action === "retry") this.retry();
      else if (action === "play") this.playing ? this.pauseAndSay() : this.play();
      else if (action === "step") this.stepOnce();
      else if (action === "next") this.stepToEvent();
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
      if (field && this.ready) this.applyField(field.dataset.field);
    });
    // Enter in a number field applies it at once (there is no submit button to press).
    this.body.addEventListener("keydown", (event) => {
      const field = event.target.closest("[data-field]");
      if (field && event.key === "Enter" && event.target.type === "number" && this.ready) {
        event.preventDefault();
        this.applyField(field.dataset.field);
      }
    });
    const form = this.part("params");
    if (form) form.addEventListener("submit", (event) => event.preventDefault());
  }
}

// The methods of each concern, mixed in (getters too).
for (const concern of [Playback, Fields, LinkReplay, Drawing, Rebuild, Recorded, Compare]) {
  for (const name of Object.getOwnPropertyNames(concern.prototype)) {
    if (name === "constructor") continue;
    Object.defineProperty(Widget.prototype, name, Object.getOwnPropertyDescriptor(concern.prototype, name));
  }
}
for (const name of Object.getOwnPropertyNames(TimeTravel.prototype)) {   // timetravel.js, likewise
  if (name !== "constructor") Object.defineProperty(Widget.prototype, name, Object.getOwnPropertyDescriptor(TimeTravel.prototype, name));
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
