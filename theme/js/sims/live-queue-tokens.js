// live-queue's job tokens: one SVG group per job the picture shows (its id, its lease as a ring
// draining around it, which try it is on, its ✉×N badge), kept while the job is shown and moved by a
// CSS transition, so a claimed job glides from the lane to its worker and on to a pile (a step, with
// reduced motion: 86-picture-live-queue.css). live-queue-picture.js decides where each one goes.

import { setAttr, setText, svg } from "./dom.js";

export const TOKEN_W = 36;   // a job token (px; the svg is drawn at the size it is shown)
export const TOKEN_H = 22;
const MAX_SPARE = 200;       // tokens kept for reuse

/** "2nd", "3rd", "11th": which try a token is on. */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th"}`;
}

/** The tokens of the shown jobs, in one SVG layer: a token per job id, reused while it stays shown. */
export class Tokens {
  constructor(layer) {
    this.layer = layer;
    this.nodes = new Map();      // job id -> its <g>
    this.spare = [];             // tokens no job uses now, kept to be reused (at 10x, dozens a frame)
  }

  /** A new run: its tokens start where they are, without gliding from the last run's places. */
  clear() {
    for (const node of this.nodes.values()) node.remove();
    this.nodes.clear();
    this.spare = [];
  }

  /** Put away the token of every job not in `seen` (a Set of job ids). */
  sweep(seen) {
    for (const [id, node] of this.nodes) {
      if (!seen.has(id)) {
        node.remove();
        this.nodes.delete(id);
        if (this.spare.length < MAX_SPARE) this.spare.push(node);   // reused, not made anew
      }
    }
  }

  /** Draw `job`'s token (its `status`) at [x, y] px, with an extra class ("dropped": its worker was
      killed), `boxed` when it is drawn in a worker's box (the box says which try it is on, beside
      it: live-queue-workers.js); `run` is its entry of the picture's running jobs, or null. */
  draw(job, status, [x, y, extra = "", boxed = false], run) {
    let node = this.nodes.get(job.id);
    if (!node && this.spare.length) {
      // A token put away earlier, for a job just shown: placed before it is added again, so it
      // appears there (a transition runs only on an element already drawn), not gliding to it.
      node = this.spare.pop();
      node.style.transform = `translate(${x}px, ${y}px)`;
      this.layer.append(node);
      this.nodes.set(job.id, node);
    } else if (!node) {
      node = svg("g", { class: "lqp-token" });
      node.track = svg("rect", { class: "lqp-ring-track", x: -3, y: -3, width: TOKEN_W + 6, height: TOKEN_H + 6, rx: 8 });
      node.ring = svg("rect", { class: "lqp-ring", x: -3, y: -3, width: TOKEN_W + 6, height: TOKEN_H + 6, rx: 8, pathLength: 100 });
      node.body = svg("rect", { class: "lqp-token-body", width: TOKEN_W, height: TOKEN_H, rx: 5 });
      node.label = svg("text", { class: "lqp-token-id", x: TOKEN_W / 2, y: 15 });
      // The email badge sits on the token's own top edge and its try below it, both centred on
      // it, so in a row of tokens each is read with its own job, never its neighbour's.
      node.badge = svg("text", { class: "lqp-badge", x: TOKEN_W / 2, y: 4 });
      node.tries = svg("text", { class: "lqp-tries", x: TOKEN_W / 2, y: TOKEN_H + 8 });
      node.append(node.track, node.ring, node.body, node.label, node.badge, node.tries);
      node.style.transform = `translate(${x}px, ${y}px)`;
      this.layer.append(node);
      this.nodes.set(job.id, node);
    }
    setAttr(node, "data-job", job.id);
    setAttr(node, "data-status", status);
    setAttr(node, "data-worker", run && run.worker !== null ? run.worker : "");
    setAttr(node, "data-emails", job.emails);
    setAttr(node, "class", `lqp-token lqp-${status}${extra ? ` lqp-${extra}` : ""}${job.attempts > 1 || (status === "queued" && job.attempts) ? " lqp-again" : ""}`);
    const move = `translate(${x}px, ${y}px)`;
    if (node.style.transform !== move) node.style.transform = move;
    setText(node.label, String(job.id));
    setText(node.badge, job.emails > 1 ? `✉×${job.emails}` : "");
    // Which try: the claim it is on (running with a worker, done, dead) or waits for (queued, or
    // back in the queue from a lost lease); shown from the 2nd, as tinyq counts claims.
    const waiting = status === "queued" || (run && run.worker === null && extra !== "dropped");
    const tries = job.attempts + (waiting ? 1 : 0);
    setAttr(node, "data-try", tries);
    // A job a worker took over once another's lease on it ran out: from whom (the snapshot's
    // "was"), which its worker's box says. Under the token only out of a box (the glance trial
    // read a caption between two rows of boxes as the next row's).
    setAttr(node, "data-was", run && run.worker !== null && run.was !== null ? run.was : null);
    setText(node.tries, tries >= 2 && !boxed ? `${ordinal(tries)} try` : "");
    const lease = run ? run.lease : 0;
    setAttr(node.ring, "stroke-dasharray", run ? `${(lease * 100).toFixed(1)} 100` : null);
    setAttr(node, "data-low", run && lease <= 0.25 ? "true" : null);
  }
}
