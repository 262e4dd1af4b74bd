// Predict, then run (builder/markdown/predict.py writes the boxes): the reader locks in a guess
// before the run the challenge asks about goes on; the page then starts the simulation from the
// chapter's settings, does the challenge's actions at their times (as a link replays them), runs
// it to the end and reads the number at the box's `data-check` path from the snapshot Python
// sent. It says in the box's live region whether the guess was right, unfolds the why (folded
// like a pause box's answer until then), and remembers the answer in this browser (progress.js's
// record, under `predicted`: a check answered, counted in the chapter's progress marks).
//
// "Show me the moment" sets the run up to the moment the question is about, brings the
// simulation's picture into view and moves the focus to its outcome. The simulation stays the
// reader's: its Play, Step and Reset are never held back (a reader who plays on has simply
// looked; "Lock in and run" then sets the moment up again before it runs).

import { readLink } from "./permalink.js";

const KEY = "guide-progress";

/** Wire every challenge box; `widgetFor(root)` starts a simulation and resolves to its widget. */
export default function challenges(boxes, widgetFor) {
  for (const box of boxes) {
    const root = document.getElementById(box.dataset.predictFor);
    if (root) new Challenge(box, root, widgetFor);
  }
}

class Challenge {
  constructor(box, root, widgetFor) {
    this.box = box;
    this.root = root;
    this.widgetFor = widgetFor;
    this.form = box.querySelector('[data-part="form"]');
    this.result = box.querySelector('[data-part="result"]');
    this.answer = box.querySelector('[data-part="answer"]');
    this.guess = null;
    this.running = false;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.lockIn();
    });
    this.form.querySelector('[data-action="moment"]')?.addEventListener("click", () => this.showMoment());
    this.root.addEventListener("sim-snapshot", (event) => this.seen(event.detail));
    this.setLocked(false);                 // written disabled: a press before this module came is nothing
    this.box.dataset.predictReady = "true";
    const earlier = recall(this.box.id);
    if (earlier) this.say(`Earlier you predicted ${earlier.guess}, and you were ${earlier.right ? "right" : "wrong"}. Lock in a new prediction to run it again.`);
  }

  field() {
    return this.form.querySelector("input:checked") || this.form.querySelector("input");
  }

  say(text) {
    this.result.textContent = text;
  }

  /** The reader's guess as a number, or null (said, with the focus on the field). */
  read() {
    const input = this.form.querySelector('input[type="number"]');
    const text = input ? input.value.trim() : (this.form.querySelector("input:checked")?.value ?? "");
    const value = text === "" ? NaN : Number(text);
    if (input) input.setAttribute("aria-invalid", Number.isFinite(value) ? "false" : "true");
    if (Number.isFinite(value)) return value;
    this.say(input && text !== "" ? "Type your prediction as a number." : "Choose or type your prediction first.");
    this.field().focus();
    return null;
  }

  /** Set the run up to the moment the question is about, and show it: the picture in view, the
      focus on the outcome (read out), the box saying to lock in a guess to run on. */
  async showMoment() {
    if (this.running) return;
    this.running = true;
    this.setLocked(true);
    this.say("Setting up the moment the question is about…");
    const widget = await this.ready();
    if (!widget) return this.unlock("The simulation could not start.");
    if (!(await this.setUp(widget))) return;
    this.box.dataset.predict = "waiting";
    this.moment = { time: widget.snapshot.time, actions: widget.actions.length };
    this.running = false;
    this.setLocked(false);
    const at = Number(widget.snapshot.time.toFixed(2));
    this.say(`The simulation is paused at ${at} s, the moment the question is about. ` +
             "Lock in your prediction to run on.");
    this.show(widget, `Paused at ${at} s, the moment the question is about.`);
  }

  /** Bring the simulation's picture into view (smoothly unless the reader asked for less motion)
      and put the focus on its outcome, saying `words` on the widget's status line. */
  show(widget, words) {
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    const picture = this.root.querySelector('[data-part="picture"]') || this.root;
    picture.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
    const outcome = this.root.querySelector('[data-part="outcome"]');
    if (outcome) {
      if (!outcome.hasAttribute("tabindex")) outcome.setAttribute("tabindex", "-1");
      outcome.focus({ preventScroll: true });
    }
    widget.announce(`${words} ${widget.snapshot.outcome || ""}`.trim());
  }

  async lockIn() {
    if (this.running) return;
    const guess = this.read();
    if (guess === null) return;
    this.guess = guess;
    this.running = true;
    this.answer.open = false;                         // folded: the why comes after the guess
    this.setLocked(true);
    this.say(`Locked in: ${guess}. Running the simulation…`);
    const widget = await this.ready();
    if (!widget) {
      this.answer.open = true;   // no run to check it against: the answer as the build found it
      return this.unlock("The simulation could not start, so the prediction could not be checked against a run. " +
                         "The answer, as the guide's build ran it, is below.");
    }
    // Set up again unless the run still stands at the moment shown (the reader may have reset it,
    // changed a setting or acted since).
    const moment = this.box.dataset.predict === "waiting" ? this.moment : null;
    const still = moment && widget.snapshot.time === moment.time && widget.actions.length === moment.actions;
    if (!still && !(await this.setUp(widget))) return;
    this.box.dataset.predict = "running";
    this.widget = widget;
    this.lastTime = null;
    this.armed = true;
    this.seen(widget.snapshot);
    if (this.armed) widget.play(true);   // "Run to the end": the answer is at the end
  }

  /** Start the run again from the chapter's settings and do the challenge's actions. */
  async setUp(widget) {
    this.armed = false;
    widget.pause();
    const reply = await widget.send({ op: "create", sim: widget.sim, params: { ...widget.chapter } });
    if (!reply.ok) return this.unlock("The simulation refused to start again, so the prediction could not be checked.");
    widget.params = { ...widget.chapter };
    widget.log.clear();
    widget.started(reply.snapshot);
    const { actions = [] } = readLink(`?p.do=${encodeURIComponent(this.box.dataset.do)}`, "p", [],
                                      widget.constructor.vocabulary) || {};
    for (const action of actions) {
      if (!(await widget.runUntil(action.time))) return this.unlock("The run stopped before the challenge's moment.");
      const done = await widget.act(action.name, action.args);
      if (!done.ok) return this.unlock(`The simulation refused the challenge's action (${done.error.message}).`);
    }
    return true;
  }

  /** The widget, started and ready (null if it failed). */
  async ready() {
    const widget = await this.widgetFor(this.root).catch(() => null);
    if (!widget) return null;
    for (let tries = 0; tries < 1200 && this.root.dataset.state !== "ready"; tries += 1) {
      if (this.root.dataset.state === "error") return null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await widget.requests;
    return this.root.dataset.state === "ready" ? widget : null;
  }

  /** A snapshot drawn by the widget: once armed, the first finished one is the answer. */
  seen(snapshot) {
    if (!this.armed || !snapshot) return;
    if (snapshot.time < (this.lastTime ?? 0)) {   // the reader pressed Reset mid-run
      this.armed = false;
      return this.unlock("The run was reset before it ended. Lock in your prediction again to run it.");
    }
    this.lastTime = snapshot.time;
    if (!snapshot.finished) return;
    this.armed = false;
    this.lastTime = null;
    const value = pick(snapshot, this.box.dataset.check);
    this.widget.pause();
    if (typeof value !== "number") return this.unlock("The simulation did not report the number this challenge checks.");
    const within = Number(this.box.dataset.within) || 0;
    const right = Math.abs(value - this.guess) <= within + 1e-9;
    const unit = this.box.dataset.unit ? ` ${this.box.dataset.unit}` : "";
    const shown = Number(value.toFixed(3));
    this.say(`${right ? "Right" : "Not this time"}: you predicted ${this.guess}, and the run ended with ` +
             `${shown}${unit}${within ? ` (within ${within} counts)` : ""}. Why is below.`);
    remember(this.box.id, this.guess, right);
    this.answer.open = true;
    this.box.dataset.result = right ? "right" : "wrong";
    this.unlock(null);
  }

  unlock(message) {
    this.running = false;
    this.guess = null;
    delete this.box.dataset.predict;
    this.setLocked(false);
    if (message) this.say(message);
  }

  setLocked(locked) {
    for (const control of this.form.querySelectorAll("input, button")) control.disabled = locked;
  }
}

/** snapshot["stats"]["emails_sent"] for "stats.emails_sent" (undefined when it is not there). */
function pick(snapshot, path) {
  return String(path || "").split(".").reduce((value, key) =>
    (value && typeof value === "object" && Object.hasOwn(value, key) ? value[key] : undefined), snapshot);
}

function chapterUrl() {
  return document.querySelector('.chapter-list a[aria-current="page"][data-progress-url]')?.dataset.progressUrl || null;
}

function recall(id) {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data.chapters?.[chapterUrl()]?.predicted?.[id] || null;
  } catch {
    return null;
  }
}

function remember(id, guess, right) {
  const url = chapterUrl();
  if (!url) return;
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    data.chapters ||= {};
    data.chapters[url] ||= { read: false, answered: [] };
    data.chapters[url].predicted ||= {};
    data.chapters[url].predicted[id] = { guess, right };
    localStorage.setItem(KEY, JSON.stringify(data));
    document.dispatchEvent(new CustomEvent("guide-progress"));   // progress.js marks it now
  } catch {
    // storage is off: the answer is simply not kept
  }
}
