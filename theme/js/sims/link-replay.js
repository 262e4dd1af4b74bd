// The run in the URL (mixed into Widget, widget.js): "Copy link" writes the parameters, the
// reader's actions and the time reached (permalink.js); opening such a link replays the actions
// at their times and runs on to that time: the same run, as the simulations are deterministic.

import { seconds, setText, thousands } from "./dom.js";
import { changedParams, reached, writeLink } from "./permalink.js";

export class LinkReplay {
  async replay({ actions, time, moment }) {
    // The moment is run to on the way, as the reader's run passed it: a moment between two events
    // (Play stopped there) is a position of its own, which running past it would not make.
    const passing = (until) => (moment && moment.time < until ? this.runUntil(moment.time) : true);
    for (const action of actions) {
      if (!(await passing(action.time)) || !(await this.runUntil(action.time))) return;
      const reply = await this.send({ op: "act", name: action.name, args: action.args });
      if (!reply.ok) {
        const back = await this.send({ op: "create", sim: this.sim, params: { ...this.chapter } });
        if (!back.ok) return this.bug(back);
        this.params = { ...this.chapter };
        this.log.clear();
        this.started(back.snapshot);
        this.say(`This page's link asked for an action the simulation refused: ${this.explain(reply.error)} So the page shows the chapter's own settings.`);
        return;
      }
      this.actions.push(action);
      this.apply(reply.snapshot);
    }
    if (moment && !(await this.runUntil(moment.time))) return;
    if (time !== null) await this.runUntil(time);
    if (moment && !(await this.seekMoment(moment))) return;
    this.say(moment
      ? `This is the run the link recorded, at the moment it names (${this.snapshot.travel.words}). Press Play to go on, or Reset to start it again.`
      : "This is the run the link recorded. Press Play to go on, or Reset to start it again.");
  }

  async runUntil(time) {
    for (let calls = 0; calls < 1000; calls += 1) {
      const reply = await this.send({ op: "run", until: time });
      if (!reply.ok) return this.bug(reply) && false;
      this.apply(reply.snapshot);
      if (reply.reached) return true;
    }
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
      params: changedParams(snapshot.params, this.chapter, this.specs), time: reached(snapshot), actions: this.actions,
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
