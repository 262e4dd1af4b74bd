// A widget rebuilt after the page's Python restarted (mixed into Widget, widget.js). python.js
// ends its worker and starts a fresh one when a run overstays its time (a reader's endless loop
// in the judge widget); every simulation in the old worker is gone. A simulation is an exact
// replay of its parameters, seed and the reader's actions at their times, so each widget keeps
// those as the old worker ends ("restarting"), and once the new one is up ("restarted") creates
// its simulation again and replays the actions up to the time it had reached.

import { setText } from "./dom.js";
import { reached } from "./permalink.js";

export class Rebuild {
  /** The worker is ending: keep what rebuilds this widget, and wait, controls off. */
  suspend() {
    this.resumeAs = null;
    if (this.state === "ready" && this.snapshot) {
      this.resumeAs = { params: { ...this.params }, actions: [...this.actions], time: reached(this.snapshot, "moment") };
    } else if (this.state === "loading") {
      this.resumeAs = { boot: true };   // its first request died with the worker: boot again
    } else {
      return;
    }
    this.pause();
    this.setState("loading");
    setText(this.part("progress-text"), "Starting Python again…");
  }

  /** The new worker is up: the same run again, where it was. */
  async rebuild() {
    const saved = this.resumeAs;
    this.resumeAs = null;
    if (!saved) return;
    if (saved.boot) return this.boot();
    if (this.fix && !(await this.keepFix())) return;   // a casebook pair: its fix again (compare.js)
    const reply = await this.send({ op: "create", sim: this.sim, params: saved.params });
    if (!reply.ok) return this.bug(reply);
    this.params = saved.params;
    this.log.clear();
    this.started(reply.snapshot);
    const whole = await this.replay({ actions: saved.actions, time: saved.time });
    if (this.fix) {
      const compared = await this.send({ op: "compare", on: true });
      if (compared.ok) this.apply(compared.snapshot);
    }
    this.setState("ready");
    if (!whole) return;   // a replay is bounded (link-replay.js): it has said where it stopped
    const words = "Python was restarted (a run elsewhere on this page took too long); this simulation " +
                  "was rebuilt where it was. Press Play to go on.";
    this.say(words);
    this.announce(words);
  }
}
