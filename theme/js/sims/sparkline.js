// A small line chart of one number over the run so far (its last minute of virtual time at most), drawn into an SVG
// <polyline> (its colour comes from the CSS, so it follows the light and dark themes), with its
// axes written beside it (the highest value, 0, and the times at both ends, in seconds) and a mark
// at each moment the reader acted (a worker added, killed...). The chart is decoration: the same
// number is written beside it in words, and the reader's actions are listed under the timeline.

import { setAttr, setText, svg } from "./dom.js";

const WINDOW = 60;           // seconds of virtual time shown
const WIDTH = 240;           // the SVG's viewBox is 0 0 WIDTH HEIGHT
const HEIGHT = 60;
const MIN_GAP = 0.1;         // seconds between two points kept
const MIN_SPAN = 5;          // seconds: the shortest stretch of time the chart spreads out
const MAX_MARKS = 12;        // marks drawn: the latest in the window

export class Sparkline {
  /** `line`: the <polyline>; `axes` (optional): {top, start, end} elements for the axis
      words, `marks` (an SVG <g> for the lines) and `notes` (an element for their labels);
      `unit(value)` writes a value for the top of the axis. */
  constructor(line, axes = {}, unit = String) {
    this.line = line;
    this.axes = axes;
    this.unit = unit;
    this.marks = [];         // [{time, label}] the reader's actions, from the snapshot
    this.markNodes = [];
    this.clear();
  }

  clear() {
    this.points = [];        // [time, value]
    this.peak = 0;
    this.drawn = "";
    this.draw();
  }

  /** Record `value` at virtual `time` (seconds) and redraw. */
  add(time, value) {
    this.record(time, value);
    this.draw();
  }

  /** Record `value` at virtual `time` (seconds), to be drawn by the next draw(): the peak counts
      every value, drawn or not. */
  record(time, value) {
    const last = this.points[this.points.length - 1];
    if (last && time < last[0]) this.points = [];       // time went back: a new run
    if (last && time - last[0] < MIN_GAP && time >= last[0]) last[1] = value;
    else this.points.push([time, value]);
    this.peak = Math.max(this.peak, value);
    while (this.points.length > 2 && this.points[1][0] < time - WINDOW) this.points.shift();
  }

  /** The reader's actions to mark: [{time (seconds), label}] (drawn with the next add()). */
  mark(marks) {
    this.marks = marks;
  }

  draw() {
    const points = this.points;
    let text;
    let start = 0;
    let span = MIN_SPAN;
    let top = 1;
    if (!points.length) {
      text = `0,${HEIGHT} ${WIDTH},${HEIGHT}`;
    } else {
      // The chart spans the run so far (at least MIN_SPAN seconds), the last WINDOW at most.
      const end = points[points.length - 1][0];
      start = Math.max(0, end - WINDOW);
      span = Math.max(end - start, MIN_SPAN);
      for (const [, value] of points) if (value > top) top = value;
      const x = (time) => Math.max(0, ((time - start) / span) * WIDTH).toFixed(1);
      const y = (value) => (HEIGHT - 2 - (value / top) * (HEIGHT - 6)).toFixed(1);
      text = points.map(([time, value]) => `${x(time)},${y(value)}`).join(" ");
      if (points.length === 1) text += ` ${x(end)},${y(points[0][1])}`;
    }
    if (text !== this.drawn) {
      this.line.setAttribute("points", text);
      this.drawn = text;
    }
    const axes = this.axes;
    // The axis labels change only when the scale does. Each new text is a new text node, not the old
    // one edited: an end-aligned label whose text grows would move its old node, which the Layout
    // Instability API counts as a shift (tests/widgets/test_presentation.py), a new node it does not.
    const label = (node, text) => { if (node && node.textContent !== text) node.textContent = text; };
    label(axes.top, this.unit(top));
    label(axes.start, `${Math.round(start)} s`);
    label(axes.end, `${Math.round(start + span)} s`);
    if (axes.marks) this.drawMarks(start, span);
  }

  drawMarks(start, span) {
    const shown = this.marks.filter((m) => m.time >= start && m.time <= start + span).slice(-MAX_MARKS);
    while (this.markNodes.length < shown.length) {
      const line = svg("line", { class: "lq-mark", y1: 0, y2: HEIGHT });
      const note = document.createElement("span");
      note.className = "lq-mark-note";
      this.axes.marks.append(line);
      this.axes.notes.append(note);
      this.markNodes.push([line, note]);
    }
    this.markNodes.forEach(([line, note], index) => {
      const mark = shown[index];
      line.style.display = note.style.display = mark ? "" : "none";
      if (!mark) return;
      const share = (mark.time - start) / span;
      setAttr(line, "x1", (share * WIDTH).toFixed(1));
      setAttr(line, "x2", (share * WIDTH).toFixed(1));
      const left = `${(share * 100).toFixed(1)}%`;
      if (note.style.left !== left) note.style.left = left;
      setText(note, mark.label);
      setAttr(note, "title", mark.words || null);
    });
  }
}
