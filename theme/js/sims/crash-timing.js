// crash-timing's widget: worker A's steps under the chosen policy with the points where it can
// die (a radio group), the two workers' timelines (each attempt's work drawn under its lease, so
// a lease too short shows the work going on past its end), worker A's lane as a slider, "Where
// worker A dies" (crash-timing-dies.js: drag "A dies here" along it, or use the arrow keys),
// "Kill worker A/B" now, "Run to the end" (a crash point chosen runs to its end at once), and the
// outcome (the verdict's words, the simulation's) with the emails or points it produced. The
// event log is the timeline in words (the lanes are its picture; their marks' words, the effect
// named, are the snapshot's `marks`). A worker A killed by hand checks the point where it stood,
// with the simulation's note, so the radio group never says "A does not die" beside a death.
// Snapshot keys: docs/simulations.md, "crash-timing".

import { DiesSlider } from "./crash-timing-dies.js";
import { el, seconds, setAttr, setText } from "./dom.js";
import { drawKey, drawView } from "./view.js";
import { Widget } from "./widget.js";

export default class CrashTimingWidget extends Widget {
  static vocabulary = { crash: ["worker"] };
  static picture = ".ct-lanes";   // what a comparison shows twice (compare.js)

  constructor(root, python) {
    super(root, python);
    this.lastCrash = this.chapter.crash && this.chapter.crash !== "none" ? this.chapter.crash : "after-effect";
    this.dies = new DiesSlider(this.part("dies"), (point) => this.chooseCrash(point));
  }

  /** The lane's slider chose a point: the same as checking its radio in the list. */
  chooseCrash(point) {
    if (!this.ready) return;
    const radio = [...this.fieldBox("crash").querySelectorAll("input[type=radio]")].find((r) => r.value === point);
    if (!radio || radio.checked) return;
    radio.checked = true;
    this.applyField("crash");
  }

  /** The lease-too-short scenario has no crash point; going back to a crash brings the last one. */
  paramsAfter(name, value) {
    const params = super.paramsAfter(name, value);
    if (params.crash && params.crash !== "none") this.lastCrash = params.crash;
    if (params.scenario === "lease-too-short") params.crash = "none";
    else if (name === "scenario") params.crash = this.lastCrash;
    return params;
  }

  /** Choosing where A dies answers at once: the new run goes straight to its end, as
      "Run to the end" does; Reset goes back to its start to step through it. */
  async applyField(name) {
    const before = this.snapshot;
    await super.applyField(name);
    if (name === "crash" && this.snapshot !== before && this.state === "ready") this.play(true);
  }

  draw(s) {
    this.showFields(s.shown);   // the level's form (fields.js): a link may set another level
    this.drawStrip(s);
    this.drawLanes(s);
    for (const worker of s.workers) {
      const button = this.body.querySelector(`[data-action="crash"][data-worker="${worker.name}"]`);
      button.disabled = !this.ready || worker.state !== "working";
    }
    this.drawResult(s);
    drawView(this.body, s.view);   // the job's row and the effects in words (crash_timing/view.py)
  }

  /** The kept run's copy of the lanes (compare.js): no slider of its own, drawn afresh. */
  twinReady(twin) {
    twin.dies = { draw() {} };
    twin.lanesKey = null;
  }

  drawTwin(twin, s) {
    twin.drawLanes(s);
    drawKey(twin.body, s.view);
  }

  /** The lanes moved into a comparison or back: their marks are placed for the new width. */
  pictureMoved() {
    this.lanesKey = null;
    if (this.snapshot) this.refresh();
  }

  drawStrip(s) {
    const box = this.fieldBox("crash");
    box.hidden = s.scenario !== "crash";
    const note = this.part("slow-note");
    note.hidden = !s.scenario_note;   // the simulation's own words, gone once a worker is dead
    setText(note, s.scenario_note || "");
    const strip = this.part("strip");
    const shown = s.crash_shown;   // the chosen point, or where A stood when the reader killed it
    let rebuilt = false;
    const stripKey = JSON.stringify([s.steps, s.points]);   // the policy's, or a batch's or timer's
    if (this.stripPolicy !== stripKey) {
      this.stripPolicy = stripKey;
      rebuilt = true;
      const name = `${this.id}-crash`;
      strip.replaceChildren(...s.steps.flatMap((step, index) => {
        const point = s.points[index];
        return [
          el("li", { class: "ct-step", dataset: { step: step.name } }, step.label),
          el("li", { class: "ct-point", dataset: { point: point.name } },
            el("label", {}, el("input", { type: "radio", name, value: point.name }), ` A dies ${point.label}`)),
        ];
      }));
    }
    if (rebuilt || shown.note) {
      for (const radio of box.querySelectorAll("input[type=radio]")) radio.checked = radio.value === shown.point;
    }
    const killNote = this.part("kill-note");
    killNote.hidden = !shown.note;
    setText(killNote, shown.note || "");
    for (const radio of box.querySelectorAll("input[type=radio]")) radio.disabled = !this.ready;
    for (const item of strip.querySelectorAll(".ct-point")) {
      const here = ["A", "B"].filter((who) => s.position[who] === item.dataset.point);
      setAttr(item, "data-here", here.length ? here.join(" ") : null);
    }
  }

  drawLanes(s) {
    const last = s.timeline.length ? s.timeline[s.timeline.length - 1].time : 0;
    const span = Math.max(9, Math.ceil(Math.max(last, s.time)) + 1);
    const at = (time) => `${((time / span) * 100).toFixed(2)}%`;
    const ticks = this.part("lanes").querySelector(".ct-axis");
    if (ticks.childElementCount !== span + 1) {
      ticks.replaceChildren(...Array.from({ length: span + 1 }, (_, t) => el("span", { class: "ct-tick", dataset: { t } }, `${t} s`)));
    }
    [...ticks.children].forEach((tick, t) => { tick.style.insetInlineStart = at(t); });
    this.dies.draw(s, at, span, this.ready);
    setText(this.part("lanes-job"), s.job_words);   // which job both lanes are (Python's words)
    this.part("dies-hint").hidden = this.part("dies").hidden;
    const key = `${span}|${s.lease}|${JSON.stringify(s.timeline)}|${JSON.stringify(s.work)}|${JSON.stringify(s.duplicates)}|${s.work.some((w) => w.end === null) ? s.time : ""}`;
    if (key !== this.lanesKey) {
      this.lanesKey = key;
      for (const lane of this.part("lanes").querySelectorAll(".ct-lane")) this.drawLane(lane, s, span, at);
    }
    for (const track of this.part("lanes").querySelectorAll(".ct-track")) {
      let now = track.querySelector(".ct-now");
      if (!now) {
        now = el("span", { class: "ct-now" });
        track.append(now);
      }
      now.style.insetInlineStart = at(Math.min(s.time, span));
    }
    this.drawNowLabel(s, at, span, ticks);
  }

  /** The "now" line's label ("now 3.2 s"), in its own row under the axis's ticks (reserved by
      the CSS, so nothing moves when it appears); near either end it stands inside the lanes. */
  drawNowLabel(s, at, span, axis) {
    let label = axis.querySelector(".ct-now-label");
    if (!label) {
      label = el("span", { class: "ct-now-label", dataset: { part: "now-label" } });
      axis.append(label);
    }
    const time = Math.min(s.time, span);
    setText(label, `now ${seconds(s.time)} s`);
    label.dataset.edge = time / span < 0.06 ? "start" : time / span > 0.94 ? "end" : "";
    label.style.insetInlineStart = at(time);
  }

  /** One worker's lane: its leases as bars, its attempt's work as a bar under the lease (the part
      past the lease's end marked late), its moments as labels starting at their time, stacked in
      rows so that no two overlap (widths estimated from the track's width). */
  drawLane(lane, s, span, at) {
    const who = lane.dataset.lane;
    const track = lane.querySelector(".ct-track");
    const width = track.getBoundingClientRect().width || 400;
    const items = [];
    const rowsEnd = [];
    for (const work of s.work.filter((w) => w.worker === who)) {
      const end = Math.min(span, work.end === null ? s.time : work.end);
      const leaseEnd = work.start + s.lease;
      const going = work.end === null ? ", still going" : "";
      const bar = el("span", { class: `ct-work-bar${work.end === null ? " ct-ongoing" : ""}`, dataset: { worker: who },
                               title: `${who} works from ${seconds(work.start)} s to ${seconds(end)} s${going}` });
      bar.style.insetInlineStart = at(work.start);
      bar.style.inlineSize = at(Math.max(0, end - work.start));
      items.push(bar);
      if (end > leaseEnd) {
        const late = el("span", { class: "ct-work-late", dataset: { worker: who },
                                  title: `${who} is still working after its lease ran out at ${seconds(leaseEnd)} s` });
        late.style.insetInlineStart = at(leaseEnd);
        late.style.inlineSize = at(end - leaseEnd);
        items.push(late);
      }
    }
    // Where A dies (the slider's line up A's lane): a mark's words never cross it (glance trial,
    // shot 13: "claims job 1" under the line). The line stops under the lowest row of marks it
    // would cross and a short stretch of it is drawn across the bars instead (cutLine()).
    const dies = who === "A" && s.dies_at ? s.dies_at.find((d) => d.point === s.crash_shown.point) : null;
    const dx = dies ? (dies.time / span) * width : null;
    let crossed = -1;
    const duplicates = new Map(s.duplicates.map((d) => [d.index, d]));   // which effects repeat one (Python's)
    // Each claim's lease, from Python: it ends at the claim's ack (or refusal, failure), never
    // running on to its full length after the job is done.
    for (const bar of s.leases.filter((b) => b.worker === who)) {
      const lease = el("span", { class: "ct-lease-bar", title: `${who}'s lease: ${seconds(s.lease)} s` });
      lease.style.insetInlineStart = at(bar.start);
      lease.style.inlineSize = at(Math.max(0, Math.min(bar.end, span) - bar.start));
      items.push(lease);
    }
    for (const [index, moment] of s.timeline.entries()) {
      if (moment.worker !== who && !(moment.kind === "lease" && who === "A")) continue;
      const duplicate = duplicates.get(index);
      const label = duplicate ? duplicate.label : s.marks[who][moment.kind] || moment.kind;
      const x = (moment.time / span) * width;
      const needed = label.length * 6.4 + 12;   // px: about 0.6875rem bold characters, plus padding
      const flip = x + needed > width && x >= needed;   // no room on its right: it ends at its time
      const start = flip ? x - needed : x;
      let row = rowsEnd.findIndex((end) => end <= start);
      if (row === -1) row = rowsEnd.length;
      rowsEnd[row] = start + needed;
      if (dx !== null && start < dx + 3 && start + needed > dx - 3 && Math.abs(start - dx) > 0.5) crossed = Math.max(crossed, row);
      const alt = `${seconds(moment.time)} s: ${moment.text}${duplicate ? ` (${duplicate.alt})` : ""}`;
      const mark = el("span", { class: `ct-mark ct-${moment.kind}${duplicate ? " ct-duplicate" : ""}${flip ? " ct-flip" : ""}`, title: alt }, label);
      mark.style.insetInlineStart = at(moment.time);
      mark.style.insetBlockStart = `${1.55 + row * 1.35}rem`;
      items.push(mark);
    }
    const rows = 1.75 + Math.max(1, rowsEnd.length) * 1.35;
    track.style.blockSize = `${rows}rem`;
    if (who === "A") items.push(...this.cutLine(lane, dies, crossed, rows, at));
    track.replaceChildren(...items);
  }

  /** Stop A's death line under row `crossed` of its marks (none: -1, the whole lane) of a track
      `rows` rem high; then a stretch of it across the lease and work bars, returned. The handle
      (1.2 rem high) sits 0.2 rem above the foot of the slider, 1.75 rem below the track (CSS). */
  cutLine(lane, dies, crossed, rows, at) {
    const slider = lane.querySelector(".ct-dies");
    if (!slider || !dies || crossed < 0) {
      if (slider) slider.style.removeProperty("--ct-line");
      return [];
    }
    const below = 1.55 + crossed * 1.35 + 1.03 + 0.15;    // rem: under that row's marks
    slider.style.setProperty("--ct-line", `${Math.max(0, rows + 0.35 - below).toFixed(3)}rem`);
    const stretch = el("span", { class: "ct-death-bars", dataset: { part: "death-bars" } });
    stretch.style.insetInlineStart = at(dies.time);
    return [stretch];
  }

  drawResult(s) {
    const box = this.part("result");
    setAttr(box, "data-result", s.result || "");
    setText(this.part("verdict"), s.verdict.words);
  }
}
