// Time travel (mixed into Widget, widget.js): "Step back" beside Step, and a slider over the run
// so far with the reader's own actions marked on it. Python keeps every run as a Timeline
// (simulations/engine/timeline.py; the bridge's ops "back" and "seek") and says where the run stands
// and what each mark is (simulations/engine/timeline_view.py, the snapshot's "travel"): this module
// sends the reader's moves and draws what comes back. Acting at an earlier moment starts a new
// branch there; the bridge's words for it go to the widget's message line. Keeping a run and
// comparing with it: compare.js.
//
// Keyboard: the slider is a real range input (arrows move one step or action, Page Up/Down
// further, Home/End to the start and the end); with the focus anywhere else in the widget
// (not in a text field or a menu), "," steps back and "." steps forward.

import { el, setAttr, setText, thousands } from "./dom.js";

const SHOWN_MARKS = 5;   // the reader's latest actions listed in words under the slider

export class TimeTravel {
  bindTimeTravel() {
    this.seeking = null;     // the position the slider asks for and Python has not shown yet
    this.seekLoop = null;    // the promise of the requests that follow the slider
    this.marksShown = null;  // the marks drawn last (so a frame redraws them only when they change)
    this.button("back")?.addEventListener("click", () => {
      if (this.ready) this.stepBack();
    });
    const slider = this.part("moment");
    slider?.addEventListener("input", () => this.seekTo(Number(slider.value)));
    this.body.addEventListener("keydown", (event) => {
      if ((event.key !== "," && event.key !== ".") || event.altKey || event.ctrlKey || event.metaKey) return;
      if (!this.ready || event.target.closest("select, textarea, input:not([type=range], [type=checkbox], [type=radio])")) return;
      event.preventDefault();
      if (event.key === ",") this.stepBack();
      else if (!this.button("step")?.disabled) this.stepOnce();
    });
  }

  /** One step or action back: the state the run had just before it. */
  async stepBack() {
    this.pause();
    this.say("");
    const reply = await this.send({ op: "back" });
    if (!reply.ok) return this.bug(reply);
    this.travelled(reply.snapshot, "Stepped back");
  }

  /** The slider moved to position `at`: show it (while dragging, the latest position wins). */
  seekTo(at) {
    this.pause();
    this.say("");
    this.seeking = at;
    setAttr(this.part("moment"), "aria-busy", "true");   // until the latest position is shown
    this.seekLoop ||= (async () => {
      while (this.seeking !== null) {
        const wanted = this.seeking;
        const reply = await this.send({ op: "seek", at: wanted });
        if (this.seeking === wanted) this.seeking = null;
        if (!reply.ok) {
          this.seeking = null;
          this.bug(reply);
        } else {
          this.travelled(reply.snapshot, this.seeking === null ? "Went" : "");
        }
      }
      this.seekLoop = null;
      setAttr(this.part("moment"), "aria-busy", null);
    })();
    return this.seekLoop;
  }

  /** Go to the moment a link names: {time (seconds), nth} (link-replay.js). */
  async seekMoment({ time, nth }) {
    const reply = await this.send({ op: "seek", time, nth: nth || 0 });
    if (!reply.ok) return this.bug(reply);
    this.travelled(reply.snapshot, "");
    return true;
  }

  /** A snapshot of another moment: drawn as it was then (the charts start again from it). */
  travelled(snapshot, verb) {
    this.restarted(snapshot);
    if (verb) this.log.note(`${verb} to ${snapshot.travel.words}.`);
    this.apply(snapshot);
    if (verb) {
      this.announceResult(snapshot);
      this.announce(`${verb} to ${snapshot.travel.words}. ${this.part("announce").textContent}`);
    }
  }

  /** Acting started a new branch (the bridge's words): say so where the widget says things. */
  sayBranch(reply) {
    if (reply.ok && reply.branch) {
      this.say(reply.branch);
      this.log.note(reply.branch);
    }
  }

  /** Draw where the run stands (Drawing.refresh calls it with every snapshot). */
  showTimeline(snapshot) {
    const line = snapshot.travel;
    const slider = this.part("moment");
    if (!line || !slider) return;
    slider.max = String(line.length);
    if (this.seeking === null) slider.value = String(line.at);
    slider.disabled = !this.ready || line.length === 0;
    setAttr(slider, "aria-valuetext", line.words);
    setText(this.part("moment-words"), line.words);
    const back = this.button("back");
    if (back) back.disabled = !this.ready || line.at === 0;
    this.showCompare(snapshot);   // the kept run beside this one (compare.js)
    const step = this.button("step");   // at an earlier moment, Step follows the run recorded
    if (step && line.at < line.length) step.disabled = !this.ready;
    const next = this.button("next");
    if (next && line.at < line.length) next.disabled = !this.ready;
    const vocabulary = this.constructor.vocabulary;
    // What a link replays: the reader's actions on this branch, as Python recorded them.
    this.actions = line.marks.filter((mark) => Object.hasOwn(vocabulary, mark.action))
      .map((mark) => ({ time: mark.time, name: mark.action, args: mark.args }));
    const last = line.marks.at(-1);   // redrawn only when the marks change, not every frame
    const key = last ? `${line.acts}:${line.marks.length}:${last.at}:${last.words}` : "";
    if (key !== this.marksShown) this.showMarks(line.marks, key, line.acts);
  }

  showMarks(marks, key, acts = marks.length) {
    this.marksShown = key;
    this.part("mark-list")?.replaceChildren(...marks.map((mark) =>
      el("option", { value: mark.at, label: mark.words })));
    const latest = marks.slice(-SHOWN_MARKS).map((mark) => mark.words).join("; ");
    const more = acts > marks.length
      ? ` (${thousands(acts)} actions; the first ${thousands(marks.length)} are marked, the last ${SHOWN_MARKS} of those listed)`
      : marks.length > SHOWN_MARKS ? ` (the latest ${SHOWN_MARKS} of ${thousands(marks.length)})` : "";
    setText(this.part("marks"), marks.length ? `Marked on the timeline${more}: ${latest}.` : "Your actions will be marked on the timeline.");
  }
}
