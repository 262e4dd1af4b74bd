// live-queue's buttons on the picture's worker boxes: "Kill worker N", "Stall worker N"
// and "Restart worker N" where the chapters say to press them. They are real <button>s laid over
// the svg (whose role="img" would hide anything inside it from a screen reader), one set per box in
// the boxes' order, and a click goes the widget's own way (data-action and data-worker:
// Widget.onAction, as every other button). Which of them a worker allows comes from the snapshot
// (each worker's "actions", decided in Python); the level may keep Stall back ("hidden").
//
// How much of its box a worker's buttons take (room(), by the box's width):
//   words   "Kill", then "Stall" (or "Restart" once it is dead), at the box's right end
//   icons   ✕, then ❚❚ (or ↻), 24 px each; their words are their names and tooltips
//   one     one button in place of the worker's name: a live worker's Kill says its name, "5",
//           in the text's colour with a small grey ✕ after it (CSS), so that a grid of idle
//           workers reads as idle (a red "✕5" in every box read as 64 dead workers); once it
//           is dead, "↻5" (Restart). 64 workers, at any width. Stall is then on the worker's
//           card, under the picture. Each button's name says what it does ("Kill worker 5").
// A button that would go away while it has the keyboard's focus stays, saying no (aria-disabled:
// pressed, the simulation refuses it in words), until the focus leaves it: the focus is never lost,
// and a second Enter never does the opposite of the first. So does the "one"
// button after a click too, where the next click would otherwise land on the opposite action.

import { el, setAttr, setText } from "./dom.js";

export const BUTTON_H = 24;   // px: a button's height (WCAG 2.2's smallest target, 24 x 24)
const GAP = 4;
const ROOMS = {
  words: { first: 36, second: 56, face: { kill: "Kill", stall: "Stall", restart: "Restart" } },
  icons: { first: 24, second: 24, face: { kill: "✕", stall: "❚❚", restart: "↻" } },
  one: { first: 30, second: 0, face: { kill: "", stall: "", restart: "↻" } },
};
// "Drop worker N's lock" (the casebook's `library` level): offered only while the snapshot lists
// "drop_lock" among the worker's actions (Python decides: a busy worker whose claim still has a
// lease that may run out), left of Kill, over the box's words; not in the narrowest boxes, whose
// only place is Kill's (a link's drop_lock still replays there).
const DROP = { words: { width: 72, face: "Drop lock" }, icons: { width: 24, face: "⊘" } };
const ACTIONS = ["kill", "stall", "restart", "drop_lock"];

/** Which buttons fit a worker's box `cellW` px wide: "words", "icons" or "one". */
export function room(cellW) {
  return cellW >= 300 ? "words" : cellW >= 130 ? "icons" : "one";
}

/** The px the buttons take at the right end of a box (the "one" button takes its name's place). */
export function buttonsWidth(kind) {
  const size = ROOMS[kind];
  return kind === "one" ? 0 : size.first + GAP + size.second + GAP;
}

export class WorkerButtons {
  constructor(svgNode, redraw) {
    this.layer = el("div", { class: "lqp-buttons" });
    svgNode.after(this.layer);
    this.sets = [];   // per worker: {kill, stall, restart}
    // The focus left a button kept only because it had it: draw again, without it.
    this.layer.addEventListener("focusout", () => redraw());
  }

  /** Draw the buttons of `workers` (the snapshot's), worker i's box at spots[i] = {x, y, width,
      height} (px in the svg), `kind` from room(); `stall`, `kill`: the level shows Stall, Kill. */
  draw(workers, spots, kind, { ready, stall, kill = true }) {
    while (this.sets.length < workers.length) this.sets.push(this.make(this.sets.length + 1));
    while (this.sets.length > workers.length) for (const button of Object.values(this.sets.pop())) button.remove();
    const size = ROOMS[kind];
    const active = document.activeElement;
    const focused = active && (kind === "one" || active.matches(":focus-visible")) ? active : null;
    workers.forEach((w, index) => {
      const set = this.sets[index], spot = spots[index];
      const allowed = new Set(w.actions);
      const dead = allowed.has("restart");
      const top = spot.y + Math.round((spot.height - BUTTON_H) / 2);
      // Each place holds one button at a time: the one kept for the focus, else the first wanted.
      const places = kind === "one"
        ? [[spot.x + 2, size.first, [["kill", kill && !dead], ["restart", dead]]]]
        : [[spot.x + spot.width - size.second - GAP - size.first - GAP, size.first, [["kill", kill]]],
           [spot.x + spot.width - size.second - GAP, size.second, [["restart", dead], ["stall", stall && !dead]]]];
      const drop = DROP[kind];
      if (drop) places.push([places[0][0] - GAP - drop.width, drop.width, [["drop_lock", allowed.has("drop_lock")]]]);
      const shown = new Set();
      for (const [x, width, wanted] of places) {
        const kept = wanted.find(([name, want]) => !want && set[name] === focused && !set[name].hidden);
        const pick = kept || wanted.find(([, want]) => want);
        if (!pick) continue;
        const button = set[pick[0]];
        shown.add(button);
        place(button, x, top, width);
        setAttr(button, "aria-disabled", allowed.has(pick[0]) ? null : "true");
        setText(button, kind === "one" ? `${size.face[pick[0]]}${w.id}` : (size.face[pick[0]] ?? drop.face));
      }
      for (const name of ACTIONS) {
        const button = set[name];
        if (button.hidden === shown.has(button)) button.hidden = !shown.has(button);
        if (button.disabled === ready) button.disabled = !ready;
      }
    });
    setAttr(this.layer, "data-room", kind);
  }

  make(number) {
    const button = (action, words, name = `${words} worker ${number}`) => {
      const node = el("button", { type: "button", class: `lqp-button lqp-button-${action}`, hidden: true,
                                  "aria-label": name, title: name,
                                  dataset: { action, worker: number } });
      this.layer.append(node);
      return node;
    };
    return { kill: button("kill", "Kill"), stall: button("stall", "Stall"), restart: button("restart", "Restart"),
             drop_lock: button("drop_lock", "Drop", `Drop worker ${number}'s lock`) };
  }
}

function place(button, x, y, width) {
  const style = button.style;
  if (style.left !== `${x}px`) style.left = `${x}px`;
  if (style.top !== `${y}px`) style.top = `${y}px`;
  if (style.width !== `${width}px`) style.width = `${width}px`;
}
