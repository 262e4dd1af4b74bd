// A widget's parameter fields (mixed into Widget, widget.js), drawn by the build from the
// simulation's PARAMS: a change is checked by the simulation itself; a live setting changes the
// running simulation (act "set"), any other starts a new run; a refusal is shown beside its
// field in the simulation's own words (ParamError's `words`), and the run goes on.

import { setAttr, setText } from "./dom.js";

export class Fields {
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

  /** Show the fields and menu choices the simulation allows at its level: the snapshot's
      `shown`, {hidden: [field names kept back], options: {menu: [choices shown]}}, decided in
      Python (simulations/crash_timing/levels.py). The build drew the chapter's level; a run at another
      one (a link's `level`, then the chapter's settings again) redraws the form from its own.
      A kept-back field is hidden (neither reached nor heard) and keeps its value; a choice kept
      back is hidden and disabled, yet stays selected when a link chose it. */
  showFields(shown) {
    const form = this.part("params");
    const key = JSON.stringify(shown);
    if (!form || !shown || key === this.shownKey) return;
    this.shownKey = key;
    for (const box of form.querySelectorAll("[data-field]")) box.hidden = shown.hidden.includes(box.dataset.field);
    for (const [menu, choices] of Object.entries(shown.options || {})) {
      for (const option of form.querySelector(`[data-field="${menu}"] select`)?.options || []) {
        option.hidden = option.disabled = !choices.includes(option.value);
      }
    }
    for (const more of form.querySelectorAll(".sim-more")) more.hidden = !more.querySelector("[data-field]:not([hidden])");
  }

  fieldError(name, text) {
    const box = this.fieldBox(name);
    if (!box || box.hidden) {   // a field the level keeps back: the words go to the message line
      if (text) this.say(text);
      return;
    }
    setText(box.querySelector('[data-part="error"]'), text);
    for (const input of box.querySelectorAll("input, select")) setAttr(input, "aria-invalid", text ? "true" : null);
  }

  /** The words of a ParamError as the simulation says them beside a field, with the field's
      own label: "Lease (s): must be from 0.5 to 3600, got -1" (simulations/engine/params.py). */
  explain(error) {
    return String(error.words || error.message || "");
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
    // Picking a library (or its what-if) leaves the settings a preset sets to the preset, except
    // the chapter's own: the snapshot names them (live_queue_libraries.py), else every value shown
    // would be sent, and a value sent counts as the reader's.
    const presets = this.snapshot && this.snapshot.presets;
    if (presets && presets.by.includes(name)) {
      for (const field of presets.sets) {
        if (Object.hasOwn(this.chapter, field)) current[field] = this.chapter[field];
        else delete current[field];
      }
    }
    return { ...current, [name]: value };
  }

  async applyField(name) {
    const value = this.readField(name);
    if (this.applied[name] === String(value)) return;   // Enter, then the change event on leaving
    this.applied[name] = String(value);
    this.fieldError(name, "");
    this.say("");
    if (this.fieldBox(name).hasAttribute("data-live")) {   // the spec's "live" (PARAMS)
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
      this.fieldError(this.fieldBox(reply.error.field)?.hidden === false ? reply.error.field : name, this.explain(reply.error));
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
}
