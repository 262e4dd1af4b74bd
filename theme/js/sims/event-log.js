// A widget's event log: the simulation's events, newest last (the template's <div role="region"
// data-part="log"><ol></ol></div>). It is not a live region: at 50x it gains dozens of events a
// second, too many to read aloud; the widget announces the reader's own actions and the outcome
// on its status line instead (widget.js, `announce`). Only the latest entries stay
// in the page, so a long run cannot grow it without end; it follows the newest entry unless
// the reader has scrolled up to read.

import { el, seconds, thousands } from "./dom.js";

const KEEP = 150;  // entries kept in the page

export class EventLog {
  constructor(box) {
    this.box = box;
    this.list = box.querySelector("ol");
    this.follow = true;          // keep the newest entry in view, until the reader scrolls up
    this.scrollPending = false;
    // Read the scroll position only when it changes, never right after an entry is added:
    // that would make the browser lay the page out again in the middle of a frame.
    box.addEventListener("scroll", () => {
      this.follow = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
    }, { passive: true });
    // Follow the newest entry once the browser has laid the list out for the frame anyway (a
    // ResizeObserver runs after layout), never by asking for a layout of our own: that forced
    // layout was most of a frame with 64 workers (issue 19, bench/bench_widgets.py "rows").
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => {
        if (this.follow) box.scrollTop = box.scrollHeight;
      }).observe(this.list);
    }
  }

  /** Add the events of one snapshot: [{time, text}], and how many older ones were dropped. */
  add(events, dropped = 0) {
    if (!events.length && !dropped) return;
    const items = [];
    const shown = events.slice(-KEEP);
    const skipped = dropped + events.length - shown.length;
    if (skipped) items.push(el("li", { class: "sim-log-note" }, `… ${thousands(skipped)} earlier events not shown`));
    for (const event of shown) {
      items.push(el("li", {}, el("span", { class: "sim-log-time" }, `${seconds(event.time)} s`), " ", event.text));
    }
    this.append(items);
  }

  /** A line of the widget's own (not the simulation's): "Started again with ...". */
  note(text) {
    this.append([el("li", { class: "sim-log-note" }, text)]);
  }

  append(items) {
    this.list.append(...items);
    while (this.list.childElementCount > KEEP) this.list.firstElementChild.remove();
    if (this.follow && !this.scrollPending && typeof ResizeObserver !== "function") {
      this.scrollPending = true;   // once per frame, when the browser lays out anyway
      requestAnimationFrame(() => {
        this.scrollPending = false;
        this.box.scrollTop = this.box.scrollHeight;
      });
    }
  }

  clear() {
    this.list.replaceChildren();
    this.follow = true;
  }
}
