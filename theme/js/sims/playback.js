// A widget's playback (mixed into Widget, widget.js): Play at the chosen speed, Pause, Step, "Run
// to the end", Reset. While playing, each animation frame asks Python to advance the simulation
// by the real time elapsed since the last frame times the speed, one request in flight per
// widget, so no call runs long and the page never waits on Python (docs/simulations.md, "The
// bridge").

import { seconds, setText, thousands } from "./dom.js";

const MAX_FRAME_SECONDS = 0.25;  // real seconds one frame may cover (after a stall, time is dropped)
const STEPS_PER_FRAME = 20;       // "Run to the end": steps per animation frame (200 with reduced motion)
export const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

export class Playback {
  retry() {
    this.python.retry();   // other widgets showing the failure start again too ("loading" event)
    if (this.state !== "loading") {
      this.setState("loading");
      this.boot();
    }
    this.showProgress({ stage: "download", loaded: 0, total: this.python.config.total, text: "Downloading Python" });
  }

  /** Play at the chosen speed, or (`toEnd`) as fast as it goes, a few steps a frame, to the end. */
  play(toEnd = false) {
    if (!this.ready) return;
    if (this.playing) {
      this.toEnd = this.toEnd || toEnd;
      return;
    }
    this.say("");
    if (this.snapshot.finished && !this.constructor.idleWhenFinished) {
      this.reset().then(() => this.play(toEnd));
      return;
    }
    if (this.snapshot.finished) {   // an idle queue: its clock would not move, so say why instead
      this.say(this.snapshot.still || "");
      return;
    }
    this.toEnd = toEnd;
    this.playing = true;
    this.log.hold(true);   // its events go in a few times a second (event-log.js)
    this.root.dataset.playing = "true";
    setText(this.part("play-label"), "Pause");
    this.lastFrame = performance.now();
    this.frame = requestAnimationFrame((now) => this.tick(now));
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.toEnd = false;
    this.log.hold(false);
    delete this.root.dataset.playing;
    cancelAnimationFrame(this.frame);
    if (this.snapshot) this.refresh();   // everything as it stands, tables too
  }

  /** The reader paused: tell a screen reader where the run stands (nothing is said while playing). */
  pauseAndSay() {
    this.pause();
    if (this.snapshot) this.announce(`Paused at ${seconds(this.snapshot.time)} s. ${this.snapshot.outcome}`);
  }

  /** What the reader's own action (a step, a button) did, for a screen reader: its first events,
      or the outcome. The event log itself is not a live region (it would flood while playing). */
  announceResult(snapshot) {
    const events = snapshot.events || [];
    const said = events.slice(0, 3).map((event) => event.text);
    if (events.length > 3) said.push(`and ${thousands(events.length - 3)} more events`);
    this.announce(said.length ? `${seconds(snapshot.time)} s: ${said.join("; ")}.` : snapshot.outcome);
  }

  tick(frameTime) {
    if (!this.playing) return;
    this.frame = requestAnimationFrame((next) => this.tick(next));
    const elapsed = Math.min((frameTime - this.lastFrame) / 1000, MAX_FRAME_SECONDS);
    this.lastFrame = frameTime;
    this.owed = Math.min((this.owed || 0) + elapsed, MAX_FRAME_SECONDS);
    if (this.busy || !this.visible) return;          // one request at a time; none while off screen
    if (this.toEnd) {
      this.owed = 0;
      this.send({ op: "step", count: reducedMotion.matches ? 200 : STEPS_PER_FRAME }).then((reply) => {
        if (reply.ok) this.apply(reply.snapshot);
        else this.bug(reply);
      });
      return;
    }
    const now = this.snapshot.time;
    if (this.snapshot.finished && this.constructor.idleWhenFinished) {
      // Every job is done: the clock stops, and so does Play (its button reads "Play" again, not
      // "Pause" over a clock that does not move); the simulation says what would set it going.
      this.owed = 0;
      this.target = now;
      this.pause();
      this.announce(`Paused at ${seconds(now)} s: nothing more happens. ${this.snapshot.outcome}`);
      return;
    }
    // The virtual time to reach: it accumulates across frames (a simulation that ticks every
    // 0.1 s moves once enough has built up), but never runs far ahead of a simulation that lags.
    const from = Math.max(this.target ?? now, now);
    this.target = Math.min(from + this.owed * this.speed, now + Math.max(1, this.speed));
    this.owed = 0;
    this.send({ op: "run", until: this.target }).then((reply) => {
      if (reply.ok) this.apply(reply.snapshot);
      else this.bug(reply);
    });
  }

  async stepOnce() {
    this.pause();
    this.say("");
    const reply = await this.send({ op: "step", count: 1 });
    if (!reply.ok) return this.bug(reply);
    this.apply(reply.snapshot);
    this.announceResult(reply.snapshot);
  }

  /** "Step to the next event" (a simulation whose Step is a clock tick): Python steps on to the
      next step its log has a line for; what it found nothing for it says in its own words. */
  async stepToEvent() {
    this.pause();
    this.say("");
    const reply = await this.send({ op: "next" });
    if (!reply.ok) return this.bug(reply);
    this.apply(reply.snapshot);
    this.announceResult(reply.snapshot);
    if (reply.words) this.say(reply.words);
  }

  async reset() {
    this.pause();
    this.say("");
    const reply = await this.send({ op: "act", name: "reset", args: {} });
    if (!reply.ok) return this.bug(reply);
    this.log.clear();   // the log tells this run only, as the table does (an earlier run's lines would mislead)
    this.log.note("Started again from the beginning.");
    this.announce("Started again from the beginning.");
    this.started(reply.snapshot);
  }
}
