// The reader's progress, kept in this browser only (localStorage; nothing leaves the page):
// which chapters they have read to the end, which checks they answered (the pause-and-check
// answers they opened, and the predict-then-run boxes they ran: predict.js's `predicted`;
// a link's data-pauses is how many of both its chapter has), and where
// they were, so the contents can mark each chapter and offer "Resume where you left off".
// "Forget my progress" clears it, with an Undo for a while. Without scripts (or storage) none of this shows.
const KEY = "guide-progress";
const sidebarCurrent = document.querySelector('.chapter-list a[aria-current="page"][data-progress-url]');
const chapter = document.querySelector("article.chapter") && sidebarCurrent
  ? sidebarCurrent.dataset.progressUrl : null;

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { chapters: data.chapters || {}, last: data.last || null };
  } catch {
    return { chapters: {}, last: null };
  }
}

function save(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // Storage is off or full: progress is simply not kept.
  }
}

function entry(data, url) {
  data.chapters[url] ||= { read: false, answered: [] };
  return data.chapters[url];
}

/** How many checks the reader has answered in a chapter: answers opened, predictions run. */
function answeredCount(mark) {
  return new Set([...(mark?.answered || []), ...Object.keys(mark?.predicted || {})]).size;
}

/** "read, 2 of 4 checks answered" (the words screen readers hear), or "" for nothing yet. */
function describe(mark, pauses) {
  const words = [];
  if (mark?.read) words.push("read");
  const answered = answeredCount(mark);
  if (answered) words.push(`${Math.min(answered, pauses)} of ${pauses} checks answered`);
  return words.join(", ");
}

function show() {
  const data = load();
  for (const link of document.querySelectorAll("[data-progress-url]")) {
    const mark = data.chapters[link.dataset.progressUrl];
    const pauses = Number(link.dataset.pauses) || 0;
    const holder = link.querySelector('[data-part="progress-mark"]');
    if (!holder) continue;
    const words = describe(mark, pauses);
    holder.replaceChildren();
    holder.dataset.read = mark?.read ? "true" : "false";
    if (!words) continue;
    const symbol = document.createElement("span");
    symbol.setAttribute("aria-hidden", "true");
    const answered = Math.min(answeredCount(mark), pauses);
    symbol.textContent = [mark.read ? "✓" : "", answered ? `${answered}/${pauses}` : ""].filter(Boolean).join(" ");
    const spoken = document.createElement("span");
    spoken.className = "visually-hidden";
    spoken.textContent = ` (${words})`;
    holder.append(symbol, spoken);
  }
  const note = document.querySelector('[data-part="progress-note"]');
  if (note && chapter) {
    const total = document.querySelectorAll(".callout.pause, .callout.predict").length;
    const words = describe(data.chapters[chapter], total);
    note.textContent = words ? `Your progress: ${words}` : "";
  }
  const last = data.last;
  // The resume links are made here (a page without scripts has no link that goes nowhere).
  for (const slot of document.querySelectorAll('[data-part="resume-slot"], [data-part="resume-home"]')) {
    // Beside the chapter being read it would only point at itself.
    slot.hidden = !last || (last.url === chapter && !slot.closest("main"));
    if (!last) {
      slot.replaceChildren();
      continue;
    }
    const link = slot.querySelector("a") || slot.appendChild(document.createElement("a"));
    if (slot.dataset.linkClass) link.className = slot.dataset.linkClass;
    link.href = last.url + (last.id ? `#${last.id}` : "");
    link.textContent = `Resume where you left off: ${last.title}${last.section ? `, ${last.section}` : ""}`;
  }
  const anything = Boolean(last) || Object.keys(data.chapters).length > 0;
  const box = document.querySelector('[data-part="progress-box"]');
  if (box) box.hidden = !anything;
}

function update(change) {
  const data = load();
  change(data);
  save(data);
  show();
}

// "Forget my progress" keeps what it forgot in memory, with an "Undo" beside it for a while (an
// accidental click loses nothing); the status line says so, and the focus goes to Undo.
const UNDO_MS = 30_000;
let undoTimer = 0;

function announce(text) {
  const status = document.querySelector('[data-part="progress-status"]');
  if (status) status.textContent = text;
}

function undoBox() {
  let box = document.querySelector('[data-part="progress-undo"]');
  if (box) return box;
  box = document.createElement("p");
  box.className = "progress-undo";
  box.dataset.part = "progress-undo";
  box.hidden = true;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "progress-clear";
  button.textContent = "Undo";
  box.append("Progress forgotten. ", button);
  document.querySelector('[data-part="progress-box"]')?.after(box);
  return box;
}

function forget() {
  let kept = null;
  try {
    kept = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
  } catch {
    // nothing was kept
  }
  show();
  const box = undoBox();
  box.hidden = !kept;
  const hide = () => { box.hidden = true; };
  clearTimeout(undoTimer);
  undoTimer = setTimeout(hide, UNDO_MS);
  box.querySelector("button").onclick = () => {
    clearTimeout(undoTimer);
    hide();
    save(JSON.parse(kept));
    show();
    announce("Your progress is back.");
    document.querySelector('[data-action="clear-progress"]')?.focus();
  };
  announce(kept ? `Your progress is forgotten. Undo brings it back, for ${UNDO_MS / 1000} seconds.`
                : "Your progress is forgotten.");
  if (kept) box.querySelector("button").focus();
  else document.getElementById("main")?.focus();   // the button is gone: the focus goes on to the text
}

document.querySelector('[data-action="clear-progress"]')?.addEventListener("click", forget);

if (chapter) {
  const title = sidebarCurrent.querySelector(".chapter-title")?.textContent || document.title;
  const label = title;

  // An answer opened by the reader (a click or Enter on its summary; not print.js opening all).
  document.addEventListener("click", (event) => {
    const summary = event.target instanceof Element ? event.target.closest(".pause .answer > summary") : null;
    const box = summary?.closest(".callout.pause");
    if (!box || summary.parentElement.open) return;
    update((data) => {
      const mark = entry(data, chapter);
      if (!mark.answered.includes(box.id)) mark.answered.push(box.id);
    });
  });

  // Read: the reader has reached the end of the chapter's text (its last drawn block is at or
  // above the bottom of the window) by their own scrolling, checked when a scroll settles. Not an
  // observer of the end coming into view: a simulation taken full screen leaves the page's flow,
  // the text below it moves up behind it, and the chapter counted as read where the reader was
  // only three quarters down (learner trial, chapter 8).
  const blocks = [...document.querySelectorAll(".chapter-body > *")];
  const reachedEnd = () => {
    if (document.documentElement.classList.contains("has-fullscreen-sim")) return false;
    const last = blocks.findLast((block) => block.getClientRects().length > 0);
    return Boolean(last) && last.getBoundingClientRect().top < innerHeight;
  };

  // Where the reader is: the last section heading above the top of the window.
  const headings = [...document.querySelectorAll(".chapter-body :is(h2, h3)[id]")];
  let timer = 0;
  const remember = () => {
    timer = 0;
    const passed = headings.filter((h) => h.getBoundingClientRect().top <= 120).pop();
    const read = reachedEnd();
    update((data) => {
      if (read) entry(data, chapter).read = true;
      data.last = { url: chapter, id: passed ? passed.id : "", title: label,
                    section: passed ? passed.textContent.trim() : "" };
    });
  };
  addEventListener("scroll", () => {
    if (!timer) timer = setTimeout(remember, 400);
  }, { passive: true });
  // In the first frame, with the layout the browser does for it anyway: measuring the headings
  // now, before anything is painted, lays the whole page out once more ahead of the first paint
  // (Chromium's trace of chapter 3: bench/bench_paint.py).
  requestAnimationFrame(remember);
}

show();
addEventListener("storage", (event) => { if (event.key === KEY || event.key === null) show(); });
document.addEventListener("guide-progress", show);   // predict.js kept a prediction on this page
