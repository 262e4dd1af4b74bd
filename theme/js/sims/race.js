// race's widget. The picture: the program every worker runs, with an arrow per worker on the
// statement it just ran (as Python Tutor marks the line that just ran), and the job rows, each
// with the marks of the workers on it (a dashed ring: looked at it; filled: took it; filled red:
// took a row another took too; each kind one the legend shows, snapshot `mark_legend`), amber
// when two or more have looked at one row, red when two or more took it, an envelope per email
// sent beside the marks, and the row's words when an email went out twice. Below: one card per worker
// (A, B, ... as many as the run has) with the SQL it runs next and its "Step worker X" button,
// the jobs table and the outbox, which say in words what the picture shows (the picture is
// hidden from screen readers). Play and Step let the seeded generator pick who goes next.
// Snapshot keys: docs/simulations.md, "race".

import { el, setAttr, setText, svg } from "./dom.js";
import { drawTable } from "./view.js";
import { Widget } from "./widget.js";

// Every worker a race can have (race/model.py's WORKER_NAMES): a link may hold any of their steps; the
// simulation refuses a worker its run does not have.
const NAMES = [..."ABCDEFGHIJ"];

export default class RaceWidget extends Widget {
  static vocabulary = Object.fromEntries(NAMES.map((name) => [`step_${name.toLowerCase()}`, []]));
  static picture = ".race-picture";   // what a comparison shows twice (compare.js)

  clockText(s) {
    return s.clock_words;
  }

  draw(s) {
    this.syncWorkers(s.workers);
    for (const worker of s.workers) {
      const box = this.body.querySelector(`.race-worker[data-worker="${worker.name}"]`);
      setAttr(box, "data-kind", worker.next.kind);
      const chip = box.querySelector(".sim-chip");
      setText(chip, worker.step_words);
      setAttr(chip, "class", `sim-chip rstep-${worker.step}`);
      setText(box.querySelector(".race-last"), capitalized(worker.last_words));
      setText(box.querySelector(".race-next code"), worker.next.text);
      setText(box.querySelector(".race-holding"), worker.job ? `Holding job ${worker.job}` : "Holding no job");
      this.button(`step_${worker.name.toLowerCase()}`).disabled = !this.ready || worker.step === "finished";
    }
    this.drawProgram(s);
    this.drawBoard(s);
    drawTable(this.body, s.view.tables[0]);   // the jobs table (race/view.py)
    this.drawOutbox(s);
  }

  /** The kept run's picture (compare.js): the program's arrows and the job rows. */
  drawTwin(twin, s) {
    twin.drawProgram(s);
    twin.drawBoard(s);
  }

  /** One card per worker of this run: a new run may have more or fewer (the Workers field).
      Cards are only added or removed at the end, so a focused Step button stays in place. */
  syncWorkers(workers) {
    const box = this.part("workers");
    const cards = [...box.children];
    cards.slice(workers.length).forEach((card) => card.remove());
    for (const worker of workers.slice(cards.length)) box.append(newCard(cards[0], worker.name));
  }

  /** The program's lines (rebuilt when the claim changes) and each worker's arrow. */
  drawProgram(s) {
    const list = this.part("program");
    const key = JSON.stringify(s.program);
    if (list.dataset.key !== key) {
      list.dataset.key = key;
      list.replaceChildren(...s.program.map((line, index) => el("li", { class: "race-line", dataset: { kind: line.kind } },
        el("span", { class: "race-arrows" }), el("span", { class: "race-line-no" }, String(index + 1)),
        el("span", { class: "race-line-words" }, line.words), el("code", { class: "race-line-text" }, line.text))));
    }
    [...list.children].forEach((item, index) => {
      const names = s.workers.filter((worker) => worker.last === index).map((worker) => worker.name);
      const arrows = item.querySelector(".race-arrows");
      if (arrows.dataset.names === names.join("")) return;
      arrows.dataset.names = names.join("");
      arrows.replaceChildren(...names.map((name) => el("span", { class: "race-arrow" }, name)));
      setAttr(item, "data-current", names.length > 0);
    });
  }

  /** The job rows, each with its workers' marks, its flag and one envelope per email sent. */
  drawBoard(s) {
    const board = this.part("board");
    if (board.dataset.ids !== s.jobs.map((job) => job.id).join(",")) {
      board.dataset.ids = s.jobs.map((job) => job.id).join(",");
      board.replaceChildren(...s.jobs.map((job) => el("li", { class: "race-row", dataset: { key: job.id } },
        el("span", { class: "race-row-id" }, String(job.id)), el("span", { class: "race-row-address" }),
        el("span", { class: "race-row-status" }), el("span", { class: "race-marks" }),
        el("span", { class: "race-row-emails" }), el("span", { class: "race-row-flag" }))));
    }
    s.jobs.forEach((job, index) => {
      const row = board.children[index];
      setAttr(row, "data-flag", job.flag);
      setText(row.querySelector(".race-row-address"), job.address.split("@")[0]);
      const status = row.querySelector(".race-row-status");
      setAttr(status, "class", `race-row-status sim-chip status-${job.status}`);
      setText(status, job.status);
      const marks = row.querySelector(".race-marks");
      const key = job.marks.map((mark) => `${mark.worker}:${mark.hold}`).join(" ");
      if (marks.dataset.key !== key) {
        const before = new Set((marks.dataset.key || "").split(" "));
        marks.dataset.key = key;
        marks.replaceChildren(...job.marks.map((mark) => el("span", {
          class: before.has(`${mark.worker}:${mark.hold}`) ? "race-mark" : "race-mark race-mark-new",
          dataset: { hold: mark.hold, worker: mark.worker } }, mark.worker)));
      }
      // The mark's kind, one the legend shows (Python's): red once two or more took the row.
      job.marks.forEach((mark, at) => setAttr(marks.children[at], "data-mark", mark.mark));
      const emails = row.querySelector(".race-row-emails");
      if (emails.childElementCount !== job.emails) {
        emails.replaceChildren(...Array.from({ length: job.emails }, () => envelope()));
      }
      setText(row.querySelector(".race-row-flag"), job.flag_words || "");
    });
  }

  drawOutbox(s) {
    const list = this.part("outbox");
    const seen = new Set();
    const items = s.emails.map((mail) => {
      const repeat = seen.has(mail.address);
      seen.add(mail.address);
      return [mail, repeat];
    });
    if (list.childElementCount !== items.length || this.outboxKey !== JSON.stringify(s.emails)) {
      this.outboxKey = JSON.stringify(s.emails);
      list.replaceChildren(...items.map(([mail, repeat]) => el("li", { class: repeat ? "race-duplicate" : null },
        `${mail.address}, from worker ${mail.worker} (job ${mail.job})`,
        repeat ? " " : null, repeat ? el("span", { class: "sim-chip status-dead" }, "duplicate") : null)));
    }
    this.part("outbox-empty").hidden = items.length > 0;
  }
}

/** A worker's card made from another's (the build draws the first run's cards). */
function newCard(model, name) {
  const card = model.cloneNode(true);
  card.dataset.worker = name;
  setText(card.querySelector(".race-worker-name"), `Worker ${name}`);
  const button = card.querySelector("button");
  button.dataset.action = `step_${name.toLowerCase()}`;
  setText(button, `Step worker ${name}`);
  return card;
}

function envelope() {
  const icon = svg("svg", { class: "race-email", viewBox: "0 0 16 12", width: "24", height: "18" });
  icon.append(svg("rect", { x: "0.75", y: "0.75", width: "14.5", height: "10.5", rx: "1.5" }),
    svg("path", { d: "M1 1.5l7 5.5 7-5.5" }));
  return icon;
}

function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
