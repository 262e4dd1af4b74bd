// Search across every chapter. The index (search-index.json) and MiniSearch are fetched only
// when the reader first opens search. Opens with the Search button, "/" or Ctrl-K (Cmd-K).
// MiniSearch: https://lucaong.github.io/minisearch/
const dialog = document.getElementById("search-dialog");
const openButton = document.getElementById("search-open");
const closeButton = document.getElementById("search-close");
const input = document.getElementById("search-input");
const list = document.getElementById("search-results");
const status = document.getElementById("search-status");
const INDEX_URL = new URL("../../search-index.json", import.meta.url);
const MAX_RESULTS = 12;
const EXCERPT = 70; // characters of context on each side of the first match

let engine = null;

function loadEngine() {
  engine ??= (async () => {
    const [{ default: MiniSearch }, response] = await Promise.all([
      import("../vendor/minisearch.js"),
      fetch(INDEX_URL),
    ]);
    if (!response.ok) throw new Error(`${INDEX_URL.pathname}: HTTP ${response.status}`);
    const documents = await response.json();
    const search = new MiniSearch({
      fields: ["title", "text"],
      storeFields: ["title", "chapter", "url", "text"],
      searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.2, combineWith: "AND" },
    });
    search.addAll(documents);
    return search;
  })();
  engine.catch(() => {
    engine = null; // let the next attempt try again
  });
  return engine;
}

function excerpt(text, terms) {
  const lower = text.toLowerCase();
  let at = -1;
  let length = 0;
  for (const term of terms) {
    const found = lower.indexOf(term.toLowerCase());
    if (found >= 0 && (at < 0 || found < at)) [at, length] = [found, term.length];
  }
  const fragment = document.createDocumentFragment();
  if (at < 0) {
    fragment.append(text.slice(0, 2 * EXCERPT) + (text.length > 2 * EXCERPT ? "…" : ""));
    return fragment;
  }
  const start = Math.max(0, at - EXCERPT);
  const end = Math.min(text.length, at + length + EXCERPT);
  const mark = document.createElement("mark");
  mark.textContent = text.slice(at, at + length);
  fragment.append((start > 0 ? "…" : "") + text.slice(start, at), mark,
    text.slice(at + length, end) + (end < text.length ? "…" : ""));
  return fragment;
}

function show(hits, query) {
  list.replaceChildren(...hits.slice(0, MAX_RESULTS).map((hit) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = new URL(hit.url, INDEX_URL).href;
    const title = document.createElement("span");
    title.className = "result-title";
    title.textContent = hit.title;
    const chapter = document.createElement("span");
    chapter.className = "result-chapter";
    chapter.textContent = hit.chapter;
    const text = document.createElement("span");
    text.className = "result-excerpt";
    text.append(excerpt(hit.text, hit.terms));
    link.append(title, chapter, text);
    item.append(link);
    return item;
  }));
  const shown = Math.min(hits.length, MAX_RESULTS);
  status.textContent = !query ? "" : hits.length === 0 ? `Nothing found for “${query}”.`
    : `${hits.length} section${hits.length === 1 ? "" : "s"} found${hits.length > shown ? `, the first ${shown} shown` : ""}.`;
}

async function update() {
  const query = input.value.trim();
  if (!query) {
    show([], "");
    return;
  }
  try {
    const search = await loadEngine();
    if (query === input.value.trim()) show(search.search(query), query);
  } catch (error) {
    status.textContent = `Search could not load (${error.message}).`;
  }
}

function open() {
  if (!dialog.open) dialog.showModal();
  input.select();
  status.textContent ||= "Loading the index…";
  loadEngine().then(() => {
    if (status.textContent === "Loading the index…") status.textContent = "";
  }, (error) => {
    status.textContent = `Search could not load (${error.message}).`;
  });
}

function results() {
  return [...list.querySelectorAll("a")];
}

if (dialog && openButton) {
  openButton.addEventListener("click", open);
  closeButton.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close(); // a click on the backdrop
    if (event.target.closest("a")) dialog.close(); // a result on this page only moves to it
  });
  dialog.addEventListener("close", () => openButton.focus());
  input.addEventListener("input", update);
  input.addEventListener("keydown", (event) => {
    const first = results()[0];
    if (event.key === "Escape") {
      // A search field would only clear itself on the first Escape: close at once instead.
      event.preventDefault();
      dialog.close();
    } else if (event.key === "Enter" && first) {
      event.preventDefault();
      first.click();
    } else if (event.key === "ArrowDown" && first) {
      event.preventDefault();
      first.focus();
    }
  });
  list.addEventListener("keydown", (event) => {
    const links = results();
    const at = links.indexOf(document.activeElement);
    if (event.key === "ArrowDown" && at < links.length - 1) links[at + 1].focus();
    else if (event.key === "ArrowUp") (at > 0 ? links[at - 1] : input).focus();
    else return;
    event.preventDefault();
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable]");
    const slash = event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey;
    const commandK = event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey);
    if ((slash || commandK) && !dialog.open) {
      event.preventDefault();
      open();
    }
  });
}
