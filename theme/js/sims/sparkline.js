// A small line chart of one number over the run so far (its last minute of virtual time at most), drawn into an SVG
// <polyline> (its colour comes from the CSS, so it follows the light and dark themes). The
// chart is decoration: the same number is written beside it in words.

const WINDOW = 60;           // seconds of virtual time shown
const WIDTH = 240;           // the SVG's viewBox is 0 0 WIDTH HEIGHT
const HEIGHT = 60;
const MIN_GAP = 0.1;         // seconds between two points kept
const MIN_SPAN = 5;          // seconds: the shortest stretch of time the chart spreads out

export class Sparkline {
  constructor(polyline) {
    this.line = polyline;
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
    const last = this.points[this.points.length - 1];
    if (last && time < last[0]) this.points = [];       // time went back: a new run
    if (last && time - last[0] < MIN_GAP && time >= last[0]) last[1] = value;
    else this.points.push([time, value]);
    this.peak = Math.max(this.peak, value);
    while (this.points.length > 2 && this.points[1][0] < time - WINDOW) this.points.shift();
    this.draw();
  }

  draw() {
    const points = this.points;
    let text;
    if (!points.length) {
      text = `0,${HEIGHT} ${WIDTH},${HEIGHT}`;
    } else {
      // The chart spans the run so far (at least MIN_SPAN seconds), the last WINDOW at most.
      const end = points[points.length - 1][0];
      const start = Math.max(0, end - WINDOW);
      const span = Math.max(end - start, MIN_SPAN);
      const top = Math.max(1, ...points.map(([, value]) => value));
      const x = (time) => Math.max(0, ((time - start) / span) * WIDTH).toFixed(1);
      const y = (value) => (HEIGHT - 2 - (value / top) * (HEIGHT - 6)).toFixed(1);
      text = points.map(([time, value]) => `${x(time)},${y(value)}`).join(" ");
      if (points.length === 1) text += ` ${x(end)},${y(points[0][1])}`;
    }
    if (text !== this.drawn) {
      this.line.setAttribute("points", text);
      this.drawn = text;
    }
  }
}
