// A widget's drawing (mixed into Widget, widget.js): a new snapshot applied (time, outcome, log),
// the widget module's draw(), which controls apply now, and where the focus goes when a focused
// button stops applying.

import { seconds, setText } from "./dom.js";
import { drawOutcome } from "./view.js";

const TABLE_MS = 100;   // while playing, a job table is redrawn at most this often

export class Drawing {
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

  /** Hook: what the clock says (the race counts statements: its snapshot's words). */
  clockText(snapshot) {
    return `${seconds(snapshot.time)} s`;
  }

  apply(snapshot) {
    if (!this.snapshot || snapshot.time < this.snapshot.time) this.target = snapshot.time;
    this.snapshot = snapshot;
    setText(this.part("time"), this.clockText(snapshot));
    drawOutcome(this.body, snapshot.view);   // Python's words (view.js)
    this.log.add(snapshot.events || [], snapshot.events_dropped || 0);
    if (snapshot.finished && this.playing && !this.constructor.idleWhenFinished) {
      this.pause();
      this.announce(`Finished. ${snapshot.outcome}`);
    }
    this.refresh();
    // For whatever on the page follows the run (predict.js's challenges).
    this.root.dispatchEvent(new CustomEvent("sim-snapshot", { detail: snapshot }));
  }

  /** Draw the latest snapshot and set which controls can be used now. */
  refresh() {
    const snapshot = this.snapshot;
    const focused = this.body.contains(document.activeElement) ? document.activeElement : null;
    this.draw(snapshot);
    this.showTimeline(snapshot);   // the time slider and Step back (timetravel.js)
    const over = snapshot.finished && !this.constructor.idleWhenFinished;
    setText(this.part("play-label"), this.playing ? "Pause" : over ? "Play again" : "Play");
    const step = this.button("step");
    if (step) step.disabled = !this.ready || snapshot.finished;
    const next = this.button("next");   // "Step to the next event", where Step is a tick
    if (next) next.disabled = !this.ready || snapshot.finished;
    // Why Step does nothing now, in the simulation's words (its aria-describedby).
    setText(this.part("step-note"), snapshot.finished ? snapshot.still || "" : "");
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
      playing, when at most every `every` ms (TABLE_MS unless said; the rest of the widget
      follows every frame). */
  due(part, every = TABLE_MS) {
    const now = performance.now();
    const wait = every - (now - (this.drawnAt[part] || 0));
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
}
