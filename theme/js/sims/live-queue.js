// live-queue's widget: the picture (live-queue-picture.js: the queue as a lane of job tokens, the
// workers holding theirs with their "Kill worker N", "Stall worker N" and "Restart worker N"
// buttons, the done and dead piles), workers as cards (state, job, lease bar; Stall there only when
// the picture has no room for it), the jobs table, "Add worker", "Enqueue job", a burst, how long a stall lasts, and two
// small charts over the last minute of virtual time: queue depth and the age of the oldest
// waiting job. Snapshot keys: docs/simulations.md, "live-queue".

import { el, seconds, setAttr, setText, thousands } from "./dom.js";
import { QueuePicture } from "./live-queue-picture.js";
import { Sparkline } from "./sparkline.js";
import { drawFigures, drawKey, drawTable } from "./view.js";
import { Widget } from "./widget.js";

// While playing, the picture, the charts and the figures are drawn at most this often (ms): a
// token glides between its places (a CSS transition), so fewer frames of it cost the page less
// and show the same. Paused, every snapshot is drawn.
const PICTURE_MS = 50;

export default class LiveQueueWidget extends Widget {
  static vocabulary = {
    kill: ["worker"], restart: ["worker"], add_worker: [], enqueue: [], burst: ["count"],
    stall: ["worker", "seconds"], set: ["param", "value"], drop_lock: ["worker"],
  };
  static idleWhenFinished = true;
  static picture = ".lqp";   // what a comparison shows twice (compare.js)   // an idle queue still takes new jobs: keep the clock going

  constructor(root, python) {
    super(root, python);
    this.workerList = this.part("workers");
    this.picture = new QueuePicture(this.part("picture"));
    const axes = (name) => ({ top: this.part(`${name}-top`), start: this.part(`${name}-start`),
      end: this.part(`${name}-end`), marks: this.part(`${name}-marks`), notes: this.part(`${name}-notes`) });
    this.depth = new Sparkline(this.part("depth-line"), axes("depth"), (top) => thousands(top));
    this.age = new Sparkline(this.part("age-line"), axes("age"), (top) => `${seconds(top)} s`);
    const view = this.part("table-view");
    view.addEventListener("change", () => this.showTable(view.value, 1));
    // The workers' cards and the jobs table sit in a <details> below the picture: while the run
    // plays they are drawn only as often as a reader can follow them, and at once when
    // they come back into view or are unfolded.
    const details = this.part("details");
    this.detailsInView = true;
    const back = () => {   // drawn now (a finished run that idles sends no more snapshots)
      this.drawnAt.workers = this.drawnAt.jobs = 0;
      if (this.snapshot && this.playing) this.refresh();
    };
    new IntersectionObserver(([entry]) => {
      this.detailsInView = entry.isIntersecting;
      if (entry.isIntersecting) back();
    }, { rootMargin: "200px 0px" }).observe(details);
    details.addEventListener("toggle", () => { if (details.open) back(); });
    // The picture, likewise, is not drawn while it is scrolled away and the run plays.
    this.pictureInView = true;
    new IntersectionObserver(([entry]) => {
      this.pictureInView = entry.isIntersecting;
      if (entry.isIntersecting && this.snapshot) this.picture.show(this.snapshot, this.ready);
    }, { rootMargin: "200px 0px" }).observe(this.part("picture"));
  }

  /** Whether the cards or the table (`part`) are drawn now: always when not playing; while
      playing, every 100 ms while the reader can see them (or has the focus in them), every
      second while they are scrolled away (anything reading the page stays a second behind at
      most), and not while folded. */
  detailsDue(part) {
    const details = this.part("details");
    if (this.playing && !details.open) return false;
    const near = this.detailsInView || details.contains(document.activeElement);
    return this.due(part, near ? undefined : 1000);
  }

  /** List other jobs in the table (a view of simulations/live_queue/table.py's TABLE_VIEWS, and a
      page of it): the run is untouched, and a link does not record it. */
  showTable(view, page) {
    return this.afterRequests(async () => {
      const reply = await this.call({ op: "act", id: this.id, name: "table", args: { view, page } });
      if (!reply.ok) return this.bug(reply);
      this.drawnAt.jobs = 0;   // drawn now, even while playing
      this.apply(reply.snapshot);
      this.announce(`Jobs ${reply.snapshot.table.note.replace(/^\(|\)$/g, "")}.`);
    });
  }

  /** The kept run's picture (compare.js): a QueuePicture of its own in the copy, no buttons. */
  twinReady(twin, copy) {
    copy.querySelector("svg").replaceChildren();
    twin.picture = new QueuePicture(copy);
  }

  drawTwin(twin, s) {
    twin.picture.show(s, false);
    drawKey(twin.body, s.view);
  }

  restarted() {
    this.shown = {};
    this.picture.clear();
    this.depth.clear();
    this.age.clear();
  }

  onAction(name, button) {
    if (name === "table-page") {
      const table = this.snapshot.table;
      this.showTable(table.view, table.page + Number(button.dataset.step));
      return;
    }
    if (name === "stall") {   // how long: the stall field (the simulation checks its range)
      this.act(name, { worker: button.dataset.worker, seconds: this.part("stall-seconds").value.trim() });
      return;
    }
    super.onAction(name, button);
  }

  draw(s) {
    // A snapshot drawn already (a trailing redraw, a change of state) is drawn again only when
    // what else a part shows changed (`key`: whether the widget is ready; for the cards, also the
    // room the picture's boxes give their buttons): the same input draws the same.
    const key = `${this.ready}`;
    const frame = this.due("picture", PICTURE_MS);
    if (frame && (this.pictureInView || !this.playing) && !this.drawn("picture", s, key)) {
      this.picture.show(s, this.ready);   // at the next animation frame
    }
    this.showFields(s.shown);   // the level's form (fields.js), as every simulation's
    this.drawLevel(s);
    drawKey(this.body, s.view);   // the picture's key, without what the level keeps back
    // While playing, the cards and the table take turns: both at once changed some 180 texts in
    // one frame with 64 workers, and that frame's layout was a long task.
    // The table's turn comes with the next snapshot, or a moment later if none comes.
    if (!(this.drawWorkers(s, `${key} ${this.picture.buttonRoom()}`) && this.playing)) this.drawJobs(s);
    else this.trailing ||= setTimeout(() => {
      this.trailing = null;
      if (this.snapshot) this.refresh();
    }, PICTURE_MS);
    this.drawNumbers(s, frame);
    this.button("add_worker").disabled = !this.ready || s.room.workers === 0;
    this.button("enqueue").disabled = !this.ready || s.room.jobs === 0;
    const burst = this.button("burst");
    burst.disabled = !this.ready || s.room.jobs < Number(burst.dataset.count);
    this.part("stall-seconds").disabled = !this.ready;
    const view = this.part("table-view");
    if (view.value !== s.table.view) view.value = s.table.view;
    view.disabled = !this.ready;
    for (const pager of this.body.querySelectorAll('[data-action="table-page"]')) {
      const to = s.table.page + Number(pager.dataset.step);
      pager.disabled = !this.ready || to < 1 || to > s.table.pages;
    }
  }

  /** Hide the parts the embed's level keeps back (the snapshot's "hidden", decided in Python). */
  drawLevel(s) {
    const hidden = s.hidden.join(" ");
    if (this.body.dataset.hidden === hidden && this.drawnLevel) return;
    this.drawnLevel = true;
    this.body.dataset.hidden = hidden;
    for (const node of this.body.querySelectorAll("[data-topic]")) node.hidden = s.hidden.includes(node.dataset.topic);
  }

  /** Whether `part` has drawn snapshot `s` (with `key`) already. */
  seen(part, s, key) {
    const last = this.shown && this.shown[part];
    return Boolean(last && last.s === s && last.key === key);
  }

  /** Whether `part` has drawn snapshot `s` (with `key`) already; if not, it is taken as drawn. */
  drawn(part, s, key) {
    if (this.seen(part, s, key)) return true;
    (this.shown ||= {})[part] = { s, key };
    return false;
  }

  /** The workers' cards, when due: whether they were drawn. */
  drawWorkers(s, key) {
    if (this.seen("workers", s, key) || !this.detailsDue("workers")) return false;
    this.drawn("workers", s, key);
    const cards = this.workerList.children;
    while (cards.length < s.workers.length) this.workerList.append(this.card(cards.length + 1));
    while (cards.length > s.workers.length) this.workerList.lastElementChild.remove();
    setAttr(this.workerList, "data-many", s.workers.length > 8 ? "true" : null);   // bars step (sims.css)
    const lease = s.settings.lease;
    s.workers.forEach((w, index) => {
      const card = cards[index];
      // Its parts, found once (64 cards x 5 queries a draw showed in the profile).
      const part = card.parts ||= { chip: card.querySelector(".sim-chip"), job: card.querySelector(".lq-worker-job"),
        fill: card.querySelector(".lq-lease-fill"), lease: card.querySelector(".lq-lease-text"),
        stall: card.querySelector('[data-action="stall"]') };
      setAttr(card, "data-state", w.state);
      const chip = part.chip;
      setText(chip, w.state);
      setAttr(chip, "class", `sim-chip wstate-${w.state}`);
      let job = "No job";
      // The lease of this worker's own claim (Python's lease_left): a dead worker's shows the
      // claim it left running out, never the lease of the worker that took the job over.
      const left = w.lease_left;
      if (w.state === "killed") {
        job = w.restart_in !== null ? `Dead: restarts in ${seconds(w.restart_in)} s` : "Dead";
      } else if (w.job !== null) {
        const phase = w.phase_left !== null ? `, ${seconds(w.phase_left)} s left in this step` : "";
        job = `Job ${w.job}${s.hidden.includes("token") ? "" : `, token ${w.token}`}${phase}`;
      }
      setText(part.job, job);
      const fill = part.fill;
      const fraction = left === null ? 0 : Math.max(0, Math.min(1, left / lease));
      const scale = `scaleX(${fraction.toFixed(3)})`;
      if (fill.style.transform !== scale) fill.style.transform = scale;
      setAttr(fill, "data-low", left !== null && left <= Math.min(1, lease / 4) ? "true" : null);
      let words = "No lease";
      if (left !== null) {
        const whose = w.state === "killed" ? `Job ${w.abandoned}'s lease` : "Lease";
        words = left > 0 ? `${whose}: ${seconds(left)} s left` : `${whose} ran out`;
      }
      setText(part.lease, words);
      // Kill, Stall and Restart are on the picture's boxes (live-queue-buttons.js), one button
      // each on the page; the card has Stall only when the picture's boxes are too narrow for it.
      const stall = part.stall;
      const here = this.picture.buttonRoom() === "one" && !s.hidden.includes("stall");
      if (stall.hidden === here) stall.hidden = !here;
      stall.disabled = !this.ready || !w.actions.includes("stall");   // Python says who can
    });
    return true;
  }

  card(number) {
    return el("li", { class: "lq-worker", dataset: { worker: number, state: "idle" } },
      el("p", { class: "lq-worker-top" }, el("span", { class: "lq-worker-name" }, `Worker ${number}`), " ",
        el("span", { class: "sim-chip wstate-idle" }, "idle")),
      el("p", { class: "lq-worker-job" }, "No job"),
      el("div", { class: "lq-lease" }, el("span", { class: "lq-lease-fill" })),
      el("p", { class: "lq-lease-text" }, "No lease"),
      el("button", { type: "button", class: "sim-button", dataset: { action: "stall", worker: number }, hidden: true },
        `Stall worker ${number}`));
  }

  drawJobs(s) {
    const last = this.shown && this.shown.jobs;
    if (!(last && last.s === s) && this.detailsDue("jobs") && !this.drawn("jobs", s, "")) {
      drawTable(this.body, s.view.tables[0]);   // the jobs table (live_queue/view.py)
    }
  }

  /** The charts and the figures: every snapshot's values are recorded (the peaks are exact), and
      drawn when `frame`. */
  drawNumbers(s, frame = true) {
    const stats = s.stats;
    this.depth.record(s.time, stats.depth);
    this.age.record(s.time, stats.oldest_wait);
    if (!frame) return;
    const marks = chartMarks(s);
    this.depth.mark(marks);
    this.age.mark(marks);
    this.depth.draw();
    this.age.draw();
    drawFigures(this.body, s.view);   // the figures and the charts' captions (live_queue/view.py)
    setText(this.part("depth-peak"), `(highest ${thousands(this.depth.peak)})`);
    setText(this.part("age-peak"), `(highest ${seconds(this.age.peak)} s)`);
  }
}

// A chart's mark for each of the reader's actions up to now (the snapshot's "travel" marks, as
// Python recorded them): a few words on the chart, the action's full words as its tooltip.
const MARK_WORDS = {
  add_worker: () => "+ worker", kill: (a) => `kill ${a.worker}`, restart: (a) => `restart ${a.worker}`,
  stall: (a) => `stall ${a.worker}`, burst: (a) => `+ ${a.count} jobs`, enqueue: () => "+ 1 job",
  set: (a) => `${a.param} ${a.value}`,
};

function chartMarks(s) {
  const marks = (s.travel && s.travel.marks) || [];
  return marks.filter((m) => m.time <= s.time && MARK_WORDS[m.action])
    .map((m) => ({ time: m.time, label: MARK_WORDS[m.action](m.args || {}), words: m.words }));
}
