// The run in the URL (mixed into Widget, widget.js): "Copy link" writes the parameters, the
// reader's actions and the time reached (permalink.js); opening such a link replays the actions
// at their times and runs on to that time: the same run, as the simulations are deterministic.
//
// A link is text anyone can write, and replaying it runs by itself, before the reader has pressed
// anything: one naming a far time and a moment to travel back to kept a page busy for ten minutes.
// So a replay is bounded: at most REPLAY_CALLS requests that stop short of their moment (each one at most
// the simulation's own MAX_RUN_STEPS steps, simulations/engine/simulation.py, so a bounded stretch of
// virtual time) and at most REPLAY_SECONDS of the reader's time; the link's actions are at most
// MAX_ACTIONS already (permalink.js). Beyond a bound the replay stops where it got to and says so
// next to the widget. It stops too when the reader presses "Stop replaying" (shown while it runs)
// or leaves the page (pagehide: a page kept in the back/forward cache does not go on replaying).

import { el, seconds, setText, thousands } from "./dom.js";
import { changedParams, reached, writeLink } from "./permalink.js";

const REPLAY_CALLS = 40;     // run requests stopped short one replay may make: 40 minutes of a live queue's time
const REPLAY_SECONDS = 20;   // wall-clock seconds one replay may take

/** A fresh replay's count of run requests, its start (ms) and why it stopped (null: it has not). */
function newBounds() {
  return { calls: 0, started: performance.now(), stop: null };
}

export class LinkReplay {
  /** Replay `actions` ([{time, name, args}]), run on to `time` (seconds) and go to `moment`
      ({time, nth} or null). Returns true when the whole run was replayed, false when it stopped
      early (a refusal, a bound, the reader's Stop, or the page left: each said in the widget). */
  async replay({ actions, time, moment }) {
    const replay = this.startReplay();
    replay.target = Math.max(time || 0, ...actions.map((action) => action.time));
    // The moment is run to on the way, as the reader's run passed it: a moment between two events
    // (Play stopped there) is a position of its own, which running past it would not make.
    const passing = (until) => (moment && moment.time < until ? this.runUntil(moment.time, replay) : true);
    try {
      for (const [done, action] of actions.entries()) {
        if (!(await passing(action.time)) || !(await this.runUntil(action.time, replay))) {
          return this.replayStopped(replay, done, actions.length);
        }
        if (replay.stop) return this.replayStopped(replay, done, actions.length);
        const reply = await this.send({ op: "act", name: action.name, args: action.args });
        if (!reply.ok) {
          const back = await this.send({ op: "create", sim: this.sim, params: { ...this.chapter } });
          if (!back.ok) return this.bug(back);
          this.params = { ...this.chapter };
          this.log.clear();
          this.started(back.snapshot);
          this.say(`This page's link asked for an action the simulation refused (${this.explain(reply.error).replace(/\.$/, "")}), so the page shows the chapter's own settings.`);
          return false;
        }
        this.actions.push(action);
        this.apply(reply.snapshot);
      }
      if (moment && !(await this.runUntil(moment.time, replay))) return this.replayStopped(replay, actions.length, actions.length);
      if (time !== null && !(await this.runUntil(time, replay))) return this.replayStopped(replay, actions.length, actions.length);
      if (replay.stop) return this.replayStopped(replay, actions.length, actions.length);
      if (moment && !(await this.seekMoment(moment))) return false;
    } finally {
      this.endReplay(replay);
    }
    this.say(moment
      ? `This is the run the link recorded, at the moment it names (${this.snapshot.travel.words}). Press Play to go on, or Reset to start it again.`
      : "This is the run the link recorded. Press Play to go on, or Reset to start it again.");
    return true;
  }

  /** Run on to `time` (seconds) within the replay's bounds: true once there, false when a bound,
      the reader or the page stopped it (replay.stop says which) or the simulation failed. */
  async runUntil(time, replay = newBounds()) {
    while (!replay.stop) {
      if (replay.calls >= REPLAY_CALLS) replay.stop = "calls";
      else if (performance.now() - replay.started > REPLAY_SECONDS * 1000) replay.stop = "seconds";
      if (replay.stop) break;
      const reply = await this.send({ op: "run", until: time });
      if (!reply.ok) return this.bug(reply) && false;
      this.apply(reply.snapshot);
      if (reply.reached) return true;
      // Only a request that stopped short counts: reaching each action's moment takes one
      // request per action, and the actions are bounded already (MAX_ACTIONS).
      replay.calls += 1;
    }
    return false;
  }

  /** A replay's bookkeeping, the "Stop replaying" button in the loading panel, and the page's
      pagehide: each can end it (replay.stop: "calls" | "seconds" | "reader" | "left"). */
  startReplay() {
    const replay = newBounds();
    replay.leave = () => { replay.stop ||= "left"; };
    window.addEventListener("pagehide", replay.leave);
    const panel = this.body.querySelector(".sim-launch-loading");
    if (panel && this.state === "loading") {
      setText(this.part("progress-text"), "Replaying the run…");
      replay.button = el("button", { type: "button", class: "sim-button", "data-part": "replay-stop" }, "Stop replaying");
      replay.button.addEventListener("click", () => { replay.stop ||= "reader"; });
      panel.append(replay.button);
    }
    return replay;
  }

  endReplay(replay) {
    window.removeEventListener("pagehide", replay.leave);
    if (!replay.button) return;
    const focused = replay.button === document.activeElement;
    replay.button.remove();
    // Not lost to <body>: to the panel's text, which setState("ready") hands on to Play (widget.js).
    if (focused) this.part("progress-text")?.focus();
  }

  /** The replay stopped after `done` of `total` actions: say why, and what the widget shows. */
  replayStopped(replay, done, total) {
    if (!replay.stop) return false;   // the simulation failed: bug() has said so
    const why = {
      calls: "This run goes on longer than a page replays by itself, so the replay stopped",
      seconds: `Replaying this run took more than ${REPLAY_SECONDS} seconds, so the replay stopped`,
      reader: "The replay stopped, as you asked,",
      left: "The replay stopped when the page was left,",
    }[replay.stop];
    const actionsDone = total ? `, after ${done} of its ${total} actions` : "";
    this.say(`${why} at ${seconds(this.snapshot.time)} s of ${seconds(replay.target)} s${actionsDone}. ` +
             "Press Play to go on from there, or Reset to start again.");
    return false;
  }

  async copyLink() {
    const snapshot = this.snapshot;
    const line = snapshot.travel;   // at an earlier moment: the whole run, and that moment
    const earlier = line && line.at < line.length;
    // The simulation's defaults (its PARAMS, from Python), asked once: only what differs is written.
    if (!this.specs) {
      const reply = await this.send({ op: "params", sim: this.sim });
      this.specs = reply.ok ? reply.params : [];
    }
    const link = writeLink(location.href, this.id, {
      params: changedParams(snapshot.params, this.chapter, this.specs, snapshot.presets), time: reached(snapshot), actions: this.actions,
      moment: earlier ? { time: line.moment, nth: line.nth } : null,
    }, this.constructor.vocabulary);
    history.replaceState(history.state, "", link.href);
    const status = this.part("link-status");
    let where;
    try {
      await navigator.clipboard.writeText(link.href);
      where = "Link copied. It is in the address bar too.";
    } catch (error) {
      where = "The link is in the address bar: copy it from there.";
    }
    // A link holds a limited number of actions: a longer run is linked up to the last one that
    // fits, and the reader is told (the opened link shows exactly that part of the run).
    const total = line ? line.acts : link.total;   // the marks stop one past what a link holds
    const partial = link.kept < total;
    setText(status, partial
      ? `This run has ${thousands(total)} actions, more than a link holds: the link replays the first ` +
        `${link.kept}, up to ${seconds(link.time)} s, and stops there. ${where}`
      : where.replace("The link is", "The link to this run is"));
    clearTimeout(this.linkTimer);
    this.linkTimer = setTimeout(() => setText(status, ""), partial ? 20000 : 6000);
  }
}
