// payments' widget: the bank's odds, the key mode and the attempts as fields, "Run to the end",
// the picture (each charge a row of its attempts, each labelled with the idempotency key it sent,
// "k1", "k2"... or "none", with a key in the drawing saying what the keys and a marked corner
// mean; Alice's money as coins, in her wallet and at the bank, duplicates in red) and the ledger: what Alice should have (the queue's records)
// against what she has (the bank), the verdict (its code colours it, its words are the
// simulation's). Every amount arrives written by Python (snapshot "money", simulations/money.py);
// nothing here formats a dollar. Snapshot keys: docs/simulations.md, "payments".

import { el, seconds, setAttr, setText, syncRows } from "./dom.js";
import { Widget } from "./widget.js";

const DASH = "—";

/** Keep `parent`'s children at `count`, making new ones with make(index) at the end and
    dropping the last ones (a step back); then update(child, index) each. New children get the
    class "pay-new" for one entrance (86-picture-payments.css; none under reduced motion). */
function syncChildren(parent, count, make, update) {
  while (parent.children.length > count) parent.lastElementChild.remove();
  const before = parent.children.length;
  for (let index = before; index < count; index += 1) {
    const child = make(index);
    child.classList.add("pay-new");
    parent.append(child);
  }
  for (let index = 0; index < count; index += 1) update(parent.children[index], index);
}

export default class PaymentsWidget extends Widget {
  draw(s) {
    const book = s.ledger;
    setText(this.part("expected"), s.money.expected);
    setText(this.part("actual"), s.money.actual);
    setAttr(this.part("ledger"), "data-verdict", s.verdict.code);   // open | over | dead | exact
    setText(this.part("verdict"), s.verdict.words);
    this.drawPicture(s.picture);
    const figures = {
      attempts: String(book.attempts),
      lost_requests: String(book.lost_requests),
      lost_replies: String(book.lost_replies),
      duplicate_charges: String(book.duplicate_charges),
      duplicates_absorbed: String(book.duplicates_absorbed),
      declines: String(book.declines),
      declines_replayed: String(book.declines_replayed),
      done: `${book.jobs.done} of ${s.jobs_total}`,
      queued: String(book.jobs.queued + book.jobs.running),
      dead: book.jobs.dead ? `${book.jobs.dead} (${book.dead_charged} charged)` : "0",
    };
    for (const cell of this.part("figures").querySelectorAll("[data-fig]")) {
      setText(cell, figures[cell.dataset.fig]);
      cell.classList.toggle("sim-bad", (cell.dataset.fig === "duplicate_charges" && book.duplicate_charges > 0)
        || (cell.dataset.fig === "declines_replayed" && book.declines_replayed > 0));
    }
    if (this.due("jobs")) syncRows(this.part("jobs"), s.jobs, (job) => job.id, (job) => [
      String(job.id),
      String(job.order),
      { text: job.status, chip: `sim-chip status-${job.status}` },
      String(job.attempts),
      { text: String(job.charged), className: job.charged > 1 ? "sim-bad" : "" },
      job.retry_in === null ? DASH : seconds(job.retry_in),
      { text: job.tries, className: "sim-wrap" },
      { text: job.last_error || DASH, className: "sim-wrap" },
    ]);
    setText(this.part("jobs-note"), s.jobs_total > s.jobs.length ? `(showing ${s.jobs.length} of ${s.jobs_total})` : "");
  }

  /** The picture, from snapshot "picture" (simulations/payments_picture.py) alone. */
  drawPicture(pic) {
    const coins = pic.coins;
    syncChildren(this.part("wallet"), coins.wallet, () => el("span", { class: "pay-coin" }), () => {});
    syncChildren(this.part("taken"), coins.taken.length, () => el("span", { class: "pay-coin" }), (coin, index) => {
      const taken = coins.taken[index];
      setText(coin, String(taken.order));
      coin.classList.toggle("pay-dup", taken.duplicate);
      setAttr(coin, "data-nth", taken.duplicate ? String(taken.nth) : null);   // its tag: ×2, ×3...
    });
    setText(this.part("taken-more"), coins.taken_hidden ? `and ${coins.taken_hidden} more` : "");
    setText(this.part("overdrawn"), coins.overdrawn ? `Overdrawn by ${coins.overdrawn}` : "");
    const rows = this.part("charges");
    syncChildren(rows, pic.orders.length, () => el("li", { class: "pay-charge" },
      el("span", { class: "pay-charge-name" }), el("span", { class: "pay-tries" }), el("span", { class: "sim-chip" })),
    (row, index) => {
      const order = pic.orders[index];
      setAttr(row, "data-order", order.order);
      setAttr(row, "data-status", order.status);
      const [name, tries, chip] = row.children;
      setText(name, `Order ${order.order}`);
      setText(chip, order.status);
      setAttr(chip, "class", `sim-chip status-${order.status}`);
      syncChildren(tries, order.attempts.length, () => el("span", { class: "pay-try" }, el("span", { class: "pay-key" })), (mark, at) => {
        const attempt = order.attempts[at];
        setAttr(mark, "data-code", attempt.code);
        setAttr(mark, "data-reply", attempt.reply || "");
        setAttr(mark, "data-key", attempt.key_name);   // "k1", "k2"... or "none" (Python's)
        setAttr(mark, "title", attempt.key === null ? "sent with no idempotency key" : `sent with idempotency key ${attempt.key}`);
        setText(mark.firstElementChild, attempt.key_name);
      });
    });
    setText(this.part("key-words"), pic.key_words);   // what the keys show, for this run's key mode
    setText(this.part("charges-more"), pic.orders_hidden ? `and ${pic.orders_hidden} more charges, in the table below` : "");
  }
}
