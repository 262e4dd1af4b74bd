// live-queue's picture: the queue as a lane of job tokens, one box per worker holding the token of
// the job it works on (its lease drawn as a ring draining around it), and the done and dead piles.
// The tokens themselves are live-queue-tokens.js's; this module places them, draws the bands, the
// worker boxes and the labels, and says it all in words. Everything comes from the snapshot's "picture"
// (simulations/live_queue/picture.py): a few dozen tokens and the counts, never one per job.
// Drawn at most once per animation frame; the same words are in the svg's aria-label.

import { plural, seconds, setAttr, setText, svg, thousands } from "./dom.js";
import { buttonsWidth, room, WorkerButtons } from "./live-queue-buttons.js";
import { ordinal, TOKEN_H, TOKEN_W, Tokens } from "./live-queue-tokens.js";
import { BAR_H, drawCell, makeCell } from "./live-queue-workers.js";

const STEP = TOKEN_W + 8;    // one token to the next in a lane or a pile
const PAD = 8;
const BAND = 54;             // the queue's band and the piles' band: a label, then a row of tokens
const ROW = 36;              // one row of workers
const ROW_COMPACT = 30;      // one row of compact worker boxes (many workers on a phone)
const GAP = 16;              // between the bands
const PILES = 72;            // the piles' band: a label, a row of tokens, the duplicate emails

const MIN_CELL = 76;         // the narrowest worker box: its name and a token

/** The px a label's `words` take (13 px bold, an estimate: no layout is read while a run plays). */
function span(words) {
  return words.length * 7.6;
}

function wanted(n) {
  return n <= 4 ? 1 : n <= 8 ? 2 : n <= 24 ? 4 : 8;
}

/** Worker boxes per row for `n` workers in a picture `width` px wide: one column for a few, up
    to 8 for 64 (fewer on a phone). */
export function columns(n, width) {
  return Math.min(Math.max(1, Math.floor((width - 2 * PAD) / MIN_CELL)), wanted(n));
}

/** Whether the boxes wrap into more rows than planned (64 workers on a phone): then each row is
    lower, so that the picture fits in one phone screen's height (844 px). */
function compact(n, width) {
  return columns(n, width) < wanted(n);
}

/** The px of a worker box left of its buttons, and whether that makes it narrow (many workers:
    live-queue-workers.js), when the boxes are `cellW` px apart. */
function boxRoom(cellW) {
  const inner = cellW - buttonsWidth(room(cellW));
  return { inner, narrow: inner < 170 };
}

/** One row of worker boxes (px): a narrow box has BAR_H px more for its lease's bar along its
    bottom edge; a compact one (64 workers on a phone) has no bar, its token's ring being the
    lease, so that the picture still fits one phone screen. */
function rowHeight(n, width) {
  if (compact(n, width)) return ROW_COMPACT;
  return ROW + (boxRoom(Math.floor((width - 2 * PAD) / columns(n, width))).narrow ? BAR_H : 0);
}

/** The picture's height (px) for `n` workers: templates/sim/live-queue.html writes the same for
    the embed's workers at a desktop's width (and up to 4 workers, one column, at any width). */
export function pictureHeight(n, width) {
  return BAND + PILES + 2 * GAP + Math.ceil(n / columns(n, width)) * rowHeight(n, width);
}

export class QueuePicture {
  constructor(figure) {
    this.figure = figure;
    this.svg = figure.querySelector("svg");
    this.width = 0;
    this.snapshot = null;
    this.frame = 0;
    this.cells = [];             // one <g> per worker
    this.layers = {};
    for (const name of ["labels", "workers", "tokens"]) {
      this.layers[name] = svg("g", { class: `lqp-${name}` });
      this.svg.append(this.layers[name]);
    }
    this.tokens = new Tokens(this.layers.tokens);
    this.buttons = new WorkerButtons(this.svg, () => this.request());   // Kill, Stall, Restart
    this.ready = false;
    this.labels = {};
    this.rail = svg("rect", { class: "lqp-rail", x: PAD - 4, y: 18, height: TOKEN_H + 8, rx: 6 });
    this.layers.labels.append(this.rail);
    for (const name of ["queue", "more", "stuck", "done", "dead", "duplicates", "claim", "ack"]) {
      this.labels[name] = svg("text", { class: `lqp-label lqp-label-${name}` });
      this.layers.labels.append(this.labels[name]);
    }
    this.lines = [svg("line", { class: "lqp-rule" }), svg("line", { class: "lqp-rule" })];
    this.layers.labels.append(...this.lines);
    new ResizeObserver((entries) => {
      const width = Math.round(entries[0].contentRect.width);
      if (width && width !== this.width) {
        this.width = width;
        this.request();
      }
    }).observe(figure);
  }

  /** A new run: its tokens start where they are, without gliding from the last run's places. */
  clear() {
    this.tokens.clear();
  }

  /** Draw `snapshot` at the next animation frame (once, however many arrive before it); the
      buttons on the workers' boxes work when `ready` (the widget's state). */
  show(snapshot, ready) {
    this.snapshot = snapshot;
    this.ready = ready;
    this.request();
  }

  /** How much room the workers' boxes give their buttons now (live-queue-buttons.js room()). */
  buttonRoom() {
    return this.width && this.snapshot ? room(Math.floor((this.width - 2 * PAD) / columns(this.snapshot.workers.length, this.width))) : "words";
  }

  request() {
    if (!this.frame && this.snapshot) this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.width) this.draw(this.snapshot);
    });
  }

  draw(s) {
    const p = s.picture;
    const width = this.width;
    const n = s.workers.length;
    const cols = columns(n, width);
    const height = pictureHeight(n, width);
    setAttr(this.svg, "viewBox", `0 0 ${width} ${height}`);
    setAttr(this.svg, "height", height);
    const small = compact(n, width);
    const row = rowHeight(n, width);
    const workersTop = BAND + GAP;
    const pilesTop = workersTop + Math.ceil(n / cols) * row + GAP;
    const cellW = Math.floor((width - 2 * PAD) / cols);
    const place = new Map();   // job id -> [x, y, extra classes]

    // The queue: running jobs whose lease ran out with nobody holding them first (the next claim
    // takes them over), then the queued. Where a running job goes is its claim's and lease's
    // ("place", from simulations/live_queue_picture.py), never its worker's box alone: a job whose
    // worker was restarted keeps its lease, and nobody may claim it until that runs out, so it is
    // drawn apart at the band's right end, stuck as running, never in the lane.
    const loose = p.running.filter((job) => job.place === "queue");
    const stuck = p.running.filter((job) => job.place === "stuck");
    const stuckWords = stuck.length ? stuckLabel(stuck.length, width) : "";
    const stuckFit = Math.min(stuck.length, Math.max(1, Math.floor((width - 2 * PAD) * 0.4 / STEP)));
    const stuckW = stuck.length ? Math.max(stuckFit * STEP, span(stuckWords)) + 16 : 0;
    stuck.slice(0, stuckFit).forEach((job, index) => place.set(job.id, [width - PAD - (stuckFit - index) * STEP + 8, 22, "stuck"]));
    const lane = [...loose, ...p.queued];
    const fit = Math.max(1, Math.floor((width - 2 * PAD - 90 - stuckW) / STEP));
    lane.slice(0, fit).forEach((job, index) => place.set(job.id, [PAD + index * STEP, 22]));
    const hiddenQueued = p.counts.queued + loose.length - Math.min(fit, lane.length);
    const later = p.backoff ? `, ${p.backoff === p.counts.queued ? (p.backoff === 1 ? "it" : "all") : p.backoff} in backoff` : "";
    this.text("queue", PAD, 14, `Queue: ${plural(p.counts.queued, "job")} waiting${later}${loose.length ? `, ${loose.length} back from a lost lease` : ""}`);
    this.text("more", PAD + Math.min(fit, lane.length) * STEP + 2, 37, hiddenQueued > 0 ? `+${thousands(hiddenQueued)} more` : "");
    this.text("stuck", width - PAD, 14, stuckWords);
    setAttr(this.rail, "width", width - 2 * PAD + 8 - stuckW);
    this.rule(0, BAND + GAP / 2, width);
    this.rule(1, pilesTop - GAP / 2, width);
    this.text("claim", width - PAD, BAND + GAP / 2 + 4, "↓ a free worker claims the next job");
    this.text("ack", width - PAD, pilesTop - GAP / 2 + 4, "↓ done when acked");

    // The workers: one box each, the token of the job it holds at its right end.
    while (this.cells.length < n) this.cells.push(makeCell(this.layers.workers, ROW - 6));
    while (this.cells.length > n) this.cells.pop().remove();
    const byWorker = new Map();
    for (const job of p.running) {
      if (job.place === "worker") byWorker.set(job.worker, job);
      else if (job.place === "dropped") byWorker.set(job.dropped_by, job);
    }
    const running = new Map(p.running.map((job) => [job.id, job]));
    const refused = new Map(p.refused.map((r) => [r.worker, r]));
    const frozen = new Map((p.frozen || []).map((f) => [f.worker, f]));
    // Each box's buttons at its right end (or, the narrowest, in place of its name): the rest of
    // the box is laid out in the `inner` px left of them.
    const kind = room(cellW);
    const { inner, narrow } = boxRoom(cellW);
    const spots = [];
    s.workers.forEach((w, index) => {
      const x = PAD + (index % cols) * cellW;
      const y = workersTop + Math.floor(index / cols) * row;
      const cell = this.cells[index];
      const height = row - (small ? 4 : 6);
      setAttr(cell, "transform", `translate(${x},${y})`);
      setAttr(cell.box, "width", cellW - 6);
      setAttr(cell.box, "height", height);
      // The buttons centred in the box above a narrow box's bar.
      spots.push({ x, y, width: cellW - 6, height: height - (narrow ? row - (small ? ROW_COMPACT : ROW) : 0) });
      // The token at the box's right end, left of the buttons; the words around it (a box's
      // words and the token's try all inside the box: live-queue-workers.js).
      const wide = !narrow;
      const tokenX = wide ? Math.min(inner - 6 - TOKEN_W - 8, 220) : inner - 6 - TOKEN_W - (kind === "one" ? 1 : 3);
      const form = !wide ? "narrow" : inner - tokenX > 150 ? "roomy" : "beside";
      const job = byWorker.get(w.id);
      if (job) place.set(job.id, [x + tokenX, y + (small ? 2 : 4), job.worker === null ? "dropped" : "", true]);
      drawCell(cell, w, job, refused.get(w.id), { form, inner, tokenX, kind, small, height, frozen: frozen.get(w.id) || null });
    });

    // The piles: done (latest first) and dead, each with its count. A pile with more jobs than
    // room says how many of them it draws (a reader counted the tokens), at every width: on a
    // phone, without "jobs" if need be, the dead pile moved left to make room for its words.
    const pile = (status, fit, short) => {
      const drawn = Math.min(p[status].length, fit), more = p.counts[status] > drawn;
      return `${status === "done" ? "Done" : "Dead"}: ${short && more ? thousands(p.counts[status]) : plural(p.counts[status], "job")}${
        more ? ` (${drawn} shown)` : ""}`;
    };
    const piles = (deadX) => {
      const doneFit = Math.max(1, Math.floor((deadX - PAD - 12) / STEP));
      return { deadX, doneFit, deadFit: Math.max(1, Math.floor((width - PAD - deadX) / STEP)) };
    };
    let at = piles(PAD + Math.floor((width - 2 * PAD) * 0.68));
    let words = { done: pile("done", at.doneFit, false), dead: pile("dead", at.deadFit, false) };
    if (span(words.done) > at.deadX - PAD - 8 || span(words.dead) > width - PAD - at.deadX) {
      words = { done: pile("done", at.doneFit, true), dead: pile("dead", at.deadFit, true) };
      at = piles(Math.min(at.deadX, Math.floor(width - PAD - span(words.dead))));
      words = { done: pile("done", at.doneFit, true), dead: pile("dead", at.deadFit, true) };
    }
    const { deadX, doneFit, deadFit } = at;
    p.done.slice(0, doneFit).forEach((job, index) => place.set(job.id, [PAD + index * STEP, pilesTop + 24]));
    p.dead.slice(0, deadFit).forEach((job, index) => place.set(job.id, [deadX + index * STEP, pilesTop + 24]));
    this.text("done", PAD, pilesTop + 14, words.done);
    this.text("dead", deadX, pilesTop + 14, words.dead);
    const dup = p.duplicates.jobs;
    this.text("duplicates", PAD, pilesTop + 64, dup ? `✉×2: the email went out more than once for ${
      dup === 1 ? "job" : "jobs"} ${p.duplicates.latest.join(", ")}${dup > p.duplicates.latest.length ? "…" : ""}` : "");

    // The tokens: one per shown job, reused while it stays shown.
    const statuses = [["queued", p.queued], ["running", p.running], ["done", p.done], ["dead", p.dead]];
    const seen = new Set();
    for (const [status, jobs] of statuses) {
      for (const job of jobs) {
        const where = place.get(job.id);
        if (!where) continue;
        seen.add(job.id);
        this.tokens.draw(job, status, where, status === "running" ? running.get(job.id) : null);
      }
    }
    this.tokens.sweep(seen);
    // The counts, and how many tokens of each the picture has room for (for the tests).
    const shown = { queued: Math.min(p.queued.length, Math.max(0, fit - loose.length)), running: p.running.length,
                    done: Math.min(p.done.length, doneFit), dead: Math.min(p.dead.length, deadFit) };
    setAttr(this.figure, "data-stuck", stuck.length);
    for (const [status, count] of Object.entries(p.counts)) {
      setAttr(this.figure, `data-${status}`, count);
      setAttr(this.figure, `data-${status}-shown`, shown[status]);
    }
    this.buttons.draw(s.workers, spots, kind, { ready: this.ready, stall: !s.hidden.includes("stall"), kill: !s.hidden.includes("kill") });
    setAttr(this.svg, "aria-label", describe(s, byWorker, refused, stuck, frozen));
    setAttr(this.figure, "data-time", s.time);
  }

  text(name, x, y, words) {
    const node = this.labels[name];
    setAttr(node, "x", x);
    setAttr(node, "y", y);
    setText(node, words);
  }

  rule(index, y, width) {
    const line = this.lines[index];
    setAttr(line, "x1", PAD);
    setAttr(line, "x2", width - PAD);
    setAttr(line, "y1", y);
    setAttr(line, "y2", y);
  }
}

/** The stuck jobs' label, as long as the picture's `width` (px) leaves room for. */
function stuckLabel(n, width) {
  const long = `Stuck as running, no worker: ${n}`;
  return span(long) <= (width - 2 * PAD) * 0.4 ? long : `Stuck: ${n}`;
}

/** The picture in words (its aria-label): where every shown job is, whose lease runs out. */
function describe(s, byWorker, refused, stuck, frozen) {
  const p = s.picture;
  const first = p.queued.find((job) => job.due_in > 0);
  const parts = [`At ${seconds(s.time)} s: ${plural(p.counts.queued, "job")} queued${p.backoff
    ? ` (${p.backoff} of them retries waiting out their backoff, not claimed before it ends${first ? `: the first in ${seconds(first.due_in)} s` : ""})` : ""}`];
  for (const w of s.workers.slice(0, 8)) {
    const job = byWorker.get(w.id);
    if (w.state === "killed") {
      parts.push(job ? `worker ${w.id} killed; its job ${job.id} waits out its lease, which nobody renews (${seconds(job.lease_left)} s left)`
                     : `worker ${w.id} killed`);
    } else if (frozen.has(w.id)) {
      parts.push(`worker ${w.id} frozen by a stall for ${seconds(frozen.get(w.id).left)} s more${w.job !== null ? `, still believing it holds job ${w.job}` : ""}`);
    } else if (job) {
      const handed = job.was !== null && job.worker === w.id ? `, taken over from worker ${job.was} when its lease ran out` : "";
      parts.push(`worker ${w.id} ${w.state} on job ${job.id}${job.attempts >= 2 ? ` (its ${ordinal(job.attempts)} try${handed})` : ""} (lease ${seconds(job.lease_left)} s left)`);
    } else {
      parts.push(`worker ${w.id} ${w.state}`);
    }
  }
  if (s.workers.length > 8) parts.push(`${s.workers.length - 8} more workers`);
  for (const job of stuck) {
    parts.push(`job ${job.id} stuck as running: the worker that held it died and was restarted knowing nothing of it, and nobody may claim it until its lease runs out (${seconds(job.lease_left)} s left)`);
  }
  for (const r of refused.values()) parts.push(`worker ${r.worker}'s ack of job ${r.job} was refused`);
  parts.push(`${plural(p.counts.done, "job")} done`, `${plural(p.counts.dead, "job")} dead`);
  if (p.duplicates.jobs) parts.push(`duplicate emails for job ${p.duplicates.latest.join(", job ")}`);
  return `${parts.join("; ")}.`;
}
