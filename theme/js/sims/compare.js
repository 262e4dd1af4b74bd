// Two runs side by side (mixed into Widget, widget.js): "Keep this run to compare" keeps the whole
// run in Python (simulations/engine/compare.py), where it outlives any change to the live run (a
// setting, Reset, an action at another moment); "Compare with the kept run" (a toggle) then shows
// the two as two pictures, side by side on a wide screen and stacked on a narrow one, at the same
// moment: every snapshot carries the kept run at the live run's moment ("compare"), so Play, Step,
// Step back and the slider move both. The kept run is drawn by the widget's own picture code into a
// copy of its picture (the widget's drawTwin), read-only (`inert`); what sets each run apart and
// where they part are Python's words.

import { el, setAttr, setText } from "./dom.js";

export class Compare {
  bindCompare() {
    this.pair = null;        // the two pictures' box while comparing: {box, twin, differ, ...}
    // A before/after pair (data-compare: the fix's settings, JSON the build wrote): the fix is kept
    // and the chapter's run (the incident) is live beside it, compared from the start (boot).
    this.fix = this.root.dataset.compare ? JSON.parse(this.root.dataset.compare) : null;
    this.button("keep")?.addEventListener("click", () => this.keepRun());
    this.button("compare")?.addEventListener("click", () => this.toggleCompare());
  }

  /** Keep the whole run, to compare whatever comes next with it. */
  async keepRun(as = "kept") {
    const reply = await this.send({ op: "keep", as });
    if (!reply.ok) return this.bug(reply);
    this.log.note(reply.kept);
    this.announce(reply.kept);
    this.apply(reply.snapshot);   // its travel says a run is kept now
    return reply;
  }

  /** A pair's fix created and kept, before the incident (the chapter's run) is created in its
      place (widget.js, boot). False when Python refused it (said). */
  async keepFix() {
    const made = await this.send({ op: "create", sim: this.sim, params: { ...this.fix } });
    const reply = made.ok ? await this.send({ op: "keep", as: "fix" }) : made;
    return reply.ok || this.refused(reply);
  }

  /** Show the two runs (or stop showing them: the kept run stays kept). */
  async toggleCompare(on = !this.snapshot?.travel?.comparing) {
    this.pause();
    const reply = await this.send({ op: "compare", on });
    if (!reply.ok) return reply.error.type === "ParamError" ? this.say(this.explain(reply.error)) : this.bug(reply);
    this.apply(reply.snapshot);
    const shown = reply.snapshot.compare;
    this.announce(shown ? `${reply.compare} ${shown.differ}` : reply.compare);
    return reply;
  }

  /** Draw the comparison of `snapshot` (Drawing.refresh, through showTimeline): the Keep and
      Compare buttons, and the two pictures while comparing. */
  showCompare(snapshot) {
    const line = snapshot.travel || {};
    const keep = this.button("keep");
    if (keep) keep.disabled = !this.ready || (line.length === 0 && !this.pair);
    const compare = this.button("compare");
    if (compare) {
      compare.disabled = !this.ready || !line.kept;
      setAttr(compare, "aria-pressed", line.comparing ? "true" : "false");
    }
    const shown = snapshot.compare;
    if (!shown) return this.endPair();
    const pair = this.pair || this.startPair();
    if (!pair) return;
    setText(pair.keptName, `${shown.kept_name}, at ${shown.kept_moment}`);
    setText(pair.keptAbout, shown.kept_about);
    setText(pair.liveName, `${shown.live_name}, at ${shown.moment}`);
    setText(pair.liveAbout, shown.live_about);
    setText(pair.keptOutcome, shown.kept.view.outcome);
    setText(pair.liveOutcome, snapshot.view.outcome);
    setText(pair.differ, shown.differ);
    if (pair.drawn !== shown.kept) {
      pair.drawn = shown.kept;
      this.drawTwin(pair.twin, shown.kept);
    }
  }

  /** The widget's picture (its module's static `picture`, a selector), the one compared. */
  pictureElement() {
    return this.constructor.picture ? this.body.querySelector(this.constructor.picture) : null;
  }

  /** Put the live picture beside a read-only copy of it for the kept run (a casebook pair's box
      is in the page already: builder/markdown/sim_pair.py). */
  startPair() {
    const built = this.body.querySelector(".sim-pair[data-built]");
    if (built) return this.usePair(built);
    const picture = this.pictureElement();
    if (!picture) return null;
    const side = (run) => {
      const name = el("span", { class: "sim-pair-name" });
      const about = el("span", { class: "sim-pair-about" });
      const outcome = el("p", { class: "sim-pair-outcome" });
      const box = el("div", { class: "sim-pair-run", dataset: { run } },
        el("p", { class: "sim-pair-title" }, name, " ", about));
      return { box, name, about, outcome };
    };
    const kept = side("kept");
    const live = side("live");
    // The copy's parts are renamed, so that the live widget (and a reader's tools) never find
    // them, and it comes after the live picture in the page, so that a query for the first of a
    // kind (view.js's key, caption) finds the live one; the kept run is shown first (CSS order).
    const copy = picture.cloneNode(true);
    for (const node of [copy, ...copy.querySelectorAll("*")]) {   // one of each id on the page
      for (const attribute of ["id", "aria-labelledby", "aria-describedby"]) node.removeAttribute(attribute);
      if (node.dataset.part) {
        node.dataset.twinPart = node.dataset.part;
        delete node.dataset.part;
      }
    }
    const slot = el("div", { class: "sim-pair-picture", inert: true, "aria-hidden": "true" }, copy);
    kept.box.append(slot, kept.outcome);
    const home = document.createComment("the live picture's place");
    picture.before(home);
    live.box.append(picture, live.outcome);
    const differ = el("p", { class: "sim-pair-differ", dataset: { part: "compare-words" } });
    const box = el("div", { class: "sim-pair", role: "group", "aria-label": "Two runs compared", dataset: { pair: this.fix ? "fix" : "kept" } }, differ,
      el("div", { class: "sim-pair-runs" }, live.box, kept.box));
    home.after(box);
    const twin = Object.create(this);   // the widget's own drawing, into the copy
    twin.body = slot;
    twin.part = (name) => slot.querySelector(`[data-twin-part="${name}"]`);
    this.twinReady(twin, copy);
    this.pair = { box, home, picture, twin, differ, drawn: null,
                  keptName: kept.name, keptAbout: kept.about, keptOutcome: kept.outcome,
                  liveName: live.name, liveAbout: live.about, liveOutcome: live.outcome };
    this.root.dataset.comparing = "";
    this.pictureMoved();
    return this.pair;
  }

  /** The pair box the build made: the kept side shown again, its copy drawn by the twin. */
  usePair(box) {
    const find = (run, part) => box.querySelector(`.sim-pair-run[data-run="${run}"] .sim-pair-${part}`);
    const slot = find("kept", "picture");
    box.removeAttribute("data-off");
    if (!this.builtTwin) {
      const twin = Object.create(this);
      twin.body = slot;
      twin.part = (name) => slot.querySelector(`[data-twin-part="${name}"]`);
      this.twinReady(twin, slot.firstElementChild);
      this.builtTwin = twin;
    }
    this.pair = { box, built: true, twin: this.builtTwin, differ: box.querySelector(".sim-pair-differ"), drawn: null,
                  keptName: find("kept", "name"), keptAbout: find("kept", "about"), keptOutcome: find("kept", "outcome"),
                  liveName: find("live", "name"), liveAbout: find("live", "about"), liveOutcome: find("live", "outcome") };
    this.root.dataset.comparing = "";
    return this.pair;
  }

  /** Back to one picture, where it was (a built pair box stays, its kept side hidden). */
  endPair() {
    const pair = this.pair;
    if (!pair) return;
    this.pair = null;
    if (pair.built) {
      pair.box.dataset.off = "";
      delete this.root.dataset.comparing;
      return;
    }
    pair.home.replaceWith(pair.picture);
    pair.box.remove();
    delete this.root.dataset.comparing;
    this.pictureMoved();
  }

  /** Hooks for a widget module: the copy of the picture made ready for the kept run (caches
      of the live drawing reset on `twin`), the kept snapshot drawn into it, and the live
      picture moved (into the pair or back): sizes change. */
  twinReady(twin, copy) {}

  drawTwin(twin, snapshot) {}

  pictureMoved() {}
}
