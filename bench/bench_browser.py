"""The browser the widget benchmarks drive: Chromium's path and flags, the window, and the scripts
they put into a page (a reader who saves data, a watch for ready, a long-task and frame counter, a
reader scrolling to a widget)."""
import shutil
from pathlib import Path

CHROMIUM_ARGS = ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 900}
SAVE_DATA = """(() => {   // the reader saves data: a widget starts only when its Start is pressed
  const info = navigator.connection;
  if (info) Object.defineProperty(Object.getPrototypeOf(info), "saveData", { get: () => true });
})();"""
WATCH_READY = """(id) => ({ ready: new Promise((resolve) => {
  const root = document.getElementById(id);
  let clicked = null;
  root.addEventListener("click", (event) => { clicked ??= event.timeStamp; }, { capture: true });
  new MutationObserver(() => {
    if (root.dataset.state === "ready") resolve(performance.now() - clicked);
  }).observe(root, { attributes: true, attributeFilter: ["data-state"] });
}) })"""
LONG_TASKS = """() => {
  window.__long = []; window.__frames = 0;
  new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration)))
    .observe({ type: "longtask" });
  const count = () => { window.__frames += 1; requestAnimationFrame(count); };
  requestAnimationFrame(count);
}"""
ARRIVE = """async ({ id, speed }) => {   // scroll down at `speed` px/s to the widget, then click Step
  const root = document.getElementById(id);
  const inView = () => root.getBoundingClientRect().bottom <= innerHeight;
  const from = scrollY;
  await new Promise((resolve) => {
    let began = null;
    const tick = (now) => {
      began ??= now;
      scrollTo(0, from + speed * (now - began) / 1000);
      if (inView()) resolve(); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const arrived = performance.now();
  const found = root.dataset.state;
  const step = root.querySelector('[data-action="step"]');
  await new Promise((resolve) => {
    const wait = () => (root.dataset.state === "ready" && !step.disabled ? resolve() : requestAnimationFrame(wait));
    wait();
  });
  const time = root.querySelector('[data-part="time"]');
  const before = time.textContent;
  const drawn = new Promise((resolve) => {
    const wait = () => (time.textContent !== before ? resolve() : requestAnimationFrame(wait));
    requestAnimationFrame(wait);
  });
  step.click();
  await drawn;
  return { ms: performance.now() - arrived, found };
}"""

def chromium_path() -> str | None:
    found = shutil.which("chromium")
    return found if found and Path(found).is_file() else None


def page_result(browser, address: str, attribute: str, timeout_ms: int):
    """Open one of bench/pages/ (`address`, with its query), wait until its #result says
    data-state="ready", and return its `attribute` read as JSON."""
    import json
    context = browser.new_context()
    page = context.new_page()
    page.goto(address)
    page.wait_for_selector('#result[data-state="ready"]', state="attached", timeout=timeout_ms)
    result = json.loads(page.get_attribute("#result", attribute))
    context.close()
    return result
