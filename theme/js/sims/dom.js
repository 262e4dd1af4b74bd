// Small DOM helpers the widgets share. Text only ever goes in through textContent: nothing a
// simulation or a URL says is parsed as HTML.

/** el("li", {class: "x", dataset: {worker: 1}}, "text", child) -> a new element. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with attributes (class, points, x, y, ...). */
export function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** Set a node's text only when it changed (cheap to call every frame). A node holding one text
    node keeps it and has its data changed: textContent would replace it with a new one, which
    the browser must give a new layout object (a style recalculation), where new data is only laid
    out again (dozens of texts change every frame while a live queue plays). */
export function setText(node, text) {
  if (!node) return;
  const only = node.firstChild;
  if (only && only.nodeType === Node.TEXT_NODE && !only.nextSibling) {
    if (only.data !== text) only.data = text;
  } else if (node.textContent !== text) {
    node.textContent = text;
  }
}

/** Set or remove an attribute only when it changed. */
export function setAttr(node, name, value) {
  if (!node) return;
  if (value === null || value === undefined || value === false) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else if (node.getAttribute(name) !== String(value)) {
    node.setAttribute(name, String(value));
  }
}

/** Seconds as the build writes them (builder/theme.py `seconds`): 2.50 -> "2.5", 1/3 -> "0.33". */
export function seconds(value) {
  return String(Math.round(Number(value) * 100) / 100);
}

/** A whole number with thousands separated: 5000 -> "5,000". (Not toLocaleString: its first
    call sets up Intl, tens of milliseconds on a slow machine, in the middle of a frame.) */
export function thousands(count) {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A count with a noun: plural(1, "job") -> "1 job", plural(3, "job") -> "3 jobs". */
export function plural(count, word, many = `${word}s`) {
  return `${thousands(count)} ${count === 1 ? word : many}`;
}
