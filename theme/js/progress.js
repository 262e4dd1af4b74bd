// The reader's progress, kept in this browser only (localStorage; nothing leaves the page):
// which chapters they have read to the end, which checks they answered (the pause-and-check
// answers they opened, and the predict-then-run boxes they ran: predict.js's `predicted`;
// a link's data-pauses is how many of both its chapter has), and where
// they were, so the contents can mark each chapter and offer "Resume where you left off".
// "Forget my progress" clears it. Without scripts (or storage) none of this shows.
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

document.querySelector('[data-action="clear-progress"]')?.addEventListener("click", () => {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing was kept
  }
  show();
  const status = document.querySelector('[data-part="progress-status"]');
  if (status) status.textContent = "Your progress is forgotten.";
  document.getElementById("main")?.focus();   // the button is gone: the focus goes on to the text
});

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

  // Read: the end of the chapter came into view.
  const end = document.querySelector(".prevnext-bottom") || document.querySelector(".chapter-body > :last-child");
  if (end) {
    const watcher = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      watcher.disconnect();
      update((data) => { entry(data, chapter).read = true; });
    });
    watcher.observe(end);
  }

  // Where the reader is: the last section heading above the top of the window.
  const headings = [...document.querySelectorAll(".chapter-body :is(h2, h3)[id]")];
  let timer = 0;
  const remember = () => {
    timer = 0;
    const passed = headings.filter((h) => h.getBoundingClientRect().top <= 120).pop();
    update((data) => {
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
