// race's widget: workers A and B side by side, each with the SQL (or the email) it runs next
// and a "Step worker A/B" button; the jobs table; the outbox, where a duplicate shows. Play and
// Step let the seeded generator pick who goes next. Snapshot keys: docs/simulations.md, "race".

import { el, setAttr, setText, syncRows } from "./dom.js";
import { Widget } from "./widget.js";

const DASH = "—";

export default class RaceWidget extends Widget {
  static vocabulary = { step_a: [], step_b: [] };

  draw(s) {
    for (const worker of s.workers) {
      const box = this.body.querySelector(`.race-worker[data-worker="${worker.name}"]`);
      setAttr(box, "data-kind", worker.next.kind);
      const chip = box.querySelector(".sim-chip");
      setText(chip, worker.step_words);
      setAttr(chip, "class", `sim-chip rstep-${worker.step}`);
      setText(box.querySelector(".race-next code"), worker.next.text);
      setText(box.querySelector(".race-holding"), worker.job ? `Holding job ${worker.job}` : "Holding no job");
      this.button(`step_${worker.name.toLowerCase()}`).disabled = !this.ready || worker.step === "finished";
    }
    syncRows(this.part("jobs"), s.jobs, (job) => job.id, (job) => [
      String(job.id),
      job.address,
      { text: job.status, chip: `sim-chip status-${job.status}` },
      String(job.attempts),
      job.token === null ? DASH : String(job.token),
      { text: String(job.emails), className: job.emails > 1 ? "sim-bad" : "" },
    ]);
    this.drawOutbox(s);
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
