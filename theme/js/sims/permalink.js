// A widget's run in the page's URL, so a reader can share exactly what they saw:
//
//   05-leases.html?sim-kill-a-worker.seed=3&sim-kill-a-worker.lease=2&sim-kill-a-worker.do=0.5:kill:1,4:enqueue&sim-kill-a-worker.t=9.5#sim-kill-a-worker
//
// Keys are the widget's id, a dot, then a parameter name, `t` (the virtual time reached, in
// seconds, exact) or `do` (the reader's actions: `time:name:arg:arg`, joined by commas), and, when the
// reader was looking at an earlier moment of the run (timetravel.js), `at` (that moment, in
// seconds) and `n` (how many earlier steps share that time; left out when 0). The
// simulations replay exactly from the same parameters, seed and actions at the same virtual
// times (docs/simulations.md). A link is read strictly: any key, value or action that does not
// fit its pattern rejects the whole link for that widget, which then shows the chapter's own
// settings and says why. Values are never put into the page as HTML, and the simulation's own
// validation still checks every parameter.

const VALUE = /^[\w.+-]{1,40}$/;
// A time as JavaScript's String(number) writes it, exact (the shortest digits that read back as
// the same number): rounded to the millisecond, a link reopened runs short of an event at a
// sub-millisecond time, as payments' charge attempts are.
const TIME = /^\d{1,6}(\.\d{1,24})?(e-\d{1,2})?$/;
const ARG = /^[\w.+-]{1,20}$/;
const MAX_ACTIONS = 200;
const NTH = /^\d{1,5}$/;

/**
 * Read the link's settings for widget `id` from `search` (location.search).
 * `paramNames`: the simulation's parameter names; `vocabulary`: {action: [argument names]}.
 * Returns null when the link says nothing about this widget, {problem} when it cannot be used,
 * else {params, time, actions: [{time, name, args}], moment: null | {time, nth}} (params holds
 * strings, seed included).
 */
export function readLink(search, id, paramNames, vocabulary) {
  const mine = linkEntries(search, id);
  if (!mine) return null;
  const prefix = `${id}.`;
  const params = {};
  let time = null;
  let actions = [];
  let moment = null;
  let nth = 0;
  const seen = new Set();
  for (const [key, value] of mine) {
    const name = key.slice(prefix.length);
    if (seen.has(name)) return { problem: `it names ${name} twice` };
    seen.add(name);
    if (name === "t") {
      if (!TIME.test(value)) return { problem: "its time is not a number of seconds" };
      time = Number(value);
    } else if (name === "at") {
      if (!TIME.test(value)) return { problem: "its moment is not a number of seconds" };
      moment = Number(value);
    } else if (name === "n") {
      if (!NTH.test(value)) return { problem: "its moment's step is not a whole number" };
      nth = Number(value);
    } else if (name === "do") {
      const parsed = readActions(value, vocabulary);
      if (parsed.problem) return parsed;
      actions = parsed.actions;
    } else if (paramNames.includes(name)) {
      if (!VALUE.test(value)) return { problem: `its value for ${name} has characters no setting uses` };
      params[name] = value;
    } else {
      return { problem: `this simulation has no setting called “${name.slice(0, 40)}”` };
    }
  }
  if (moment === null && nth) return { problem: "it names a step of a moment but not the moment" };
  return { params, time, actions, moment: moment === null ? null : { time: moment, nth } };
}

/** The [key, value] pairs of `search` whose keys start with `id` and a dot, or null when none do
 *  (or the search cannot be read). Shared with code-link.js. */
export function linkEntries(search, id) {
  let query;
  try {
    query = new URLSearchParams(search);
  } catch (error) {
    return null;
  }
  const mine = [...query.entries()].filter(([key]) => key.startsWith(`${id}.`));
  return mine.length ? mine : null;
}

function readActions(text, vocabulary) {
  if (!text) return { actions: [] };
  const parts = text.split(",");
  if (parts.length > MAX_ACTIONS) return { problem: `it lists more than ${MAX_ACTIONS} actions` };
  const actions = [];
  let last = 0;
  for (const part of parts) {
    const [time, name, ...args] = part.split(":");
    if (!TIME.test(time || "")) return { problem: "an action's time is not a number of seconds" };
    if (!Object.hasOwn(vocabulary, name || "")) return { problem: "it names an action this simulation does not have" };
    const names = vocabulary[name];
    if (args.length !== names.length || !args.every((arg) => ARG.test(arg))) {
      return { problem: `its “${name}” action has the wrong arguments` };
    }
    if (Number(time) < last) return { problem: "its actions are not in time order" };
    last = Number(time);
    actions.push({ time: Number(time), name, args: Object.fromEntries(names.map((n, i) => [n, args[i]])) });
  }
  return { actions };
}

/**
 * The page's URL with widget `id`'s run in it (its other widgets' keys are kept) and `#id`.
 * `params`: the settings to record (those the chapter did not set already), `seed`, `time` (exact,
 * seconds, or null while the run has not moved: then the link has no `t`),
 * `actions`: [{time, name, args}] with args in the vocabulary's order; `moment`: null, or the
 * earlier moment the reader looks at, {time (seconds), nth} (kept only if the link reaches it).
 * A link holds at most MAX_ACTIONS actions: a run with more is linked up to its last action
 * that fits (the time stops there), so the link never shows a different run than it claims.
 * Returns {href, time (what the link reaches, in seconds), kept, total (actions)}.
 */
export function writeLink(href, id, { params, time, actions, moment = null }, vocabulary) {
  const url = new URL(href);
  const prefix = `${id}.`;
  for (const key of [...url.searchParams.keys()]) {
    if (key.startsWith(prefix)) url.searchParams.delete(key);
  }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(prefix + name, String(value));
  const kept = actions.slice(0, MAX_ACTIONS);
  const until = kept.length < actions.length ? kept[kept.length - 1].time : time;
  if (kept.length) {
    const text = kept.map(({ time: at, name, args }) =>
      [String(at), name, ...(vocabulary[name] || []).map((arg) => String(args[arg]))].join(":"));
    url.searchParams.set(`${prefix}do`, text.join(","));
  }
  if (until !== null && until !== undefined) url.searchParams.set(`${prefix}t`, String(until));
  if (moment && moment.time <= (until || 0)) {
    url.searchParams.set(`${prefix}at`, String(moment.time));
    if (moment.nth) url.searchParams.set(`${prefix}n`, String(moment.nth));
  }
  url.hash = id;
  return { href: url.href, time: until, kept: kept.length, total: actions.length };
}

/** The settings a link must write: those of `params` (the run's, as its snapshot has them) that
    differ from what the widget starts from without a link, the chapter's own settings over the
    simulation's defaults (`specs`: its PARAMS, each {name, default}). A link opened creates the
    run from the chapter's settings with the link's on top (widget.js boot), so the rest need not
    be written: a link of two changed settings, not all twenty-four. */
export function changedParams(params, chapter, specs, presets = null) {
  const base = Object.fromEntries(specs.map((spec) => [spec.name, spec.default]));
  // A setting a library's preset may set is not at its default when the link is opened again:
  // the preset sets it anew. So it is written whatever its value, unless the chapter gives it.
  for (const name of (presets && presets.sets) || []) delete base[name];
  Object.assign(base, chapter);
  return Object.fromEntries(Object.entries(params).filter(
    ([name, value]) => !Object.hasOwn(base, name) || String(base[name]) !== String(value)));
}

/** The virtual time (seconds) of `snapshot`, exact, as a link records it: the moment shown
    ("moment") or the end of the run ("end"), from its timeline (simulations/timeline_view.py);
    the snapshot's `time` is rounded to the millisecond, for the page's words. */
export function now(snapshot, which = "moment") {
  return snapshot.travel ? snapshot.travel[which] : snapshot.time;
}

/** The time a link or a rebuild runs to, as now(), or null while the run has not moved: running
    to 0 s would take the steps due at 0 s, which the reader has not taken yet. */
export function reached(snapshot, which = "end") {
  return snapshot.travel && !snapshot.travel.length ? null : now(snapshot, which);
}

export { MAX_ACTIONS };
