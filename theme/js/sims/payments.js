// payments' widget: the bank's odds, the key mode and the attempts as fields, "Run to the end",
// the picture (each charge a row of its attempts, each labelled with the idempotency key it sent,
// "k1", "k2"... or "none", with a key in the drawing saying what the keys and a marked corner
// mean; Alice's money as coins, in her wallet and at the bank, duplicates in red) and the
// verdict (its code colours it, its words are the simulation's). The balances, the figures and
// the table are the snapshot's view, drawn by view.js. Snapshot keys: docs/simulations.md.

import { el, setAttr, setText } from "./dom.js";
import { drawFigures, drawNotes, drawTable } from "./view.js";
import { Widget } from "./widget.js";

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
  static picture = ".pay-picture";   // what a comparison shows twice (compare.js)

  /** The kept run's picture (compare.js): its charges, coins and caption. */
  drawTwin(twin, s) {
    twin.drawPicture(s.picture);
    drawNotes(twin.body, s.view);
  }

  draw(s) {
    setAttr(this.part("ledger"), "data-verdict", s.verdict.code);   // open | over | dead | exact
    setText(this.part("verdict"), s.verdict.words);
    this.drawPicture(s.picture);
    drawFigures(this.body, s.view);   // the balances and the ledger's figures (payments/view.py)
    drawNotes(this.body, s.view);
    if (this.due("jobs")) drawTable(this.body, s.view.tables[0]);
  }

  /** The picture, from snapshot "picture" (simulations/payments/picture.py) alone. */
  drawPicture(pic) {
    const coins = pic.coins;
    syncChildren(this.part("wallet"), coins.wallet, () => el("span", { class: "pay-coin" }), () => {});
    syncChildren(this.part("taken"), coins.taken.length, () => el("span", { class: "pay-coin" }), (coin, index) => {
      const taken = coins.taken[index];
      setText(coin, String(taken.order));
      coin.classList.toggle("pay-dup", taken.duplicate);
      setAttr(coin, "data-nth", taken.duplicate ? String(taken.nth) : null);   // its tag: ×2, ×3...
    });
    setText(this.part("taken-more"), coins.taken_more);
    setText(this.part("overdrawn"), coins.overdrawn_words);
    const rows = this.part("charges");
    syncChildren(rows, pic.orders.length, () => el("li", { class: "pay-charge" },
      el("span", { class: "pay-charge-name" }), el("span", { class: "pay-tries" }), el("span", { class: "sim-chip" })),
    (row, index) => {
      const order = pic.orders[index];
      setAttr(row, "data-order", order.order);
      setAttr(row, "data-status", order.status);
      const [name, tries, chip] = row.children;
      setText(name, order.name);
      setText(chip, order.status);
      setAttr(chip, "class", `sim-chip status-${order.status}`);
      syncChildren(tries, order.attempts.length, () => el("span", { class: "pay-try" }, el("span", { class: "pay-key" })), (mark, at) => {
        const attempt = order.attempts[at];
        setAttr(mark, "data-code", attempt.code);
        setAttr(mark, "data-reply", attempt.reply || "");
        setAttr(mark, "data-key", attempt.key_name);   // "k1", "k2"... or "none" (Python's)
        setAttr(mark, "title", attempt.title);
        setText(mark.firstElementChild, attempt.key_name);
      });
    });
    setText(this.part("key-words"), pic.key_words);   // what the keys show, for this run's key mode
    setText(this.part("charges-more"), pic.orders_more);
  }
}
