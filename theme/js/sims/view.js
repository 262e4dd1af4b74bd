// The one drawing of a snapshot's "view" (simulations/engine/view.py) for every widget: its figures,
// its tables, its sentences. The build draws the first frame from the same data with the macros
// of theme/templates/sim/_view.html, element for element as here, so the two cannot disagree:
// every word and number comes from Python; nothing here names a figure or a column.

import { el, setAttr, setText } from "./dom.js";

/** Draw the whole view into a widget's body: every figure group, table, sentence. */
export function drawView(body, view) {
  drawOutcome(body, view);
  drawFigures(body, view);
  for (const table of view.tables) drawTable(body, table);
  drawNotes(body, view);
  drawKey(body, view);
}

/** The run's outcome in one line. */
export function drawOutcome(body, view) {
  setText(body.querySelector('[data-part="outcome"]'), view.outcome);
}

/** The figures of each group into its box (`[data-view-figures=group]`); `only`: one group. */
export function drawFigures(body, view, only = null) {
  for (const box of body.querySelectorAll("[data-view-figures]")) {
    const group = box.dataset.viewFigures;
    if (only === null || only === group) syncTiles(box, view.figures.filter((f) => f.group === group));
  }
}

/** One tile: <div data-figure=key><dt>label</dt><dd data-fig=key>text</dd>[<dd help>]</div>. */
function newTile(figure) {
  return el("div", { class: "sim-figure", dataset: { figure: figure.key } },
    el("dt", {}), el("dd", { dataset: { fig: figure.key } }));
}

function syncTiles(box, figures) {
  const old = new Map([...box.children].map((tile) => [tile.dataset.figure, tile]));
  let previous = null;
  for (const figure of figures) {
    const tile = old.get(figure.key) || newTile(figure);
    old.delete(figure.key);
    const [label, value] = tile.children;
    setText(label, figure.label);
    setText(value, figure.text);
    setAttr(value, "class", figure.tone ? `sim-${figure.tone}` : null);
    let help = tile.children[2];
    if (figure.help && !help) tile.append(help = el("dd", { class: "sim-help" }));
    if (help && !figure.help) help.remove();
    else if (help) setText(help, figure.help);
    const expected = previous ? previous.nextSibling : box.firstChild;
    if (tile !== expected) box.insertBefore(tile, expected);
    previous = tile;
  }
  for (const tile of old.values()) tile.remove();   // a figure the view no longer has
}

/** One table (`[data-view-table=key]`): caption, note, headings, rows (kept by their keys),
    and the words shown when it has no rows. */
export function drawTable(body, table) {
  const node = body.querySelector(`[data-view-table="${table.key}"]`);
  if (!node) return;
  setText(node.querySelector("[data-view-caption]"), table.caption);
  setText(node.querySelector("[data-view-table-note]"), table.note);
  const head = node.tHead.rows[0];
  const key = JSON.stringify(table.columns);
  if (head.dataset.columns !== key) {
    head.dataset.columns = key;
    head.replaceChildren(...table.columns.map((c) => el("th", { scope: "col", class: c.class || null }, c.label)));
    node.tBodies[0].replaceChildren();   // rows of other columns: drawn anew
  }
  syncRows(node.tBodies[0], table.rows);
  const empty = body.querySelector(`[data-view-empty="${table.key}"]`);
  if (empty) {
    setText(empty, table.empty);
    empty.hidden = table.rows.length > 0;
  }
}

/** A <tbody>'s rows in step with the view's, reusing each key's row: nothing is rebuilt when a
    value changes, and rows that go are taken out first (left in place, each row after one of
    them would be moved to keep the order, and a playing live queue's page laid out anew). */
function syncRows(tbody, rows) {
  const old = new Map([...tbody.rows].map((row) => [row.dataset.key, row]));
  const kept = new Set(rows.map((row) => row.key));
  for (const [id, row] of old) {
    if (!kept.has(id)) {
      row.remove();
      old.delete(id);
    }
  }
  let previous = null;
  for (const item of rows) {
    let row = old.get(item.key);
    if (!row) {
      row = el("tr", { dataset: { key: item.key } });
      item.cells.forEach((_, index) => row.append(index === 0 ? el("th", { scope: "row" }) : el("td")));
    }
    item.cells.forEach((cell, index) => drawCell(row.cells[index], cell));
    const expected = previous ? previous.nextSibling : tbody.firstChild;
    if (row !== expected) tbody.insertBefore(row, expected);
    previous = row;
  }
}

/** A cell: its text, or {text, chip, tone, class} (engine/view.py, `table`). */
function drawCell(cell, value) {
  if (typeof value !== "object") {
    setText(cell, value);
    return;
  }
  if (value.chip) {
    let chip = cell.firstElementChild;
    if (!chip) cell.replaceChildren(chip = el("span"));
    setAttr(chip, "class", value.chip);
    setText(chip, value.text);
    return;
  }
  setText(cell, value.text);
  setAttr(cell, "class", cellClass(value));
}

/** The class a cell with {tone, class} is given, as the build gives it (_view.html). */
function cellClass(value) {
  return [value.class, value.tone ? `sim-${value.tone}` : ""].filter(Boolean).join(" ") || null;
}

/** The view's sentences, each into its place (`[data-view-note=key]`), hidden while empty, and
    the picture's words into `[data-view-alt]` (the picture's aria-labelledby names it). */
export function drawNotes(body, view) {
  const alt = body.querySelector("[data-view-alt]");
  if (alt) setText(alt, view.alt);
  for (const note of view.notes) {
    const node = body.querySelector(`p[data-view-note="${note.key}"]`);
    if (!node) continue;
    setText(node, note.text);
    node.hidden = !note.text;
  }
}

/** The picture's key into its box (`[data-view-key]`): each entry's samples (the picture's own
    marks, by class), then its words, **a phrase** in bold; redrawn only when it changed. */
export function drawKey(body, view) {
  const box = body.querySelector("[data-view-key]");
  const key = JSON.stringify(view.key);
  if (!box || box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  box.replaceChildren(...view.key.map((item) => el("span", { class: "sim-key-item", dataset: { keyItem: item.key } },
    ...item.samples.flatMap((sample) => [el("i", { class: sample.class }, sample.text), " "]),
    ...item.text.split("**").map((piece, index) => (index % 2 ? el("strong", {}, piece) : piece)))));
}
