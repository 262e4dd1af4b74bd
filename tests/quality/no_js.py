"""Read a page with JavaScript off, as a reader with scripts blocked (or a search engine) does.

What must hold: every piece of reading text is shown (prose, code, transcripts, diagrams, tables,
answers, which are native <details>), each simulation shows its starting state (a table) and its
words for readers without JavaScript, and every link is shown and goes somewhere. What may be
hidden: controls that only scripts can work (buttons, form fields, `.js-only` parts), the search
dialog, and the inside of a closed <details> (one click opens it, with no script).
"""
from __future__ import annotations

import dataclasses

HIDDEN_TEXT = """() => {
  const shown = (e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  // Inside a closed <details> other than in its own summary (a fold within a fold too: an
  // answer inside a folded aside): one click, or two, opens it.
  const folded = (e) => {
    for (let d = e.closest("details:not([open])"); d; d = d.parentElement.closest("details:not([open])")) {
      const summary = d.querySelector(":scope > summary");
      if (!summary || !summary.contains(e)) return true;
    }
    return false;
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const parent = node.parentElement;
    if (!text || parent.closest("script, style, template, noscript, button, select, dialog, .sim, .js-only")) continue;
    if (folded(parent)) continue;   // folded: opens without a script
    if (!shown(parent)) {
      const where = parent.closest("[id]");
      found.push(`<${parent.tagName.toLowerCase()}${where ? " in #" + where.id : ""}> ${text.slice(0, 80)}`);
    }
  }
  return found;
}"""

LINK_PROBLEMS = """() => {
  const shown = (e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const found = [];
  for (const a of document.querySelectorAll("a")) {
    if (a.closest("dialog, details:not([open]) > :not(summary)")) continue;
    const href = a.getAttribute("href");
    const name = a.textContent.trim().slice(0, 60) || a.getAttribute("aria-label") || "(no text)";
    if (href === null) found.push(`<a> ${name}: no href`);
    else if (href === "#" || href.trim().toLowerCase().startsWith("javascript:")) found.push(`<a href="${href}"> ${name}: needs a script`);
    else if (!shown(a)) found.push(`<a href="${href}"> ${name}: hidden`);
  }
  return found;
}"""

# A table folded in a <details> whose summary shows counts as shown: one click opens it.
SIMULATIONS = """() => [...document.querySelectorAll(".sim[data-sim]")].map((root) => {
  const shown = (e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const opens = (e) => {
    const fold = e.closest("details:not([open])");
    const summary = fold && fold.querySelector(":scope > summary");
    return fold && root.contains(fold) && summary && shown(summary) && !fold.parentElement.closest("details:not([open]), .js-only");
  };
  const tables = [...root.querySelectorAll("table")].filter((e) => shown(e) || opens(e));
  const about = [...root.querySelectorAll(".sim-about")].filter(shown);
  return { id: root.id, sim: root.dataset.sim, tables: tables.length,
           about: about.map((e) => e.textContent.trim()).join(" ") };
})"""

# The words of <main> a reader can read: shown, or folded in a <details> (one click opens it).
# Simulations are checked on their own; controls (a challenge's form, `.js-only`) are not reading.
READING_WORDS = """() => {
  const main = document.querySelector("main");
  if (!main) return [];
  const words = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest(".sim, button, select, script, style, template, dialog, .js-only")) continue;
    const folded = parent.closest("details:not([open])") && !parent.closest("summary");
    if (!folded && !parent.checkVisibility({ visibilityProperty: true })) continue;
    words.push(...node.textContent.split(/\\s+/).filter(Boolean));
  }
  return words;
}"""


@dataclasses.dataclass
class NoJsReading:
    """What a page shows with JavaScript off; each list but `words` is a list of problems."""

    page: str
    hidden_text: list[str]
    links: list[str]
    simulations: list[str]
    words: list[str]


def reading_words(page) -> list[str]:
    """The words of <main> a reader reads in `page` as it is now (no simulation, no control)."""
    return page.evaluate(READING_WORDS)


def read_without_js(page, url: str, name: str) -> NoJsReading:
    """Load `url` in `page` (whose context has JavaScript disabled) and read it."""
    page.goto(url)
    sims = []
    for sim in page.evaluate(SIMULATIONS):
        label = f"#{sim['id']} ({sim['sim']})"
        if not sim["tables"]:
            sims.append(f"{label}: no table of its starting state is shown")
        if not sim["about"]:
            sims.append(f"{label}: no text for readers without JavaScript is shown (.sim-about)")
    return NoJsReading(name, page.evaluate(HIDDEN_TEXT), page.evaluate(LINK_PROBLEMS), sims,
                       reading_words(page))
