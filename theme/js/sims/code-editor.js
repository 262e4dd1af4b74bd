// The exercise editor: CodeMirror 6, vendored by the build into assets/vendor/codemirror/
// (builder/codemirror.py), loaded by the judge widget only when the reader reaches an exercise.
// Python highlighting (classes `tok-*`, coloured in theme/css, so dark mode and the pages'
// Content-Security-Policy both hold), line numbers, undo, long lines wrapped (a phone's width,
// and no scrolling region to reach by keyboard), and Tab to indent. Tab does not trap
// the keyboard: Escape, then Tab, moves the focus on (CodeMirror's own convention,
// https://codemirror.net/examples/tab/), as the help text beside the editor says.

import { EditorState, StateEffect, StateField } from "../../vendor/codemirror/codemirror-state.js?v=6.7.6";
import { Decoration, EditorView, keymap, lineNumbers } from "../../vendor/codemirror/codemirror-view.js?v=6.43.15";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "../../vendor/codemirror/codemirror-commands.js?v=6.11.1";
import { indentUnit, syntaxHighlighting } from "../../vendor/codemirror/codemirror-language.js?v=6.13.1";
import { classHighlighter } from "../../vendor/codemirror/lezer-highlight.js?v=1.2.5";
import { python } from "../../vendor/codemirror/codemirror-lang-python.js?v=6.2.1";

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
