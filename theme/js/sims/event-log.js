// A widget's event log: the simulation's events, newest last, in an aria-live region (the
// template's <div role="log" aria-live="polite"><ol></ol></div>). Only the latest entries stay
// in the page, so a long run cannot grow it without end; it follows the newest entry unless
// the reader has scrolled up to read.

import { el, seconds } from "./dom.js";

const KEEP = 150;  // entries kept in the page

export class EventLog {
  constructor(box) {
    this.box = box;
    this.list = box.querySelector("ol");
  }

  /** Add the events of one snapshot: [{time, text}], and how many older ones were dropped. */
  add(events, dropped = 0) {
    if (!events.length && !dropped) return;
    const follow = this.box.scrollHeight - this.box.scrollTop - this.box.clientHeight < 24;
    const items = [];
    const shown = events.slice(-KEEP);
    const skipped = dropped + events.length - shown.length;
    if (skipped) items.push(el("li", { class: "sim-log-note" }, `… ${skipped.toLocaleString("en")} earlier events not shown`));
    for (const event of shown) {
      items.push(el("li", {}, el("span", { class: "sim-log-time" }, `${seconds(event.time)} s`), " ", event.text));
    }
    this.list.append(...items);
    while (this.list.childElementCount > KEEP) this.list.firstElementChild.remove();
    if (follow) this.box.scrollTop = this.box.scrollHeight;
  }

  /** A line of the widget's own (not the simulation's): "Started again with ...". */
  note(text) {
    this.list.append(el("li", { class: "sim-log-note" }, text));
    while (this.list.childElementCount > KEEP) this.list.firstElementChild.remove();
    this.box.scrollTop = this.box.scrollHeight;
  }

  clear() {
    this.list.replaceChildren();
  }

  /** The texts shown, oldest first (for tests and for comparing runs). */
  texts() {
    return [...this.list.children].map((item) => item.textContent);
  }
}
