// A recorded run played while Python starts (mixed into Widget, widget.js). The build ran each
// embed's own run (its chapter settings and seed, no reader actions) in CPython with the very
// simulation code the page runs, and kept the bridge's snapshot after each step
// (builder/recordings.py). So Play and Step move at once, drawn by the widget's own draw() and
// view.js, while Python downloads and starts behind them. A simulation is an exact replay of its
// settings and seed, so once Python is up it makes the same run, steps it to the frame the reader
// is at, and takes over from there: what it then draws is what the recording drew.
//
// What the recording cannot answer (a reader's action, a new setting, time travel, a link's
// defaults) waits for Python, in order, and the widget says so in one sentence: the action then
// happens at the moment the reader took it, as Python has been stepped to that moment first.
//
// Until the handover the root carries data-recorded and data-state stays "loading": "ready" keeps
// meaning that Python answers (docs/widgets.md, "A widget's life").

const FORMAT = 1;
const MAX_EVENTS = 500;          // as the simulations bound one snapshot's events (engine/simulation.py)
const MAX_STEPS_PER_CALL = 200;  // the bridge's bound on one step request (simulations/bridge.py)
const SAME_TIME = 1e-9;          // seconds: a link's time written in full matches its frame's to this
const WAITING = "Python is still starting: what you asked for happens at this moment once it is up.";
const ENDS = "The recorded run ends here; it goes on once Python is up.";
const loaded = new WeakMap();    // root -> promise of its recording (frames decoded), or null
let index = null;                // promise of the names in recordings/index.json

/** FNV-1a (32 bits) of `sim\nparams\nseed` in UTF-8, as 8 hex digits: builder/recordings.py's
    recording_key, so the file's name follows from the embed's own attributes. */
export function recordingKey(sim, params, seed) {
  let value = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(`${sim}\n${params}\n${seed}`)) {
    value = Math.imul(value ^ byte, 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, "0");
}

/** The recording of `root`'s embed, fetched once (runtime.js asks as the reader nears it): a
    promise of {frames, complete}, or of null when there is none or it cannot be read (the
    widget then waits for Python, as it always did). */
export function loadRecording(root) {
  if (!loaded.has(root)) loaded.set(root, fetchRecording(root).catch(() => null));
  return loaded.get(root);
}

async function fetchRecording(root) {
  if (typeof DecompressionStream === "undefined") return null;
  const script = document.querySelector("script[data-sim-python]");
  const version = script ? new URL(script.dataset.simPython, document.baseURI).search : "";
  const { sim, params = "{}", seed = "0" } = root.dataset;
  const name = `${sim}-${recordingKey(sim, params, seed)}.json.gz`;
  if (!(await recordedNames(version)).includes(name)) return null;
  const response = await fetch(new URL(`recordings/${name}${version}`, document.baseURI));
  if (!response.ok) return null;
  let bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {   // not already undone by a server's Content-Encoding
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  const recording = JSON.parse(new TextDecoder().decode(bytes));
  return recording.format === FORMAT && recording.sim === sim ? decode(recording) : null;
}

/** The recordings the build wrote (recordings/index.json), fetched once per page: [] when none. */
function recordedNames(version) {
  index ||= fetch(new URL(`recordings/index.json${version}`, document.baseURI))
    .then((response) => (response.ok ? response.json() : []))
    .then((names) => (Array.isArray(names) ? names : []), () => []);
  return index;
}

/** A recording's file (builder/recordings.py's shape) -> {frames, complete}: `frames.at(n)` is
    the snapshot after n steps, decoded when first asked for (a page near many embeds, the
    casebook's, decodes only what is played), `frames.length` how many there are. */
export function decode(recording) {
  const patches = recording.frames;
  const decoded = [patches[0]];
  const frames = {
    length: patches.length,
    at(index) {
      while (decoded.length <= index) decoded.push(patch(decoded[decoded.length - 1], patches[decoded.length]));
      return decoded[index];
    },
  };
  return { frames, complete: Boolean(recording.complete) };
}

/** `old` with a patch of builder/recordings.py's diff() applied, as a new value. */
function patch(old, change) {
  if (change === null || change === undefined) return old;
  if ("v" in change) return change.v;
  if ("d" in change) {
    const removed = new Set(change.x || []);
    const value = {};
    for (const [key, item] of Object.entries(old)) if (!removed.has(key)) value[key] = item;
    for (const [key, item] of Object.entries(change.d)) value[key] = patch(old[key], item);
    return value;
  }
  const value = old.slice(0, change.l);
  for (const [index, item] of Object.entries(change.i)) value[Number(index)] = patch(value[Number(index)], item);
  return value.concat(change.a || []);
}

/** Stands in for Python while it starts: answers create-free playback (step, run, snapshot,
    reset) from the frames, and holds every other request until Python has made the same run
    and stepped it to the frame shown (the handover). */
class Player {
  constructor(widget, recording) {
    this.widget = widget;
    this.python = widget.python;
    this.frames = recording.frames;
    this.complete = recording.complete;
    this.at = 0;            // the frame shown: the number of steps from the start
    this.handing = null;    // the handover under way (a promise), once Python is up or asked for
  }

  get last() {
    return this.frames.length - 1;
  }

  call(message) {
    if (!this.handing) {
      const reply = this.answer(message);
      if (reply) return Promise.resolve(reply);
      this.widget.say(WAITING);
    }
    // Python failed to start: the widget says so (its "error" event); this request is dropped.
    const gone = { ok: false, error: { type: "NotReady", message: "Python did not start." } };
    return this.handover().then(() => this.python.call(message), () => gone);
  }

  /** The reply Python would give, from the frames; null when only Python can answer. */
  answer(message) {
    const { op } = message;
    if (op === "snapshot") return this.reply(this.at, this.at);
    if (op === "act" && message.name === "reset") return { ...this.reply(-1, 0), branch: "" };
    if (op === "step") {
      const count = message.count || 1;
      if (this.at + count > this.last && !this.complete) return null;
      const from = this.at;
      const to = Math.min(from + count, this.last);
      return { ...this.reply(from, to), steps: to - from };
    }
    if (op === "run" && Number.isFinite(message.until)) {
      let to = this.at;
      while (to < this.last && this.frames.at(to + 1).time <= message.until + SAME_TIME) to += 1;
      if (to === this.last && !this.complete && this.at !== this.last) this.widget.say(ENDS);
      return { ...this.reply(this.at, to), reached: true };
    }
    return null;
  }

  /** Frame `to` as a reply, with the events of every frame after `from` up to it (as one
      request that ran those steps would hand them over; `from` -1 counts the start's own).
      A copy: a widget may keep it. */
  reply(from, to) {
    let events = [];
    let dropped = 0;
    for (let index = from + 1; index <= to; index += 1) {
      events = events.concat(this.frames.at(index).events || []);
      dropped += this.frames.at(index).events_dropped || 0;
    }
    if (events.length > MAX_EVENTS) {
      dropped += events.length - MAX_EVENTS;
      events = events.slice(-MAX_EVENTS);
    }
    this.at = to;
    const snapshot = { ...structuredClone(this.frames.at(to)), events, events_dropped: dropped };
    return { ok: true, id: this.widget.id, snapshot };
  }

  /** Python is up (or must answer now): make the same run, step it to the frame shown, take over. */
  handover() {
    if (!this.handing) {
      this.handing = this.takeOver();
      this.handing.catch(() => { this.handing = null; });
    }
    return this.handing;
  }

  async takeOver() {
    const { widget, python } = this;
    if (python.state !== "ready") await (python.ready || python.load());
    let reply = await python.call({ op: "create", id: widget.id, sim: widget.sim, params: { ...widget.chapter } });
    for (let left = this.at; reply.ok && left > 0; left -= MAX_STEPS_PER_CALL) {
      reply = await python.call({ op: "step", id: widget.id, count: Math.min(left, MAX_STEPS_PER_CALL) });
    }
    if (!reply.ok) {
      if (reply.error.type === "Stopped" || reply.error.type === "NotReady") throw new Error(reply.error.message);
      widget.stand = null;
      delete widget.root.dataset.recorded;
      return widget.refused(reply);
    }
    widget.stand = null;
    delete widget.root.dataset.recorded;
    // The frames are Python's own (the build's test checks every embed), so nothing is redrawn;
    // should Python ever differ, its frame wins.
    const { events, events_dropped, ...seen } = this.frames.at(this.at);
    const { events: _e, events_dropped: _d, ...now } = reply.snapshot;
    if (JSON.stringify(seen) !== JSON.stringify(now)) widget.apply({ ...reply.snapshot, events: [] });
    if ([WAITING, ENDS].includes(widget.part("message").textContent)) widget.say("");
    widget.setState("ready");
    if (!widget.playing) widget.announce("The simulation is ready.");
  }
}

export class Recorded {
  /** A widget's one way to Python: the recording while it plays one, else Python itself. */
  call(message) {
    return this.stand ? this.stand.call(message) : this.python.call(message);
  }

  get ready() {
    return this.state === "ready" || Boolean(this.stand && this.state === "loading");
  }

  /** Play the recording while Python starts, when there is one for this run (the chapter's own,
      or a link's that sets only the same settings and seed and a time the recording holds).
      Returns true when it does (Python then takes over by itself), false when boot() should
      wait for Python as before. */
  async fromRecording(link) {
    if (this.stand) {   // Try again after a failed start: the recording is still there
      this.python.load().then(() => this.stand && this.stand.handover(), () => {});
      return true;
    }
    // A casebook pair opens compared, which only Python can draw (the fix is run beside the
    // incident), so it waits for Python rather than play the incident alone.
    if (this.fix || this.python.state === "ready" || !sameRun(link, this.chapter)) return false;
    const recording = await loadRecording(this.root);
    if (!recording || this.python.state === "ready" || this.state !== "loading") return false;
    const player = new Player(this, recording);
    let at = 0;
    if (link && link.time !== null) {
      while (at < player.last && player.frames.at(at + 1).time <= link.time + SAME_TIME) at += 1;
      if (Math.abs(player.frames.at(at).time - link.time) > SAME_TIME * Math.max(1, link.time)) return false;
    }
    this.link = null;
    this.stand = player;
    this.params = { ...this.chapter };
    this.root.dataset.recorded = "true";
    const focused = this.body.contains(document.activeElement) ? document.activeElement : null;
    this.setState("loading");   // the playback controls apply now (widget.js, setState)
    this.started(player.reply(-1, 0).snapshot);
    if (at) {
      this.apply(player.reply(0, at).snapshot);
      this.say("This is the run the link recorded. Press Play to go on, or Reset to start it again.");
    }
    // Start or the progress text, hidden now: the focus goes to Play, in their place.
    if (focused && !focused.checkVisibility({ visibilityProperty: true })) this.button("play").focus();
    this.python.load().then(() => this.stand === player && player.handover(), () => {});
    return true;
  }
}

/** Whether a link (or none) asks for the chapter's own run: no actions, no moment to travel to,
    and every setting it names at the chapter's value. */
function sameRun(link, chapter) {
  if (!link) return true;
  if (link.actions.length || link.moment) return false;
  return Object.entries(link.params).every(([name, value]) =>
    name in chapter && (String(chapter[name]) === value || Number(value) === chapter[name]));
}
