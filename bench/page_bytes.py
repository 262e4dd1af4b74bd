"""What a chapter page fetches (bench_widgets.py's `unreached` and `weight`): the bytes a reader's
browser is sent before it reaches the first simulation, or before it does anything."""
import gzip

from bench_browser import VIEWPORT

PYTHON = ("pyodide/", "assets/py/")   # where the site's Python files are, below its root


def opened(browser, url: str, page_name: str):
    """(context, page, responses): the page loaded in a fresh context until the network is idle;
    `responses` goes on collecting every response the page gets."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    responses = []
    page.on("response", lambda response: responses.append(response))
    page.goto(url + page_name, wait_until="networkidle")
    return context, page, responses


def unreached(browser, url: str, page_name: str) -> dict:
    """Bytes fetched by a reader who reads down to where the page's first simulation is still two
    screens and a half below the window, a screen at a time, a second a screen, then lingers."""
    context, page, responses = opened(browser, url, page_name)
    first = page.evaluate("() => document.querySelector('.sim[data-sim]').getBoundingClientRect().top + scrollY")
    stop = max(0, first - 3.5 * VIEWPORT["height"])
    y = 0
    while y < stop:
        y = min(stop, y + VIEWPORT["height"])
        page.evaluate(f"() => scrollTo(0, {y})")
        page.wait_for_timeout(1000)
    page.wait_for_timeout(2000)
    total = python = 0
    for response in responses:
        size = len(response.body())
        total += size
        if response.url[len(url):].startswith(PYTHON):
            python += size
    context.close()
    return {"total": total, "python": python, "screens": stop / VIEWPORT["height"]}


def weight(browser, url: str, page_name: str) -> dict:
    """Bytes a fresh reader's page fetches before they do anything (nothing scrolled)."""
    context, page, responses = opened(browser, url, page_name)
    page.wait_for_timeout(1500)
    raw = gzipped = 0
    names = []
    for response in responses:
        body = response.body()
        raw += len(body)
        gzipped += len(gzip.compress(body, 6))
        names.append(response.url[len(url):].split("?")[0])
    context.close()
    return {"raw": raw, "gzip": gzipped, "files": names}
