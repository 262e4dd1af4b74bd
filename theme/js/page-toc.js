// The in-page table of contents: open beside the text on wide screens, folded above it on narrow
// ones; the link of the section being read is marked (aria-current="location").
const toc = document.querySelector(".page-toc");
const fold = toc?.querySelector("details");
const wide = matchMedia("(min-width: 80rem)");   // as 60-navigation.css: the contents column

function fit() {
  fold.open = wide.matches;
  fold.dataset.fitted = "";   // from now on the <details> alone shows or hides the list
}

function markCurrent(links, headings) {
  const line = 96; // px from the top of the window: a heading above it has been reached
  const atBottom = innerHeight + scrollY >= document.documentElement.scrollHeight - 2;
  let current = -1;
  headings.forEach((heading, i) => {
    const top = heading ? heading.getBoundingClientRect().top : Infinity;
    // At the very bottom, a short last section can never reach the line: count what is in view.
    if (top <= line || (atBottom && top < innerHeight)) current = i;
  });
  links.forEach((link, i) => {
    if (i === current) link.setAttribute("aria-current", "location");
    else link.removeAttribute("aria-current");
  });
}

if (toc && fold) {
  fit();
  wide.addEventListener("change", fit);
  const links = [...toc.querySelectorAll("a[href^='#']")];
  const headings = links.map((link) => document.getElementById(decodeURIComponent(link.hash.slice(1))));
  let queued = false;
  addEventListener("scroll", () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      markCurrent(links, headings);
    });
  }, { passive: true });
  // In the first frame, with the layout the browser does for it anyway: measuring now, while the
  // other scripts still change the page, would lay it out once more before anything is painted.
  requestAnimationFrame(() => markCurrent(links, headings));
  toc.addEventListener("click", (event) => {
    if (event.target.closest("a") && !wide.matches) fold.open = false;
  });
}
