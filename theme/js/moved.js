// An old address of a renamed or split page (builder/moved.py writes the page this runs in). It
// forwards at once, with the address's ?query (a simulation's settings) and #fragment, which the
// <noscript> refresh cannot keep: a fragment listed in data-fragments ("id": "page.html#id") went
// to another part of a split page; any other goes to the first part, data-moved-to (both on this
// script's own element). A plain script in <head>, so it runs before anything is drawn, and
// document.currentScript is set; replace() leaves the old address out of history.
(() => {
  const root = document.currentScript;   // its data-moved-to and data-fragments
  let fragments = {};
  try {
    fragments = JSON.parse(root.dataset.fragments || "{}");
  } catch {
    fragments = {};
  }
  const here = new URL(location.href);
  let fragment = here.hash.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // A "%" that starts no escape: taken as written (no id has one, so it matches none).
  }
  const moved = Object.hasOwn(fragments, fragment) ? fragments[fragment] : null;
  const next = new URL(moved || root.dataset.movedTo, here);
  next.search = here.search;
  if (!moved) next.hash = here.hash;
  location.replace(next.href);
})();
