"""The kit for the glance trial (can a newcomer read each picture at a glance?): python3 bench/picture_trial.py --out DIR (docs/picture-trial.md)

Serves the built site (`python build.py` first) and, in Chromium with reduced motion, plays each
simulation's story as its chapter tells the reader to; at telling moments (stepped or paused) it
shoots the picture alone, at 1280x900, and two moments again in dark mode and two at 390x844.
Writes DIR/shots/NN.png, DIR/truth.md (each picture's truth, read from the snapshot the widget
drew) and DIR/questions.md (the same numbers, the simulation's name and the three questions).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.served import CHROMIUM_ARGS, serve, system_chromium  # noqa: E402

DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}
PICTURE = {"live-queue": ".lqp-svg", "race": ".race-picture", "crash-timing": '[data-part="lanes"]',
           "payments": ".pay-drawing"}
# Hidden while the picture alone is shot: the live queue's key, whose first token reaches a few
# pixels up into the picture at 390 px.
KEY = {"live-queue": ".lqp-key"}
WITH_KEY = {"live-queue": 'figure[data-part="picture"]', "payments": 'figure[data-part="picture"]'}
QUESTIONS = ("Which job is where?", "Whose lease is running out?",
             "Did anything happen twice, and where?")
# Every snapshot a widget applies, kept by its id (drawing.js dispatches `sim-snapshot` on the root).
HOOK = """window.__sims = {};
document.addEventListener('sim-snapshot', (e) => {
  const r = (window.__sims[e.target.id] ||= {n: 0}); r.n += 1; r.s = e.detail; }, true);"""
# The latest snapshot drawn: the live queue's picture says which time it drew (data-time).
DRAWN = """id => { const r = window.__sims[id]; if (!r) return false;
  const fig = document.getElementById(id).querySelector('figure.lqp');
  return !fig || Number(fig.dataset.time) === r.s.time; }"""


class Widget:
    """One embed on a page, driven through its own controls; its snapshots are read from HOOK."""

    def __init__(self, page, sim_id):
        self.page, self.id, self.root = page, sim_id, page.locator(f"#{sim_id}")
        self.root.scroll_into_view_if_needed()
        if self.root.get_attribute("data-state") == "idle":
            self.root.locator('[data-action="start"]').dispatch_event("click")
        page.wait_for_selector(f'#{sim_id}[data-state="ready"]', timeout=120_000)
        self.wait("true")

    def js(self, code, arg=None):
        return self.page.evaluate(code, [self.id, arg])

    def count(self):
        return self.js("([id]) => window.__sims[id].n")

    def wait(self, test, before=-1):
        """Until a snapshot after the `before`th makes `test` (JS, of the snapshot `s`) true."""
        self.page.wait_for_function(f"([id, n]) => {{ const r = window.__sims[id]; return r && r.n > n && "
                                    f"(s => {test})(r.s); }}", arg=[self.id, before], timeout=180_000)

    def press(self, selector, times=1):
        """Click a control `times` times, each time waiting for the snapshot it brings."""
        for _ in range(times):
            before = self.count()
            self.root.locator(selector).first.click()
            self.wait("true", before)
        self.settle()

    def settle(self):
        """Until no snapshot has come for half a second, and the last one is drawn."""
        before = -1
        while before != self.count():
            before = self.count()
            self.page.wait_for_timeout(500)
        self.page.wait_for_function(DRAWN, arg=self.id, timeout=30_000)
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def move(self, name, *args):
        """One move of a story (see STORIES)."""
        if name == "kill":
            self.press(f'[data-action="kill"][data-worker="{args[0]}"]')
        elif name == "speed":
            self.root.locator('[data-control="speed"]').select_option(args[0])
        elif name == "field":
            self.root.get_by_label(args[0], exact=True).fill(args[1])
            self.root.get_by_label(args[0], exact=True).press("Enter")
        elif name in ("play", "wait"):
            button = self.root.locator('[data-action="play"]')
            if name == "play":
                button.click()
            self.wait(args[0])
            if name == "play":
                button.click()   # Pause
            self.settle()
        elif name == "steps":   # Step until the JS `test` of the snapshot holds
            while not self.js(f"([id]) => (s => {args[0]})(window.__sims[id].s)"):
                self.press('[data-action="step"]')
        elif name == "key":
            self.root.locator(f'[data-part="{args[0]}"]').focus()
            self.page.keyboard.press(args[1])
        else:
            self.press(f'[data-action="{name}"]', args[0])


# --- the truth, from a snapshot -------------------------------------------------------------------

def secs(value):
    return f"{value:g} s"


def ids(jobs):
    return ", ".join(str(j["id"]) for j in jobs) or "none"


def live_queue_truth(s, shown=None):
    """`shown`: the figure's data-*-shown, how many tokens of each pile the picture had room for."""
    p, emails = s["picture"], {row["id"]: row["emails"] for row in s["jobs"]}
    for pile in ("done", "dead"):
        p[pile] = p[pile][:int((shown or {}).get(f"{pile}Shown", len(p[pile])))]
    loose = [j for j in p["running"] if j["worker"] is None and (j["dropped_by"] is None or j["lease_left"] == 0)]
    lines = [f"Queue: {p['counts']['queued']} queued (drawn left to right: {ids(loose + p['queued'])})"
             + (f"; job {ids(loose)} back in the queue, its lease ran out" if loose else "")]
    for w in s["workers"]:
        job = next((j for j in p["running"] if j["worker"] == w["id"] or
                    (j["worker"] is None and j["dropped_by"] == w["id"] and j["lease_left"] > 0)), None)
        what = f"Worker {w['id']}: {w['state'].upper() if w['state'] == 'killed' else w['state']}"
        if job:
            tries = f", its try {job['attempts']}" if job["attempts"] > 1 else ""
            held = "holds job" if job["worker"] == w["id"] else "its dropped job waits out its lease in its box: job"
            what += (f"; {held} {job['id']}{tries}, lease {secs(job['lease_left'])} left "
                     f"({round(job['lease'] * 100)}% of its ring)")
        lines.append(what)
    lines.append(f"Done: {p['counts']['done']} (drawn: {ids(p['done'])}); Dead: {p['counts']['dead']}"
                 f" (drawn: {ids(p['dead'])})")
    low = sorted((j for j in p["running"] if j["worker"] is not None or j["lease_left"] > 0),
                 key=lambda j: j["lease"])
    lines.append("Lease running out: " + ("; ".join(
        f"job {j['id']} ({'worker ' + str(j['worker']) if j['worker'] else 'dead worker ' + str(j['dropped_by'])}),"
        f" {secs(j['lease_left'])} left" + (" - ring at a quarter or less (drawn as low)" if j["lease"] <= 0.25 else "")
        for j in low[:2]) or "no job is running"))
    dup = p["duplicates"]
    lines.append("Twice: " + (f"the email of job {', '.join(map(str, dup['latest']))} went out more than once ("
                              + ", ".join(f"job {i}: {emails.get(i, '?')}" for i in dup["latest"]) + " emails)"
                              if dup["jobs"] else "nothing"))
    lines += [f"Ack refused: worker {r['worker']}'s ack of job {r['job']}" for r in p["refused"]]
    return lines


def race_truth(s):
    lines = [f"Clock: {s['clock_words']}; claim: {s['claim']}"]
    for j in s["jobs"]:
        marks = ", ".join(f"{m['worker']} {m['hold']}" for m in j["marks"]) or "no marks"
        lines.append(f"Job {j['id']} ({j['address']}): {j['status']}; {marks}; {j['emails']} email(s)"
                     + (f"; flag {j['flag']}: {j['flag_words']}" if j["flag"] else ""))
    for w in s["workers"]:
        lines.append(f"Worker {w['name']}: {w['last_words']}"
                     + (f" ({s['program'][w['last']]['words']})" if w["last"] is not None else "")
                     + f"; holding job {w['job'] or 'none'}")
    lines.append("Lease running out: none (the race has no leases)")
    lines.append("Twice: " + ("; ".join(f"{a} got emails from {', '.join(n)}" for a, n in s["duplicates"].items())
                              or "nothing"))
    return lines


def crash_truth(s):
    job = s["jobs"][0] if s["jobs"] else None
    lines = [f"Time {secs(s['time'])}; scenario {s['scenario']}, policy {s['policy']}, lease {secs(s['lease'])}"]
    if job:
        lines.append(f"The job: {job['status']}, attempt {job['attempts']}"
                     + (f", lease {secs(job['lease_left'])} left" if job["lease_left"] is not None else ""))
    holder = [m["worker"] for m in s["timeline"] if m["leased"]]
    for w in s["workers"]:
        bars = [b for b in s["work"] if b["worker"] == w["name"]]
        work = "; ".join(f"worked {secs(b['start'])} to " + (secs(b["end"]) if b["end"] is not None else
                         f"now ({secs(s['time'])}), still going") for b in bars) or "has not claimed it"
        late = [b for b in bars if (b["end"] is None and s["time"] >= b["start"] + s["lease"]) or
                (b["end"] or 0) > b["start"] + s["lease"]]
        lines.append(f"Worker {w['name']}: {w['state']}; {work}"
                     + ("; STILL WORKING after its lease ran out at " + secs(late[0]["start"] + s["lease"]) if late else ""))
    left = job and job["lease_left"]
    lines.append("Lease: " + ("no lease running" if left is None or not holder else
                              f"{holder[-1]}'s (the latest claim) " + (f"{secs(left)} left" if left else "HAS RUN OUT")))
    lines.append("Moments: " + "; ".join(f"{secs(m['time'])} " + ("the lease runs out" if m["kind"] == "lease"
                                         else f"{m['worker']} {m['kind']}") for m in s["timeline"]))
    lines.append("Twice: " + ("; ".join(f"{d['alt']} ({secs(s['timeline'][d['index']]['time'])}, worker "
                                        f"{s['timeline'][d['index']]['worker']})" for d in s["duplicates"]) or "nothing"))
    lines.append(f"Verdict: {s['verdict']['words']}")
    return lines


def payments_truth(s):
    p = s["picture"]
    retry = {row["order"]: row["retry_in"] for row in s["jobs"]}
    lines = [f"Time {secs(s['time'])}; key: {s['key']}"]
    for o in p["orders"]:
        tries = "; ".join(f"{a['words']} ({a['key_name']})" for a in o["attempts"]) or "no attempt yet"
        wait = f", retry in {secs(retry[o['order']])}" if retry.get(o["order"]) is not None else ""
        lines.append(f"Order {o['order']}: {o['status']}{wait}; charged {o['charged']}x; attempts: {tries}")
    c = p["coins"]
    lines.append(f"Coins ({c['value']} each): Alice has {c['wallet']} of {c['start']}"
                 + (f", overdrawn by {c['overdrawn']}" if c["overdrawn"] else "")
                 + "; the bank took, in order: " + (", ".join(
                     f"order {t['order']}" + (" (DUPLICATE, red)" if t["duplicate"] else "") for t in c["taken"]) or "nothing"))
    lines.append("Lease running out: none drawn (payments shows attempts and retries, not leases)")
    book = s["ledger"]
    lines.append(f"Twice: {book['duplicate_charges']} duplicate charge(s); {book['duplicates_absorbed']} repeat(s) "
                 f"absorbed by the key; replies lost: {book['lost_replies']}")
    return lines


TRUTH = {"live-queue": live_queue_truth, "race": race_truth, "crash-timing": crash_truth,
         "payments": payments_truth}


# --- the stories --------------------------------------------------------------------------------
# Each is a list of moves: (data-action, times) clicks that control and waits for each snapshot;
# ("kill", n) kills worker n; ("speed", x); ("field", label, value); ("play", until) plays until the
# snapshot `s` makes the JS `until` true, then pauses; ("steps", until) steps until it does; ("wait", test); ("key", part, key) presses a
# key on a part; ("shot", moment, what the reader did) takes the picture.
KILL_1 = [("step", 5), ("kill", 1), ("step", 3),
          ("shot", "ch4-killed", "Step 5 times, Kill worker 1 (holding job 1), Step 3 times"),
          ("speed", "10"), ("play", "s.time >= 40"), ("speed", "1"), ("play", "s.time >= 59.5"),
          ("steps", "s.picture.running.some(j => j.id === 1 && j.attempts > 1 && j.worker)"),
          ("shot", "ch4-moved", "Speed 10x, Play to about 40 s, Speed 1x, Play to about 59.5 s, Pause, then "
                                "Step until job 1's 60 s lease ran out and another worker claimed it")]
KILL_2 = [("speed", "0.25"), ("step", 10), ("kill", 2), ("step", 30),
          ("shot", "ch5-waits", "Speed 0.25x, Step 10 times (1 s), Kill worker 2, Step 30 times"),
          ("step", 12), ("shot", "ch5-moved", "12 more Steps: after the dead worker's lease ran out")]
SHORT = [("field", "Lease (s)", "1"), ("field", "Job duration (s)", "3"),
         ("wait", "s.settings.duration === 3 && s.settings.lease === 1"),
         ("play", "s.stats.duplicate_emails > 0"),
         ("shot", "ch5-duplicate", "(a fresh run, as after Reset) Lease (s) 1, Job duration (s) 3, Play until "
                                   "the first duplicate email, Pause")]
RACE = [("step_a", 1), ("shot", "race-a-looked", "Step worker A once"),
        ("step_b", 1), ("shot", "race-both-looked", "Step worker A once, then worker B once"),
        ("step_a", 1), ("step_b", 1), ("shot", "race-both-took", "A, B, then A and B again"),
        ("step_a", 1), ("step_b", 1), ("shot", "race-both-sent", "A and B stepped a third time each")]
LEASE = [("step", 3), ("shot", "ct-lease-ends", "Step 3 times"),
         ("step", 3), ("shot", "ct-second-email", "Step 3 more times (6 in all)")]
POINTS = [("finish", 1), ("wait", "s.finished"), ("key", "dies", "ArrowRight"),
          ("wait", "s.finished && s.crash_point === 'after-effect'"),
          ("shot", "ct-dies-after-email", "Run to the end (A dies after the claim), then moved 'A dies "
                                          "here' one point right on A's lane: after the email, before the ack")]
STABLE = [("step", 5), ("shot", "pay-reply-lost", "Step 5 times"),
          ("step", 3), ("shot", "pay-absorbed", "Step 3 more times (8 in all)")]
PER_ATTEMPT = [("finish", 1), ("wait", "s.finished"), ("shot", "pay-duplicates", "Run to the end")]
QUEUE = [("enqueue", 6), ("add_worker", 1), ("step", 7),
         ("shot", "ch3-queue", "Enqueue job six times, Add worker, then Step 7 times (0.7 s)")]

# (page, embed id, simulation, chapter, moves): every moment is shot at 1280x900 in light mode.
STORIES = [
    ("03-the-queue.html", "queue-fills-and-drains", "live-queue", 3, QUEUE),
    ("04-the-worker.html", "two-workers-twelve-jobs", "live-queue", 4, KILL_1),
    ("05-leases.html", "kill-a-worker", "live-queue", 5, KILL_2),
    ("05-leases.html", "kill-a-worker", "live-queue", 5, SHORT),
    ("04-the-worker.html", "race-to-claim", "race", 4, RACE),
    ("05-leases.html", "lease-too-short", "crash-timing", 5, LEASE),
    ("05-leases.html", "crash-points", "crash-timing", 5, POINTS),
    ("10-idempotency.html", "stable-key", "payments", 8, STABLE),
    ("10-idempotency.html", "key-per-attempt", "payments", 8, PER_ATTEMPT),
]
# Then these moments again, each story played anew: (words, viewport, colour scheme, moments).
AGAIN = [("desktop 1280x900, DARK mode", DESKTOP, "dark", {"ch5-duplicate", "race-both-took"}),
         ("PHONE 390x844, light mode", PHONE, "light", {"ch5-waits", "pay-duplicates"})]


def run(browser, site, out, keys):
    shots = []
    for how, viewport, scheme, only in [("desktop 1280x900, light mode", DESKTOP, "light", None)] + AGAIN:
        for page_name, embed, sim, chapter, moves in STORIES:
            moments = {move[1] for move in moves if move[0] == "shot"}
            if only is not None and not moments & only:
                continue
            context = browser.new_context(viewport=viewport, color_scheme=scheme, reduced_motion="reduce")
            page = context.new_page()
            page.add_init_script(HOOK)
            page.goto(site.at(page_name))
            widget = Widget(page, f"sim-{embed}")
            for name, *args in moves:
                if name != "shot":
                    widget.move(name, *args)
                    continue
                moment, did = args
                if only is not None and moment not in only:
                    continue
                page.evaluate("() => document.activeElement && document.activeElement.blur()")
                page.mouse.move(0, 0)
                path = out / "shots" / f"{len(shots) + 1:02}.png"
                hide = "([id, key]) => { const k = document.getElementById(id).querySelector(key); if (k) k.style.visibility = %s; }"
                if not keys and sim in KEY:
                    widget.js(hide % "'hidden'", KEY[sim])
                widget.root.locator((WITH_KEY if keys else {}).get(sim, PICTURE[sim])).first.screenshot(
                    path=str(path), animations="disabled")
                if not keys and sim in KEY:
                    widget.js(hide % "''", KEY[sim])
                s = widget.js("([id]) => window.__sims[id].s")
                alt = widget.root.locator(".lqp-svg").get_attribute("aria-label") if sim == "live-queue" else None
                shown = widget.root.locator("figure.lqp").evaluate("f => ({...f.dataset})") if sim == "live-queue" else None
                truth = live_queue_truth(s, shown) if shown else TRUTH[sim](s)
                shots.append((len(shots) + 1, sim, chapter, embed, how, did, truth, alt))
                print(f"{path.name} {sim} ch{chapter} {moment} ({how}) at {s['time']} s", flush=True)
                if only is not None and not (moments - {moment}) & only:
                    break
            context.close()
    return shots


def write(out, shots, keys):
    shot = ("the live queue's and payments' whole figure, with its key" if keys else
            "the picture alone, with the labels drawn inside it (no separate key)")
    truth = ["# Glance trial: the truth for each picture", "",
             f"Read from the snapshot each picture drew (Python's state). Each shot is {shot}.", ""]
    questions = ["# Glance trial: questions", "",
                 "Look at each picture for two seconds, then answer without looking again.", ""]
    for number, name, chapter, embed, how, did, lines, alt in shots:
        truth += [f"## {number:02}. {name}, chapter {chapter} (embed {embed}; {how})", "",
                  f"The reader just did: {did}.", ""] + [f"- {line}" for line in lines]
        truth += ([f"- The page's text alternative: \"{alt}\""] if alt else []) + [""]
        questions += [f"## {number:02}. {name}", ""] + [f"{i}. {q}" for i, q in enumerate(QUESTIONS, 1)] + [""]
    (out / "truth.md").write_text("\n".join(truth))
    (out / "questions.md").write_text("\n".join(questions))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="the built site (python build.py)")
    parser.add_argument("--keys", action="store_true", help="shoot the live queue's and payments' key too")
    args = parser.parse_args()
    if not (args.site / "05-leases.html").is_file():
        sys.exit(f"no built site in {args.site}: run `python build.py` first")
    (args.out / "shots").mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    server, site = serve(args.site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=system_chromium(), args=CHROMIUM_ARGS)
            shots = run(browser, site, args.out, args.keys)
            browser.close()
    finally:
        server.shutdown()
    write(args.out, shots, args.keys)
    print(f"{len(shots)} pictures in {args.out / 'shots'}; truth.md and questions.md beside them")


if __name__ == "__main__":
    main()
