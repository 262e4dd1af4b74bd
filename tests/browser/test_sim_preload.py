"""Python loads while the reader approaches a simulation (runtime.js, NEAR_MARGIN: two screens away),
so that it is ready when they reach it; a reader who stays further away downloads none of it."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.served import PageWatch, origin

SCREEN = {"width": 1280, "height": 900}
PYTHON_FILES = ("/pyodide/", "/assets/py/", "python-worker.js")


@pytest.fixture
def chapter(browser, real_site):
    """Chapter 5 (its first simulation is about nine screens down), open at the top, watched."""
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    watch = PageWatch(page, origin(real_site.url))
    page.goto(real_site.at("05-leases.html"))
    page.wait_for_selector("html[data-sims-ready]", state="attached")
    yield page, watch, page.locator(".sim[data-sim]").first
    context.close()
    watch.check()


def scroll_to_screens_above(page, sim, screens: float):
    """Scroll so that the simulation's top is `screens` screens below the window's bottom edge."""
    top = sim.evaluate("(root) => root.getBoundingClientRect().top + scrollY")
    page.evaluate(f"() => scrollTo(0, {top - (1 + screens) * SCREEN['height']})")


def python_requests(watch) -> list[str]:
    return [url for url in watch.requests if any(part in url for part in PYTHON_FILES)]


def test_a_reader_who_stays_away_from_the_simulations_downloads_no_python(chapter):
    page, watch, sim = chapter
    for screens in (6, 4, 3, 2.3):   # reading down, but stopping well over two screens short of it
        scroll_to_screens_above(page, sim, screens)
        page.wait_for_timeout(400)
    page.wait_for_timeout(1500)
    assert python_requests(watch) == []
    expect(sim).to_have_attribute("data-state", "idle")


def test_a_reader_who_nears_a_simulation_finds_it_ready(chapter):
    page, watch, sim = chapter
    scroll_to_screens_above(page, sim, 1.6)   # still out of sight: more than a screen and a half to go
    for _ in range(100):   # Python's download starts (within 10 s, however busy the machine)
        if any(url.endswith("pyodide.asm.wasm") for url in watch.requests):
            break
        page.wait_for_timeout(100)
    assert any(url.endswith("pyodide.asm.wasm") for url in watch.requests), python_requests(watch)
    expect(sim).to_have_attribute("data-state", "idle")   # loading Python starts no widget yet
    # Arriving: without a click, the widget is already loading or ready, and soon ready.
    sim.scroll_into_view_if_needed()
    expect(sim).to_have_attribute("data-state", re.compile("^(loading|ready)$"), timeout=5_000)
    expect(sim).to_have_attribute("data-state", "ready", timeout=120_000)
    assert len([url for url in watch.requests if url.endswith("pyodide.asm.wasm")]) == 1


def test_a_reader_who_reads_the_top_of_chapter_3_downloads_no_python_until_they_scroll(browser, real_site):
    """Chapter 3's first simulation is within two screens of the top: near, but only a reader who
    reads on goes there. Before the first scroll nothing of Python is fetched; the first scroll
    starts it."""
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    watch = PageWatch(page, origin(real_site.url))
    try:
        page.goto(real_site.at("03-the-queue.html"))
        page.wait_for_selector("html[data-sims-ready]", state="attached")
        sim = page.locator(".sim[data-sim]").first
        top = sim.evaluate("(root) => root.getBoundingClientRect().top")
        assert SCREEN["height"] < top < 3 * SCREEN["height"], top   # near, out of sight
        page.wait_for_timeout(2000)
        assert python_requests(watch) == []
        page.mouse.wheel(0, 120)   # the reader reads on
        for _ in range(100):
            if any(url.endswith("pyodide.asm.wasm") for url in watch.requests):
                break
            page.wait_for_timeout(100)
        assert any(url.endswith("pyodide.asm.wasm") for url in watch.requests), python_requests(watch)
    finally:
        context.close()
    watch.check()
