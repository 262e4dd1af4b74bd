// live-queue's job tokens: one SVG group per job the picture shows (its id, its lease as a ring
// draining around it, which try it is on, its ✉×N badge), kept while the job is shown and moved by a
// CSS transition, so a claimed job glides from the lane to its worker and on to a pile (a step, with
// reduced motion: 86-picture-live-queue.css). live-queue-picture.js decides where each one goes.
//
// Cheap to draw 20 times a second with 64 workers: a token whose job leaves the picture
// is not removed from the page but handed to a job that arrives in the same draw (relabelled and
// put in its place at once, never gliding there from its old place), so the browser keeps its
// layout objects; spares left over are hidden. When many tokens move in one draw (a large run:
// the piles shift every draw), they step instead of gliding: a glide of an SVG group is repainted
// on the main thread every frame, and dozens of overlapping glides are a blur anyway.

import { setAttr, setText, svg } from "./dom.js";
import { reducedMotion } from "./playback.js";

export const TOKEN_W = 36;   // a job token (px; the svg is drawn at the size it is shown)
export const TOKEN_H = 22;
const MAX_SPARE = 200;       // hidden tokens kept for reuse
// Tokens that may glide in one draw: when more move, that draw steps, and so do the draws of the
// next STEP_MS (so a busy run does not flicker between the two).
export const GLIDE_MAX = 16;
const STEP_MS = 1000;

/** "2nd", "3rd", "11th": which try a token is on. */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th"}`;
}

/** The tokens of the shown jobs, in one SVG layer: a token per job id, reused while it stays shown.
    Each draw is `draw()` for every shown job, then `sweep()`, which puts the tokens in place. */
export class Tokens {
  constructor(layer) {
    this.layer = layer;
    this.nodes = new Map();      // job id -> its <g>
    this.spare = [];             // hidden tokens no job uses now, kept to be reused
    this.pending = [];           // this draw's draw() calls, done by sweep()
    this.busyAt = -Infinity;     // when a draw last moved more than GLIDE_MAX tokens (ms)
  }

  /** A new run: its tokens start where they are, without gliding from the last run's places. */
  clear() {
    for (const node of this.nodes.values()) this.putAway(node);
    this.nodes.clear();
    this.pending = [];
  }

  /** Hide `node` (it leaves the picture) and keep it to be reused. */
  putAway(node) {
    if (this.spare.length >= MAX_SPARE) return node.remove();
    setAttr(node, "class", "lqp-spare");   // not a .lqp-token: the page's queries skip it
    setAttr(node, "data-job", null);
    this.spare.push(node);
  }

  /** Put away the token of every job not in `seen` (a Set of job ids), then draw this draw's
      tokens: a job shown anew takes the token of one that left (or a spare, or a new one). */
  sweep(seen) {
    const freed = [];
    for (const [id, node] of this.nodes) {
      if (!seen.has(id)) {
        this.nodes.delete(id);
        freed.push(node);
      }
    }
    const calls = this.pending;
    this.pending = [];
    let moves = 0;
    for (const [job, , [x, y]] of calls) {
      const node = this.nodes.get(job.id);
      if (!node || node.style.transform !== `translate(${x}px, ${y}px)`) moves += 1;
    }
    // Glide or step: a layer attribute (one style change when it flips), set before the moves.
    const now = performance.now();
    if (moves > GLIDE_MAX) this.busyAt = now;
    const step = reducedMotion.matches || now - this.busyAt < STEP_MS;
    setAttr(this.layer, "data-motion", step ? "step" : null);
    for (const call of calls) this.place(call, freed, step);
    for (const node of freed) this.putAway(node);
  }

  /** Record `job`'s token for this draw: drawn by sweep(). Arguments as place(). */
  draw(job, status, where, run) {
    this.pending.push([job, status, where, run]);
  }

  /** Draw `job`'s token (its `status`) at [x, y] px, with an extra class ("dropped": its worker was
      killed; "stuck": its worker was restarted, its lease runs on with nobody holding it), `boxed` when it is drawn in a worker's box (the box says which try it is on, beside
      it: live-queue-workers.js); `run` is its entry of the picture's running jobs, or null. A
      token taken from `freed` (or the spares) is put at its place at once (`data-fresh`: no
      transition), not gliding to it. */
  place([job, status, [x, y, extra = "", boxed = false], run], freed, step) {
    const move = `translate(${x}px, ${y}px)`;
    let node = this.nodes.get(job.id);
    setAttr(node, "data-fresh", null);
    if (!node) {
      node = freed.pop() || this.spare.pop() || this.make();
      this.nodes.set(job.id, node);
      setAttr(node, "data-fresh", step ? null : "true");
      if (!node.isConnected) this.layer.append(node);
    }
    setAttr(node, "data-job", job.id);
    setAttr(node, "data-status", status);
    setAttr(node, "data-worker", run && run.worker !== null ? run.worker : "");
    setAttr(node, "data-place", run ? run.place : status);
    setAttr(node, "data-emails", job.emails);
    setAttr(node, "class", `lqp-token lqp-${status}${extra ? ` lqp-${extra}` : ""}${job.attempts > 1 || (status === "queued" && job.attempts) ? " lqp-again" : ""}${status === "queued" && job.due_in > 0 ? " lqp-later" : ""}`);
    if (node.style.transform !== move) node.style.transform = move;
    setText(node.label, String(job.id));
    setText(node.badge, job.emails > 1 ? `✉×${job.emails}` : "");
    setAttr(node.pill, "display", job.emails > 1 ? null : "none");
    // Which try: the claim it is on (running with a worker, done, dead) or waits for (queued, or
    // back in the queue from a lost lease); shown from the 2nd, as tinyq counts claims.
    const waiting = status === "queued" || (run && run.place === "queue");
    const tries = job.attempts + (waiting ? 1 : 0);
    setAttr(node, "data-try", tries);
    // A job a worker took over once another's lease on it ran out: from whom (the snapshot's
    // "was"), which its worker's box says. Under the token only out of a box (the glance trial
    // read a caption between two rows of boxes as the next row's).
    setAttr(node, "data-was", run && run.worker !== null && run.was !== null ? run.was : null);
    // A retry waiting out its backoff says when it may be claimed, not before ("in 8 s"), in
    // place of its try: a lane of "2nd try" beside idle workers read as a jammed queue.
    const later = status === "queued" && job.due_in > 0;
    setAttr(node, "data-due-in", later ? job.due_in : null);
    setText(node.tries, later ? `in ${Math.ceil(job.due_in)} s` : tries >= 2 && !boxed ? `${ordinal(tries)} try` : "");
    const lease = run ? run.lease : 0;
    // In steps of 2% (a ring of about 130 px: 2.6 px), so most draws leave it as it is.
    setAttr(node.ring, "stroke-dasharray", run ? `${Math.round(lease * 50) * 2} 100` : null);
    setAttr(node, "data-low", run && lease <= 0.25 ? "true" : null);
  }

  /** A new token's SVG nodes. */
  make() {
    const node = svg("g", { class: "lqp-token" });
    node.track = svg("rect", { class: "lqp-ring-track", x: -3, y: -3, width: TOKEN_W + 6, height: TOKEN_H + 6, rx: 8 });
    node.ring = svg("rect", { class: "lqp-ring", x: -3, y: -3, width: TOKEN_W + 6, height: TOKEN_H + 6, rx: 8, pathLength: 100 });
    node.body = svg("rect", { class: "lqp-token-body", width: TOKEN_W, height: TOKEN_H, rx: 5 });
    node.label = svg("text", { class: "lqp-token-id", x: TOKEN_W / 2, y: 15 });
    // The email badge sits on the token's own top edge and its try below it, both centred on
    // it, so in a row of tokens each is read with its own job, never its neighbour's.
    // A solid red pill under it, so it stands out in both themes (glance trial, shot 17).
    node.pill = svg("rect", { class: "lqp-badge-pill", x: 0, y: -10, width: TOKEN_W, height: 17, rx: 8.5, display: "none" });
    node.badge = svg("text", { class: "lqp-badge", x: TOKEN_W / 2, y: 3 });
    node.tries = svg("text", { class: "lqp-tries", x: TOKEN_W / 2, y: TOKEN_H + 8 });
    node.append(node.track, node.ring, node.body, node.label, node.pill, node.badge, node.tries);
    return node;
  }
}
