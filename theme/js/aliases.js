// Old links keep working: a box or simulation that declares its own id (pause-why-a-lease,
// sim-kill-a-worker) was once known by its order (pause-5-2, sim-1). The chapter lists those old
// ids (data-aliases, written by the build); a link that uses one, in its #fragment or in a
// simulation's settings (?sim-1.seed=3), is rewritten to the declared id before the simulations
// read the address (this module runs first: base.html). A chapter that was split also lists the
// ids that went to a later part, as "page.html#id" (builder/moved.py): such a fragment forwards
// there, keeping the query.
const holder = document.querySelector("[data-aliases]");
let aliases = {};
try {
  aliases = holder ? JSON.parse(holder.dataset.aliases) : {};
} catch {
  aliases = {};
}
const known = (id) => Object.hasOwn(aliases, id) && !aliases[id].includes("#");
const away = (id) => Object.hasOwn(aliases, id) && aliases[id].includes("#");

// An address is whatever was typed or sent: a "%" that starts no escape (#%, #%E0%A4%A) makes
// decodeURIComponent throw, which stopped this script before it rewrote anything. Such a fragment
// is taken as written (no id has a "%", so it matches none), and the query is still rewritten.
function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const url = new URL(location.href);
const fragment = decoded(url.hash.slice(1));
let changed = false;
let renamed = false;
if (known(fragment)) {
  url.hash = aliases[fragment];
  changed = true;
}
const entries = [...url.searchParams].map(([key, value]) => {
  const dot = key.indexOf(".");
  const id = dot > 0 ? key.slice(0, dot) : "";
  if (!known(id)) return [key, value];
  changed = renamed = true;
  return [aliases[id] + key.slice(dot), value];
});
if (away(fragment)) {
  const next = new URL(aliases[fragment], url);
  next.search = url.search;
  location.replace(next.href);
} else if (changed) {
  if (renamed) url.search = new URLSearchParams(entries).toString();
  history.replaceState(history.state, "", url);
  const target = known(fragment) ? document.getElementById(aliases[fragment]) : null;
  if (target) target.scrollIntoView();
}
