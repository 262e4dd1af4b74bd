// A widget's event log: the simulation's events, newest last (the template's <div role="region"
// data-part="log"><ol></ol></div>). It is not a live region: at 50x it gains dozens of events a
// second, too many to read aloud; the widget announces the reader's own actions and the outcome
// on its status line instead (widget.js, `announce`). Only the latest entries stay
// in the page, so a long run cannot grow it without end; it follows the newest entry unless
// the reader has scrolled up to read. While a run plays (`hold`), a snapshot's events wait and go
// in together, every 100 ms while the log is in view and every second while it is scrolled away:
// at 10x a frame brings dozens, and the page kept only the latest anyway.

import { el, seconds, setText, thousands } from "./dom.js";

const KEEP = 150;  // entries kept in the page
const HELD_MS = 100;      // while held: how often the waiting events go in (in view)...
const HELD_AWAY_MS = 1000; // ...and while the log is scrolled away

export class EventLog {
  constructor(box) {
    this.box = box;
    this.list = box.querySelector("ol");
    this.follow = true;          // keep the newest entry in view, until the reader scrolls up
    this.scrollPending = false;
    this.entries = [];           // what the page's entries say, oldest first ({time, text} or {note})
    this.waiting = [];           // events not in the page yet (while held)
    this.skipped = 0;            // and how many before them will never be (more than KEEP came)
    this.held = false;
    this.timer = null;
    this.inView = true;
    new IntersectionObserver(([entry]) => { this.inView = entry.isIntersecting; }).observe(box);
    // Read the scroll position only when it changes, never right after an entry is added:
    // that would make the browser lay the page out again in the middle of a frame.
    box.addEventListener("scroll", () => {
      this.follow = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
    }, { passive: true });
    // Follow the newest entry once the browser has laid the list out for the frame anyway (a
    // ResizeObserver runs after layout), never by asking for a layout of our own: that forced
    // layout was most of a frame with 64 workers (bench/bench_widgets.py "rows").
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => {
        if (this.follow) box.scrollTop = box.scrollHeight;
      }).observe(this.list);
    }
  }

  /** Add the events of one snapshot: [{time, text}], and how many older ones were dropped. */
  add(events, dropped = 0) {
    if (!events.length && !dropped) return;
    if (dropped) {   // the simulation left these out: they go before this snapshot's
      this.skipped += this.waiting.length + dropped;
      this.waiting = [];
    }
    this.waiting.push(...events);
    if (this.waiting.length > KEEP) {
      this.skipped += this.waiting.length - KEEP;
      this.waiting = this.waiting.slice(-KEEP);
    }
    if (!this.held) this.flush();
    else this.timer ||= setTimeout(() => this.flush(), this.inView ? HELD_MS : HELD_AWAY_MS);
  }

  /** While a run plays (true), events wait and go in together; false puts them in now. */
  hold(held) {
    this.held = held;
    if (!held) this.flush();
  }

  /** Put the waiting events in the page. */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.waiting.length && !this.skipped) return;
    const entries = this.skipped ? [{ note: `… ${thousands(this.skipped)} earlier events not shown` }] : [];
    entries.push(...this.waiting);
    this.waiting = [];
    this.skipped = 0;
    this.put(entries);
  }

  /** A line of the widget's own (not the simulation's): "Started again with ...". */
  note(text) {
    this.flush();
    this.put([{ note: text }]);
  }

  /** Add `entries` ({time, text} or {note}) after the shown ones, keeping the latest KEEP. When
      they would take the place of half the list or more (a playing live queue brings a hundred
      in a tenth of a second), the entries already in the page are written over, oldest first,
      rather than removed and made anew: new text in place of old costs the page no new elements
      to style and lay out. Either way the page ends with the same entries. */
  put(entries) {
    const list = this.list;
    this.entries = this.entries.concat(entries).slice(-KEEP);
    if (entries.length >= KEEP / 2 && list.childElementCount + entries.length > KEEP) {
      while (list.childElementCount < this.entries.length) list.append(el("li"));
      while (list.childElementCount > this.entries.length) list.firstElementChild.remove();
      this.entries.forEach((entry, index) => write(list.children[index], entry));
    } else {
      list.append(...entries.map((entry) => write(el("li"), entry)));
      while (list.childElementCount > KEEP) list.firstElementChild.remove();
    }
    if (this.follow && !this.scrollPending && typeof ResizeObserver !== "function") {
      this.scrollPending = true;   // once per frame, when the browser lays out anyway
      requestAnimationFrame(() => {
        this.scrollPending = false;
        this.box.scrollTop = this.box.scrollHeight;
      });
    }
  }

  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    this.waiting = [];
    this.skipped = 0;
    this.list.replaceChildren();
    this.entries = [];
    this.follow = true;
  }
}

/** Make `li` say `entry`: an event (its time, then its words) or a note, changing only what differs. */
function write(li, entry) {
  const nodes = li.childNodes;
  if (entry.note !== undefined) {
    if (li.className !== "sim-log-note" || nodes.length !== 1 || nodes[0].nodeType !== Node.TEXT_NODE) {
      li.className = "sim-log-note";
      li.replaceChildren(entry.note);
    } else {
      setText(li, entry.note);
    }
    return li;
  }
  const time = `${seconds(entry.time)} s`;
  if (li.className || nodes.length !== 3 || nodes[0].nodeName !== "SPAN" || nodes[2].nodeType !== Node.TEXT_NODE) {
    li.removeAttribute("class");
    li.replaceChildren(el("span", { class: "sim-log-time" }, time), " ", entry.text);
  } else {
    setText(nodes[0], time);
    if (nodes[2].data !== entry.text) nodes[2].data = entry.text;
  }
  return li;
}
