// Worker A's lane as a control: "A dies here", a slider over the crash points at the
// times A would die there (the snapshot's `dies_at`, from Python), the last stop past A's work
// being "A does not die". Dragged with a pointer (the handle follows, the point is chosen on
// release) or moved with the arrow keys, Home and End; each choice checks the same radio as the
// list above and goes through the widget's own field change, so it answers at once like a radio.

const LAST_GAP = 1.25;   // seconds past the last crash point where "A does not die" sits

export class DiesSlider {
  /** `choose(point)`: the widget checks that point's radio and applies it. */
  constructor(node, choose) {
    this.node = node;
    this.handle = node.querySelector('[data-part="dies-handle"]');
    this.choose = choose;
    this.stops = [];       // [{point, time, words}] in order, "none" last
    this.index = 0;
    this.enabled = false;
    node.addEventListener("keydown", (event) => this.key(event));
    node.addEventListener("pointerdown", (event) => this.grab(event));
    node.addEventListener("pointermove", (event) => this.drag(event));
    node.addEventListener("pointerup", (event) => this.drop(event));
    node.addEventListener("pointercancel", () => this.cancel());
  }

  /** Draw from the snapshot: the stops, the chosen one, and the lane's time scale `at`/`span`. */
  draw(s, at, span, enabled) {
    const visible = s.scenario === "crash" && s.dies_at.length > 0;
    this.node.hidden = !visible;
    if (!visible) return;
    const words = Object.fromEntries(s.points.map((p) => [p.name, `A dies ${p.label}`]));
    const last = s.dies_at[s.dies_at.length - 1].time;
    this.stops = [...s.dies_at.map((d) => ({ point: d.point, time: d.time, words: words[d.point] })),
                  { point: "none", time: Math.min(span, last + LAST_GAP), words: "A does not die" }];
    this.at = at;
    this.span = span;
    this.enabled = enabled;
    this.node.tabIndex = enabled ? 0 : -1;
    this.node.setAttribute("aria-disabled", enabled ? "false" : "true");
    this.node.setAttribute("aria-valuemax", String(this.stops.length - 1));
    if (this.dragging === undefined) {
      const found = this.stops.findIndex((stop) => stop.point === s.crash_shown.point);
      this.show(found === -1 ? this.stops.length - 1 : found);
    }
  }

  show(index) {
    this.index = index;
    const stop = this.stops[index];
    this.node.setAttribute("aria-valuenow", String(index));
    this.node.setAttribute("aria-valuetext", stop.words);
    this.handle.textContent = stop.point === "none" ? "A does not die" : "A dies here";
    this.handle.dataset.point = stop.point;
    this.handle.style.insetInlineStart = this.at(stop.time);
    this.handle.dataset.placed = "true";   // shown from now on (CSS): never seen moving into place
  }

  pick(index) {
    const next = Math.max(0, Math.min(this.stops.length - 1, index));
    this.show(next);
    this.choose(this.stops[next].point);
  }

  key(event) {
    if (!this.enabled) return;
    const moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };
    let index = null;
    if (event.key in moves) index = this.index + moves[event.key];
    else if (event.key === "Home") index = 0;
    else if (event.key === "End") index = this.stops.length - 1;
    if (index === null) return;
    event.preventDefault();
    if (index >= 0 && index < this.stops.length && index !== this.index) this.pick(index);
  }

  /** The stop nearest the pointer (by time along the lane). */
  nearest(event) {
    const box = this.node.getBoundingClientRect();
    const fraction = Math.max(0, Math.min(1, (event.clientX - box.left) / (box.width || 1)));
    const rtl = getComputedStyle(this.node).direction === "rtl";
    const time = (rtl ? 1 - fraction : fraction) * this.span;
    let best = 0;
    this.stops.forEach((stop, i) => {
      if (Math.abs(stop.time - time) < Math.abs(this.stops[best].time - time)) best = i;
    });
    return best;
  }

  grab(event) {
    if (!this.enabled || event.button !== 0) return;
    event.preventDefault();
    this.node.focus();
    this.node.setPointerCapture?.(event.pointerId);
    this.dragging = this.index;   // where it was: a cancelled drag goes back there
    this.node.dataset.dragging = "true";
    this.show(this.nearest(event));
  }

  drag(event) {
    if (this.dragging === undefined) return;
    const index = this.nearest(event);
    if (index !== this.index) this.show(index);
  }

  drop(event) {
    if (this.dragging === undefined) return;
    const before = this.dragging;
    this.end();
    const index = this.nearest(event);
    if (index !== before) this.pick(index);
    else this.show(before);
  }

  cancel() {
    if (this.dragging === undefined) return;
    const before = this.dragging;
    this.end();
    this.show(before);
  }

  end() {
    this.dragging = undefined;
    delete this.node.dataset.dragging;
  }
}
