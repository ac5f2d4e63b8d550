// The editor (CodeMirror): one editor state per draft, the diagnostics'
// marks, and the way from a diagnostic to its line.
import { Compartment, EditorState } from '@codemirror/state';
import {
  EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, keymap, lineNumbers,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { diagnosticCount, lintGutter, setDiagnostics } from '@codemirror/lint';

import { tapeSupport } from './tape-language.js';
import { sourceSpan } from './source-span.js';
import { $, page, readingEl } from './page-state.js';
import { readNow, scheduleRead } from './engine-client.js';
import { programEdited, undoSampleLoad } from './drafts-ui.js';
import { selectAtCursor } from './selection.js';

// Read-only while another tab changes the draft (drafts-ui.js).
const readOnly = new Compartment();
export function setReadOnly(on) {
  page.view.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(on)) });
}

// One editor state per draft: switching drafts starts a fresh undo history,
// so Ctrl+Z never brings another draft's text into this one.
export function editorState(doc) {
  return EditorState.create({
    doc,
    extensions: [
      readOnly.of(EditorState.readOnly.of(false)),
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightSpecialChars(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      highlightActiveLine(),
      lintGutter(),
      EditorView.lineWrapping,
      keymap.of([
        { key: 'Mod-z', run: undoSampleLoad },
        { key: 'Mod-Enter', run: () => { readNow(); return true; } },
        ...defaultKeymap, ...historyKeymap,
      ]),
      tapeSupport(),
      sourceSpan(),
      EditorView.domEventHandlers({ beforeinput: insertLongText }),
      // tabindex: it is one tab stop anyway (contenteditable); said, so that
      // its scroller counts as reachable by keyboard (axe-core).
      EditorView.contentAttributes.of({ 'aria-label': 'the program', spellcheck: 'false', autocapitalize: 'off', autocorrect: 'off', tabindex: '0' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          page.chosen.program = update.state.doc.toString();
          const by = (event) => update.transactions.some((tr) => tr.isUserEvent(event));
          // A program pasted (or dropped) in, as it reads once it is read
          // (reading-panes.js forgets an observe choice it does not have).
          page.pasted = by('input.paste') || by('input.drop') ? page.chosen.program : null;
          // A paste's draft is stored a task later (drafts.writeSoon).
          programEdited(insertedLength(update.changes) >= LONG_INSERT,
            by('input') || by('delete') || by('undo') || by('redo') || by('move'));
          scheduleRead();
        }
        // The cursor on a statement selects its node (selection.js).
        if ((update.selectionSet || update.focusChanged) && update.view.hasFocus) selectAtCursor();
      }),
    ],
  });
}

// A long text, or one of several lines, inserted at once (an IME or
// dictation commit, an automation's insertText) goes into the document as
// one change, as a paste does: left to the browser, it lands in the
// editable DOM as one huge text node that the browser lays out, and the
// editor then reads back, over and over (minutes for 5,000 lines); and the
// nodes the browser made stay alive after the editor replaced them.
const LONG_INSERT = 2000;
function insertedLength(changes) {
  let n = 0;
  changes.iterChanges((fromA, toA, fromB, toB) => { n += toB - fromB; });
  return n;
}
function insertLongText(e, v) {
  if (e.inputType !== 'insertText' || typeof e.data !== 'string' || (e.data.length < LONG_INSERT && !e.data.includes('\n'))) return false;
  e.preventDefault();
  v.dispatch(v.state.replaceSelection(e.data.replace(/\r\n?/g, '\n')), { userEvent: 'input.type', scrollIntoView: true });
  return true;
}

export function createEditor() {
  page.view = new EditorView({ parent: $('#editor'), state: editorState('') });
}

// An engine column counts characters (code points); CodeMirror counts
// UTF-16 units.  Returns the document offset of LINE:COLUMN.
function offsetOf(line, column) {
  const doc = page.view.state.doc;
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  let pos = 0, chars = 1;
  for (const ch of l.text) {
    if (chars >= column) break;
    pos += ch.length;
    chars++;
  }
  return l.from + Math.min(pos, l.length);
}

const lint = { marked: false };   // the last diagnostics set were not none

export function showDiagnostics(diags) {
  const view = page.view;
  const el = readingEl('diagnostics');
  el.textContent = diags.map((d) => `${d.line}:${d.column}: ${d.message}`).join('\n');
  // On a phone the editor is far above the readings: the first diagnostic
  // is repeated beside them (a button that goes to it).
  const near = $('#diagnostic-near');
  near.textContent = diags.length ? `line ${diags[0].line}, column ${diags[0].column}: ${diags[0].message}` : '';
  near.hidden = diags.length === 0;
  const doc = view.state.doc;
  const marks = diags.map((d) => {
    const from = offsetOf(d.line, d.column);
    const line = doc.lineAt(from);
    const word = /^[A-Za-z_0-9.]+|^\S/.exec(line.text.slice(from - line.from));
    return { from, to: from + (word ? word[0].length : 0), severity: 'error', message: d.message };
  });
  // None before and none now: no transaction (one costs a few ms on a
  // 5,000-line program, in the task that shows its readings).  "Before"
  // is what was last set, not diagnosticCount: an edit that deletes a
  // mark's whole range maps the mark away but leaves its gutter dot, which
  // only a new set of diagnostics clears.
  if (marks.length || lint.marked || diagnosticCount(view.state)) view.dispatch(setDiagnostics(view.state, marks));
  lint.marked = marks.length > 0;
}

function goToFirstDiagnostic() {
  const first = /^(\d+):(\d+):/.exec(readingEl('diagnostics').textContent);
  if (!first) return;
  const pos = offsetOf(Number(first[1]), Number(first[2]));
  page.view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  page.view.focus();
  $('#editor').scrollIntoView({ block: 'nearest' });
}

// The diagnostics' ways to the editor, and a phone's way to the readings.
export function wireEditorLinks() {
  readingEl('diagnostics').addEventListener('click', goToFirstDiagnostic);
  $('#diagnostic-near').addEventListener('click', goToFirstDiagnostic);
  // On a phone the readings are below the whole editor: a button goes there.
  $('#to-readings').addEventListener('click', () => {
    $('.readings').scrollIntoView({ block: 'start' });
    document.querySelector('.tabs [aria-selected="true"]')?.focus({ preventScroll: true });
  });
}
