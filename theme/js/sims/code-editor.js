// The exercise editor: CodeMirror 6, vendored by the build into assets/vendor/codemirror/
// (builder/codemirror.py), loaded by the judge widget only when the reader reaches an exercise.
// Python highlighting (classes `tok-*`, coloured in theme/css, so dark mode and the pages'
// Content-Security-Policy both hold), line numbers, undo, long lines wrapped (a phone's width,
// and no scrolling region to reach by keyboard), and Tab to indent. Tab does not trap
// the keyboard: Escape, then Tab, moves the focus on (CodeMirror's own convention,
// https://codemirror.net/examples/tab/), as the help text beside the editor says.

import { EditorState, StateEffect, StateField } from "../../vendor/codemirror/codemirror-state.js?v=6.7.6";
import { Decoration, EditorView, highlightSpecialChars, keymap, lineNumbers } from "../../vendor/codemirror/codemirror-view.js?v=6.43.15";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "../../vendor/codemirror/codemirror-commands.js?v=6.11.1";
import { indentUnit, syntaxHighlighting } from "../../vendor/codemirror/codemirror-language.js?v=6.13.1";
import { classHighlighter } from "../../vendor/codemirror/lezer-highlight.js?v=1.2.5";
import { python } from "../../vendor/codemirror/codemirror-lang-python.js?v=6.2.1";

// Characters that draw as nothing, or reorder the text around them, while Python still reads them:
// with them the code on the screen is not the code that runs ("Trojan Source", CVE-2021-42574,
// https://trojansource.codes/). CodeMirror already shows most control characters and some of these
// as a placeholder; this adds the rest (the bidirectional embeddings, overrides and isolates, the
// zero-width characters, the soft hyphen, the invisible operators, the spaces that are not a space,
// the fillers and variation and tag characters), each drawn as its code point, in a box, with its
// name as title and aria-label. The character stays in the text, as typed or pasted.
const INVISIBLE = new RegExp("[\u00a0\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u2000-\u200f" +
  "\u202a-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\u{e0000}-\u{e007f}" +
  "\u{e0100}-\u{e01ef}]", "u");
const NAMES = {
  0xa0: "no-break space", 0xad: "soft hyphen", 0x200b: "zero width space", 0x200c: "zero width non-joiner",
  0x200d: "zero width joiner", 0x200e: "left-to-right mark", 0x200f: "right-to-left mark",
  0x202a: "left-to-right embedding", 0x202b: "right-to-left embedding", 0x202c: "pop directional formatting",
  0x202d: "left-to-right override", 0x202e: "right-to-left override", 0x2060: "word joiner",
  0x2066: "left-to-right isolate", 0x2067: "right-to-left isolate", 0x2068: "first strong isolate",
  0x2069: "pop directional isolate", 0xfeff: "zero width no-break space (byte order mark)",
};

function codePoint(code) {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

// Drawn as text, not as CodeMirror's default dot: the reader sees which character it is.
function drawInvisible(code) {
  if (code === 9 || code === 10) return null;   // a tab and a newline are what they look like
  const span = document.createElement("span");
  const name = NAMES[code] || (code < 0x20 || (code >= 0x7f && code < 0xa0) ? "control character" : "invisible character");
  span.className = "cm-specialChar judge-invisible";
  span.textContent = codePoint(code);
  const words = `${name} ${codePoint(code)}: invisible on the page, but part of the code that runs`;
  span.title = words;
  span.setAttribute("aria-label", words);
  return span;
}

const markLine = StateEffect.define();   // a line number to mark, or null to clear the mark
const marked = StateField.define({
  create: () => Decoration.none,
  update(marks, transaction) {
    if (transaction.docChanged) marks = Decoration.none;   // the reader is fixing it
    for (const effect of transaction.effects) {
      if (!effect.is(markLine)) continue;
      const number = effect.value;
      const doc = transaction.state.doc;
      marks = number && number >= 1 && number <= doc.lines
        ? Decoration.set([Decoration.line({ class: "judge-error-line" }).range(doc.line(number).from)])
        : Decoration.none;
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/**
 * An editor in `parent` holding `text`. options: {language: "python" | other (plain),
 * labelledBy, describedBy: element ids, onChange()}. Returns {text, setText(text),
 * markLine(n | null), focus(), view}.
 */
export function makeEditor(parent, text, { language = "python", labelledBy, describedBy, onChange } = {}) {
  const attributes = { "aria-labelledby": labelledBy, "aria-describedby": describedBy,
                       spellcheck: "false", autocapitalize: "off", autocorrect: "off" };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), history(), EditorView.lineWrapping,
        highlightSpecialChars({ addSpecialChars: INVISIBLE, render: drawInvisible }),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        indentUnit.of("    "), EditorState.tabSize.of(4),
        language === "python" ? python() : [],
        syntaxHighlighting(classHighlighter),
        EditorView.contentAttributes.of(attributes),
        marked,
        EditorView.updateListener.of((update) => { if (update.docChanged && onChange) onChange(); }),
      ],
    }),
  });
  return {
    view,
    get text() { return view.state.doc.toString(); },
    setText(next) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next }, effects: markLine.of(null) });
    },
    markLine(number) {
      const effects = [markLine.of(number)];
      if (number && number <= view.state.doc.lines) {
        effects.push(EditorView.scrollIntoView(view.state.doc.line(number).from, { y: "center" }));
      }
      view.dispatch({ effects });
    },
    focus() { view.focus(); },
  };
}
