// payments' widget: the bank's odds, the key mode and the attempts as fields, "Run to the end",
// and the ledger: what Alice should have (the queue's records) against what she has (the bank),
// the verdict (its code colours it, its words are the simulation's), repeats the key absorbed,
// dead jobs. Snapshot keys:
// docs/simulations.md, "payments".

import { dollars, seconds, setAttr, setText, syncRows } from "./dom.js";
import { Widget } from "./widget.js";

const DASH = "—";

export default class PaymentsWidget extends Widget {
  draw(s) {
    const book = s.ledger;
    setText(this.part("expected"), dollars(book.expected_balance));
    setText(this.part("actual"), dollars(book.actual_balance));
    setAttr(this.part("ledger"), "data-verdict", s.verdict.code);   // open | over | dead | exact
    setText(this.part("verdict"), s.verdict.words);
    const figures = {
      attempts: String(book.attempts),
      lost_requests: String(book.lost_requests),
      lost_replies: String(book.lost_replies),
      duplicate_charges: String(book.duplicate_charges),
      duplicates_absorbed: String(book.duplicates_absorbed),
      done: `${book.jobs.done} of ${s.jobs_total}`,
      queued: String(book.jobs.queued + book.jobs.running),
      dead: book.jobs.dead ? `${book.jobs.dead} (${book.dead_charged} charged)` : "0",
    };
    for (const cell of this.part("figures").querySelectorAll("[data-fig]")) {
      setText(cell, figures[cell.dataset.fig]);
      cell.classList.toggle("sim-bad", cell.dataset.fig === "duplicate_charges" && book.duplicate_charges > 0);
    }
    if (this.due("jobs")) syncRows(this.part("jobs"), s.jobs, (job) => job.id, (job) => [
      String(job.id),
      String(job.order),
      { text: job.status, chip: `sim-chip status-${job.status}` },
      String(job.attempts),
      { text: String(job.charged), className: job.charged > 1 ? "sim-bad" : "" },
      job.retry_in === null ? DASH : seconds(job.retry_in),
      { text: job.last_error || DASH, className: "sim-wrap" },
    ]);
    setText(this.part("jobs-note"), s.jobs_total > s.jobs.length ? `(showing ${s.jobs.length} of ${s.jobs_total})` : "");
  }
}
