// live-queue's worker boxes: one box per worker, with its name and state, and beside the
// token of the job it holds, inside the box, that job's lease (a bar draining right to left, in
// every form: the glance trial could not tell from words whether a lease was nearly over) and
// which try it is on ("3rd try, was worker 2"). The glance trial read a caption drawn under the
// token as the next row's, so nothing of a box is ever drawn outside it. live-queue-picture.js
// places the boxes and the tokens (and gives narrow boxes a few px more height for their bar);
// this module writes the words and sizes the bar, in one of three forms by the room the box has:
//
//   roomy    (one column on a desktop) name, state (a refused ack framed with its own job's
//            token); the token; its lease in words ("lease: 4.9 s left", or for a killed
//            worker's job, which nobody renews, "lease not renewed: 59.3 s left") with a 96 px
//            bar under them and the try beside the bar
//   beside   (a phone, or two columns) name over state on the left; the lease ("lease 3.1 s")
//            over the try ("3rd try, was worker 2"; "not renewed" for a killed worker's job)
//            just left of the token; the bar along the box's bottom edge, under the words
//   narrow   (many workers) the worker's number ("5", as its Kill button says it), ✕ when it is
//            killed, and the try as "2nd" left of the token when it fits: never who it was taken
//            over from (the svg's aria-label says it); the bar along the box's bottom edge, left
//            of the token, except in compact boxes (64 workers on a phone), where a 3 px line
//            under the button added nothing to the token's ring and cost the rows the room that
//            keeps the picture within one phone screen. The picture's key (.lqp-key) says what
//            "5" and "2nd" stand for.
//
// A bar's fill is the share of the lease left (orange at a quarter or less: data-low); a killed
// worker's job, whose lease nobody renews, has its bar's track outlined dashed red, as its token
// and box are (data-dropped). The fill's width changes in steps of 2% of its bar, with no
// transition, so it steps at every draw whatever the number of workers.
//
// Words are fitted by counting characters (a bold sans at most CHAR px a character per px of
// font size), never by measuring them: nothing here reads layout while a run plays.

import { seconds, setAttr, setText, svg } from "./dom.js";
import { ordinal, TOKEN_W } from "./live-queue-tokens.js";

const CHAR = 0.62;   // px per character per px of font size: a bold sans's widest average
const BAR = 96;      // px: a roomy box's lease bar, full when the job is claimed
export const BAR_H = 4;   // px: the bar along the bottom of a beside or narrow box

/** The px `words` take at `size` px (an upper estimate). */
function span(words, size) {
  return words.length * size * CHAR;
}

/** A new worker box in `layer`: its rectangle and its texts. */
export function makeCell(layer, height) {
  const group = svg("g", { class: "lqp-worker" });
  group.box = svg("rect", { class: "lqp-worker-box", x: 0, y: 0, height, rx: 6 });
  group.name = svg("text", { class: "lqp-worker-name", x: 8, y: 19 });   // 18 when compact (CSS)
  group.state = svg("text", { class: "lqp-worker-state", x: 90, y: 19 });
  group.lease = svg("text", { class: "lqp-worker-lease", y: 19 });
  group.try = svg("text", { class: "lqp-worker-try", y: 26 });
  // The lease as a bar draining right to left (sized by drawCell for the box's form).
  group.bar = svg("rect", { class: "lqp-lease-track", width: BAR, height: 10, rx: 3 });
  group.fill = svg("rect", { class: "lqp-lease-fill", height: 10, rx: 3 });
  // A refused ack (roomy boxes): its own job's token, small, with the words, in one red frame,
  // apart from the token of the job the worker holds now (glance trial, shots 06 and 17: "ack
  // of job 3 refused" beside job 4's token was read as job 4's).
  group.refusal = svg("g", { class: "lqp-refusal", visibility: "hidden" });
  group.refusal.frame = svg("rect", { class: "lqp-refusal-frame", x: 84, y: 3, height: 24, rx: 5 });
  group.refusal.token = svg("rect", { class: "lqp-refusal-token", x: 88, y: 6, width: 28, height: 18, rx: 4 });
  group.refusal.number = svg("text", { class: "lqp-refusal-id", x: 102, y: 19 });
  group.refusal.append(group.refusal.frame, group.refusal.token, group.refusal.number);
  group.append(group.box, group.name, group.refusal, group.state, group.bar, group.fill, group.lease, group.try);
  layer.append(group);
  return group;
}

/** Which try `job` (the picture's running entry) is on, and from whom it was taken over, in
    words fitting `form` ("" before its 2nd try). */
function tries(job, form) {
  if (!job || job.attempts < 2) return "";
  const was = job.worker !== null && job.was !== null ? job.was : null;
  if (form === "narrow") return ordinal(job.attempts);
  return `${ordinal(job.attempts)} try${was === null ? "" : `, was worker ${was}`}`;
}

/**
 * Write worker `w`'s box (the snapshot's worker) as `form` ("roomy", "beside" or "narrow"):
 * `job` is the running job drawn in it (or undefined), `no` the ack of it just refused (or
 * undefined), `inner` the px of the box left of its buttons, `tokenX` where its token starts,
 * `kind` the buttons' room (live-queue-buttons.js room()), `small` for compact boxes, `height`
 * the box's height (px; a beside or narrow box's bar lies along its bottom edge).
 */
export function drawCell(cell, w, job, no, { form, inner, tokenX, kind, small, height, frozen = null }) {
  setAttr(cell, "data-state", w.state);
  setAttr(cell, "data-form", form);
  setAttr(cell, "data-narrow", form === "narrow" ? "true" : null);
  setAttr(cell, "data-compact", small ? "true" : null);
  setAttr(cell, "data-refused", no ? no.job : null);
  // A stalled worker is frozen, not working: its box says so, with the seconds left of it.
  setAttr(cell, "data-frozen", frozen ? frozen.left : null);
  const doing = frozen ? `frozen ${Math.ceil(frozen.left)} s` : w.state;
  // A worker that still believes it holds a job another worker has taken over (a stall).
  const lost = w.job !== null && !(job && job.id === w.job && job.token === w.token);
  setAttr(cell, "data-lost", lost ? "true" : null);
  setAttr(cell, "data-low", job && job.lease <= 0.25 ? "true" : null);
  const killed = w.state === "killed";
  const dropped = job && job.worker === null;   // a killed worker's job, waiting out its lease
  setAttr(cell, "data-dropped", dropped ? "true" : null);
  // The bar's place and size [x, y, width, height]: a beside or narrow box's along its bottom
  // edge, from its words' left end (under the button in the narrowest) to just left of the token.
  let bar = [kind === "one" ? 3 : 8, height - BAR_H - 1, tokenX - 6 - (kind === "one" ? 3 : 8), BAR_H];
  const left = job ? `${seconds(job.lease_left)} s` : "";
  let name, state, lease = "", second = tries(job, form);

  if (form === "roomy") {
    name = `Worker ${w.id}`;
    state = no ? `ack of job ${no.job} refused` : lost ? `${doing}: lost job ${w.job}`
      : killed ? (w.restart_in !== null ? `killed, back in ${seconds(w.restart_in)} s` : "killed") : doing;
    const x = tokenX + TOKEN_W + 10;
    if (job) lease = dropped ? `lease not renewed: ${left} left` : job.lease_left > 0 ? `lease: ${left} left` : "lease ran out";
    if (span(lease, 12) > inner - x - 4) lease = dropped ? `not renewed: ${left} left` : `${left} left`;
    if (no) state = "ack refused";   // beside its job's own token, in the frame (drawRefusal)
    if (span(second, 10) > inner - x - BAR - 12) second = second.replace(/, was .*$/, "");
    // The words over the bar, the try beside the bar.
    place(cell, { name: [8, 19], state: [no ? 122 : 90, 19], lease: [x, job ? 13 : 19, null], try: [x + BAR + 8, 26, null] });
    bar = [x, 16, BAR, 10];
  } else if (form === "beside") {
    if (job) lease = job.lease_left > 0 ? `lease ${left}` : "lease ran out";
    const room = tokenX - 6 - 8 - 8;   // the left column starts at 8, the right ends 6 left of the token
    // "Worker 1" unless a long lease needs its room (a closer estimate: these are mostly digits).
    // Else the number alone, as a narrow box says it (the key explains it).
    name = (`Worker ${w.id}`.length * 13 + lease.length * 11) * 0.56 <= room ? `Worker ${w.id}` : String(w.id);
    // The second line: the state on the left, the try on the right, the longest words that fit
    // (a plain state gives way first: the box's colour still says it is busy).
    const states = no ? [`ack of job ${no.job} refused`, `ack of ${no.job} refused`, "ack refused"]
      : lost ? (frozen ? [`${doing}, lost job ${w.job}`, `lost job ${w.job}`, "lost"] : [`lost job ${w.job}`, "lost"])
      : killed ? ["killed"] : frozen ? [doing, "frozen", ""] : [w.state, ""];
    const rights = dropped && !second ? ["not renewed"] : [second, second.replace(/, was .*$/, "")];
    const fits = (a, b) => span(a, 10) + span(b, 10) <= room;
    let pick = null;
    for (const right of rights) {
      pick = pick || states.map((left) => [left, right]).find(([left]) => fits(left, right)) || null;
    }
    [state, second] = pick || [states[states.length - 1], rights[rights.length - 1]];
    // Two lines over the bar.
    place(cell, { name: [8, 11], state: [8, 23], lease: [tokenX - 6, 11, "end"], try: [tokenX - 6, 23, "end"] });
  } else {
    // "Worker 5" where it fits with a ✕ and a two-digit try after it in every box alike (so all
    // the boxes of a picture say it one way), else "5"; none in the narrowest (its button says "5").
    state = killed && kind !== "one" ? "✕" : "";
    const end = (words, cross) => (cross ? Math.max(32, 8 + span(words, 11) + 3) + 12 : 8 + span(words, 11)) + 3;
    const long = `Worker ${String(w.id).padStart(2, "0")}`;
    name = kind === "one" ? "" : end(long, true) + span("10th", 10) <= tokenX - 4 ? `Worker ${w.id}` : String(w.id);
    const from = kind === "one" ? 34 : end(name, state);
    if (span(second, 10) > tokenX - 4 - from) second = "";
    place(cell, { name: [8, 19], state: [Math.max(32, 8 + span(name, 11) + 3), 19], lease: [0, 19, null], try: [tokenX - 4, 19, "end"] });
  }
  // The fill in steps of 2% of its bar (as the token's ring), so most draws leave it as it is.
  const [barX, barY, barW, barH] = bar;
  const shown = job && barW >= 12 && !small;   // a compact box's lease is its token's ring alone
  setAttr(cell.bar, "visibility", shown ? null : "hidden");
  setAttr(cell.fill, "visibility", shown ? null : "hidden");
  for (const node of [cell.bar, cell.fill]) {
    setAttr(node, "x", barX);
    setAttr(node, "y", barY);
    setAttr(node, "height", barH);
    setAttr(node, "rx", Math.min(3, barH / 2));
  }
  setAttr(cell.bar, "width", barW);
  setAttr(cell.fill, "width", shown ? (Math.round(job.lease * 50) * 2 * barW) / 100 : 0);
  drawRefusal(cell.refusal, form === "roomy" ? no : null, tokenX - 10);
  setText(cell.name, name);
  setText(cell.state, state);
  setText(cell.lease, lease);
  setText(cell.try, second);
}

/** The frame of a refused ack `no` (or none) in a roomy box: from x 84 to `end` at most. */
function drawRefusal(group, no, end) {
  setAttr(group, "visibility", no ? null : "hidden");
  setAttr(group, "data-job", no ? no.job : null);
  setText(group.number, no ? String(no.job) : "");
  if (!no) return;
  setAttr(group.frame, "width", Math.min(end - 84, 38 + span("ack refused", 11) + 2));
}

function place(cell, where) {
  for (const [part, [x, y, anchor]] of Object.entries(where)) {
    const node = cell[part];
    setAttr(node, "x", x);
    setAttr(node, "y", y);
    if (anchor !== undefined) setAttr(node, "text-anchor", anchor);
  }
}
