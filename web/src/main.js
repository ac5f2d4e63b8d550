// The page: the editor, the reader's choices, the six readings.
//
// Everything shown comes from the engine's JSON (web/tp-wasm.c), computed in
// a Web Worker; the picture is the engine's DOT laid out by graphviz in a
// second worker.  This file only schedules work and displays results.
//
// The automation contract (tests and tools rely on it):
//   [data-reading=spec|derivative|plan|stablehlo|values|picture|summary|
//    diagnostics] hold the current readings (text exactly as the engine
//   wrote it; the picture holds the SVG);
//   document.body.dataset.state is "ready" once all of them show the
//   current program and choices, "busy" while work is in flight;
//   [data-reading=check|check-verdict|memory] the check tab (the check
//   reading's text, the verdict from the JSON) and the memory chart's SVG,
//   of the last program that read (marked stale while one does not).
import { EditorState } from '@codemirror/state';
import {
  EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, keymap, lineNumbers,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, undoDepth } from '@codemirror/commands';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { diagnosticCount, lintGutter, setDiagnostics } from '@codemirror/lint';

import { tapeSupport } from './tape-language.js';
import { TABS, TEACH_TABS, VIEWS, formatHash, parseHash } from './state.js';
import { Drafts, draftTitle, fileStem, firstLine } from './drafts.js';
import { showSourceSpan, sourceSpan } from './source-span.js';
import { createTeach } from './teach.js';
import { LongReadings } from './long-reading.js';
import { fillFolds, foldChunks } from './readings.js';
import { rovingStop, stepLine } from './reading-keys.js';
import { Announcer, sentence } from './announce.js';
import { NodeCard, describeNodes, focusNode, nextNode, prepareNodes, readableScale, standaloneSvg } from './picture-view.js';

const SAMPLES = __TP_SAMPLES__;
const VERSION = __TP_VERSION__;
const READ_DELAY_MS = 120;         // an edit is read once typing pauses this long
const ENGINE_PATIENCE_MS = 2000;   // a newer request replaces a compile this old
const GRAPH_PATIENCE_MS = 20000;   // a layout is given up after this long

const $ = (sel) => document.querySelector(sel);
const readingEl = (name) => document.querySelector(`[data-reading="${name}"]`);
const paneEl = (name) => document.querySelector(`[data-pane="${name}"]`);

// What the reader chose; mirrored in the URL hash.
const state = { program: '', target: '', observe: '', exact: false, tab: 'spec' };
let selected = null;               // the node highlighted across readings
// The names of the last program that read, as the worker packs them
// (engine-worker.js packNames): list[i] names node nodes[i], a scalar when
// scalar[i] is 1.
const unpackNames = ({ text, nodes, scalar }) => ({ list: text === '' ? [] : text.split('\n'), nodes, scalar });
let lastNames = unpackNames({ text: '', nodes: new Int32Array(0), scalar: new Uint8Array(0) });
let lastSources = new Int32Array(0);   // per node its source span, from the engine (flat: line, first, last; -1 none)
let lastSvg = '';                  // the current picture's SVG text
let lastText = null;               // the engine's text readings, last shown

// Timings for the benchmark and the curious: window.toposPlayground.
// firstTextMs: the text readings first shown; firstReadingsMs: all six
// (picture included) first shown, both in ms since navigation.
const stats = {
  version: VERSION, firstTextMs: null, firstReadingsMs: null,
  engineMs: [], markupMs: [], graphMs: [], graphVersion: null,
  showMs: [],                            // main thread: one reading's result put on the page
  engineRestarts: 0, graphRestarts: 0,   // workers terminated to drop stale work
  readsNow: 0,                           // Ctrl+Enter
};
globalThis.toposPlayground = stats;

/* ---------------------------------------------------------------- busy */

const work = { timer: false, engine: false, graph: false, facts: false, teach: false, plain: false, fatal: false };
function updateBusy() {
  const busy = work.timer || work.engine || work.graph || work.facts || work.teach || work.plain;
  const next = busy && !work.fatal ? 'busy' : 'ready';
  if (document.body.dataset.state !== next) document.body.dataset.state = next;   // a change only, for observers
  if (!busy && stats.firstReadingsMs === null) stats.firstReadingsMs = performance.now();
}

/* -------------------------------------------------------------- editor */

// One editor state per draft: switching drafts starts a fresh undo history,
// so Ctrl+Z never brings another draft's text into this one.
function editorState(doc) {
  return EditorState.create({
    doc,
    extensions: [
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
      EditorView.contentAttributes.of({ 'aria-label': 'the program', spellcheck: 'false', autocapitalize: 'off', autocorrect: 'off' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          state.program = update.state.doc.toString();
          // A paste's draft is stored a task later (drafts.writeSoon).
          drafts.update(drafts.current, { program: state.program }, insertedLength(update.changes) >= LONG_INSERT);
          renderDrafts();
          scheduleRead();
        }
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

const drafts = new Drafts();
const view = new EditorView({ parent: $('#editor'), state: editorState('') });

// Shows a draft in the editor (its own undo history) with its choices.
function showDraft(d) {
  drafts.select(d.id);
  view.setState(editorState(d.program));
  state.program = d.program;
  state.target = d.target;
  state.observe = d.observe;
  state.exact = d.exact;
  sampleLoad = null;
  applyChoices();
  renderDrafts();
  scheduleRead();
}

// An engine column counts characters (code points); CodeMirror counts
// UTF-16 units.  Returns the document offset of LINE:COLUMN.
function offsetOf(line, column) {
  const doc = view.state.doc;
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  let pos = 0, chars = 1;
  for (const ch of l.text) {
    if (chars >= column) break;
    pos += ch.length;
    chars++;
  }
  return l.from + Math.min(pos, l.length);
}

function showDiagnostics(diags) {
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
  // 5,000-line program, in the task that shows its readings).
  if (marks.length || diagnosticCount(view.state)) view.dispatch(setDiagnostics(view.state, marks));
}

function goToFirstDiagnostic() {
  const first = /^(\d+):(\d+):/.exec(readingEl('diagnostics').textContent);
  if (!first) return;
  const pos = offsetOf(Number(first[1]), Number(first[2]));
  view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  view.focus();
  $('#editor').scrollIntoView({ block: 'nearest' });
}
readingEl('diagnostics').addEventListener('click', goToFirstDiagnostic);
$('#diagnostic-near').addEventListener('click', goToFirstDiagnostic);
// On a phone the readings are below the whole editor: a button goes there.
$('#to-readings').addEventListener('click', () => {
  $('.readings').scrollIntoView({ block: 'start' });
  document.querySelector('.tabs [aria-selected="true"]')?.focus({ preventScroll: true });
});

/* -------------------------------------------------------------- engine */

let engineWorker = null;
let seq = 0;            // the newest request's id
let inFlight = null;    // {id, started}
let pending = null;     // the newest request not yet sent
let patience = null;

function startEngine() {
  textParts = new Map();   // a terminated worker's parts are not the next result's
  engineWorker = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
  engineWorker.onmessage = (e) => {
    if (e.data.loadError) fatal(`the engine could not be loaded: ${e.data.loadError}`);
    else if (typeof e.data.id === 'string') onAnswer(e.data);
    else if (e.data.part) textParts.set(e.data.part, e.data.text);
    else if (e.data.teachOf !== undefined) onTeach(e.data);
    else if (!e.data.loaded) onEngineResult(e.data);
  };
  engineWorker.onerror = (e) => {
    e.preventDefault();
    fatal(`the engine could not be loaded: ${e.message || 'engine-worker.js is missing or broken'}`);
  };
}

// The engine cannot run at all: say so plainly, and stop waiting for it.
function fatal(message) {
  work.fatal = true;
  work.engine = false;
  work.teach = false;
  readingEl('diagnostics').textContent = message;
  const el = $('#page-problem');
  el.textContent = `${message}. The program is kept; reload the page to try again.`;
  el.hidden = false;
  updateBusy();
  updateDownloads();
}

let readTimer = null;
const announcer = new Announcer($('#announce'));
function scheduleRead() {
  announcer.typed();
  work.timer = true;
  updateBusy();
  // The hash is written when the program is read, not on every key (a
  // replaceState of a long program's URL costs milliseconds).
  // A debounce: the program is read when typing pauses for READ_DELAY_MS
  // (the timer restarts on every key), so the panes do not flip between
  // stale and fresh during a burst of keys.
  if (readTimer !== null) clearTimeout(readTimer);
  readTimer = setTimeout(() => { readTimer = null; work.timer = false; read(); }, READ_DELAY_MS);
  // The engine starts on the program after a shorter pause; what it
  // reads is shown only when the debounce ends (readAhead).
  if (ahead !== null) ahead.stale = true;   // of another program now
  if (aheadTimer !== null) clearTimeout(aheadTimer);
  aheadTimer = lastEngineMs < READ_DELAY_MS - AHEAD_MS ? setTimeout(readAhead, AHEAD_MS) : null;
}

// Reading ahead: once typing has paused for AHEAD_MS the worker reads the
// program, and the result waits, unseen, for the debounce to end; if the
// program is still the same then, it is shown at once (a 300-line
// program's read takes most of the debounce's 120 ms).  A key typed
// meanwhile drops it.  Not for a program whose reads take about as long
// as the debounce: a read ahead would only delay the one that counts.
const AHEAD_MS = 40;
let aheadTimer = null;
let ahead = null;          // {key, id, msg, teach, stale} of the read ahead of the debounce
let lastEngineMs = 0;      // the worker's time for the last read shown
// What a read of the program now asks the engine.
function currentRead() {
  return { program: state.program, target: state.target, observe: state.observe ? [state.observe] : [], exact: state.exact };
}
function newRequest() {
  return { id: ++seq, ...currentRead() };
}
function readAhead() {
  aheadTimer = null;
  if (work.fatal || inFlight !== null || readTimer === null) return;
  const request = newRequest();
  ahead = { key: requestKey(request), id: request.id, msg: null, teach: null, stale: false };
  send(request);
}

// Ctrl+Enter: read now, without waiting for the pause.
function readNow() {
  stats.readsNow++;
  if (readTimer !== null) clearTimeout(readTimer);
  readTimer = null;
  work.timer = false;
  writeHash();
  read();
}

// Questions to the engine worker besides reads, each answered once: the
// whole JSON (what `topos --json` prints) for the request whose readings
// are shown, asked for only when the reader downloads it; a long
// reading's chunk of markup; the facts of the picture's nodes.
let latestRequest = null;
let shownRequest = null;
let shownId = null;   // the id of the read whose readings are shown
const asked = new Map();   // id -> {resolve, reject}
let askSeq = 0;
function askEngine(kind, body) {
  return new Promise((resolve, reject) => {
    const id = `${kind}-${++askSeq}`;
    asked.set(id, { resolve, reject });
    engineWorker.postMessage({ ...body, id });
  });
}
function engineJson() {
  return askEngine('json', { ...shownRequest, json: true }).then((m) => m.json);
}
function onAnswer(msg) {
  const r = asked.get(msg.id);
  asked.delete(msg.id);
  if (!r) return;
  if (msg.fatal) r.reject(new Error(msg.fatal));
  else r.resolve(msg);
}
function dropJsonRequests() {
  for (const r of asked.values()) r.reject(new Error('the engine was restarted; try again'));
  asked.clear();
}

function read() {
  if (work.fatal) return;
  if (aheadTimer !== null) { clearTimeout(aheadTimer); aheadTimer = null; }
  // The read ahead of this pause, when it read this same program, is the
  // one shown: its result now, or when it comes.
  const early = ahead !== null && !ahead.stale && ahead.key === requestKey(currentRead()) ? ahead : null;
  ahead = null;
  const request = early ? { id: early.id, ...currentRead() } : newRequest();
  latestRequest = request;
  teach.programChanged(requestKey(request));
  writeHash();
  // Printing shows the whole program (the editor draws only what is on screen).
  $('#print-program').textContent = state.program;
  work.engine = true;
  updateBusy();
  if (early) {
    if (early.msg) {
      showEngineResult(early.msg);
      if (early.teach) onTeach(early.teach);
    }
    return;
  }
  if (inFlight === null) send(request);
  else {
    pending = request;   // replaces any older pending request: it is stale
    if (patience === null) {
      const wait = Math.max(0, ENGINE_PATIENCE_MS - (performance.now() - inFlight.started));
      patience = setTimeout(restartEngine, wait);
    }
  }
}

function send(request) {
  inFlight = { id: request.id, started: performance.now() };
  engineWorker.postMessage(request);
}

// A compile is taking long and the reader has moved on: drop it.
function restartEngine() {
  patience = null;
  if (inFlight === null || pending === null) return;
  engineWorker.terminate();
  dropJsonRequests();
  stats.engineRestarts++;
  startEngine();
  inFlight = null;
  const next = pending;
  pending = null;
  send(next);
}

// The readings' texts of the result on its way, each in a message of its
// own (engine-worker.js).
let textParts = new Map();
function onEngineResult(msg) {
  if (!msg.fatal) {
    msg.text = Object.fromEntries(textParts);
    textParts = new Map();
  }
  if (inFlight === null || msg.id !== inFlight.id) return;   // from a terminated run
  inFlight = null;
  if (patience !== null) { clearTimeout(patience); patience = null; }
  if (msg.fatal) {
    // The wasm instance may be broken: the next read gets a fresh one.
    engineWorker.terminate();
    dropJsonRequests();
    startEngine();
  }
  if (pending !== null) {
    const next = pending;
    pending = null;
    send(next);
  }
  if (ahead !== null && msg.id === ahead.id) {   // read ahead: kept until the debounce ends, or dropped
    if (!ahead.stale) ahead.msg = msg;
    return;
  }
  if (msg.id !== seq) return;          // stale: a newer request is on its way
  showEngineResult(msg);
}

function showEngineResult(msg) {
  work.engine = false;
  shownRequest = latestRequest;
  shownId = msg.id;
  if (msg.fatal) {
    readingEl('diagnostics').textContent = `the engine failed on this program: ${msg.fatal}`;
    updateBusy();
    return;
  }
  stats.engineMs.push(msg.ms.engine);
  stats.markupMs.push(msg.ms.markup);
  lastEngineMs = msg.ms.engine + msg.ms.markup;
  const shownAt = performance.now();
  showResult(msg);
  stats.showMs.push(performance.now() - shownAt);
  if (stats.firstTextMs === null) {
    stats.firstTextMs = performance.now();
    document.body.classList.add('loaded');
  }
  updateBusy();
}

/* ------------------------------------------------------------ readings */

const TEXT_READINGS = ['spec', 'derivative', 'plan', 'stablehlo', 'values'];
const deferredHtml = new Map();   // reading -> the result whose markup its hidden pane has not had yet
// Long readings: chunks of plain text, marked up as they come near the screen.
const longReadings = new LongReadings(
  (chunk) => askEngine('chunk', { chunk }).then((m) => (m.gone ? null : m.html), () => null),
  (chunk) => { applySelection(chunk); rovingStop(chunk.closest('[data-reading]'), selected); });
const paneShown = (name) => state.tab === 'tiled' || state.tab === name;

// Puts a reading's markup (an array, one item a line: readings.js) into
// its element, keeping the lines it shares with what the element shows at
// the start and at the end (as the desktop does): an edit in the middle of
// a 300-line program rebuilds only the lines that changed.
const shownLines = new WeakMap();   // element -> the markup items it shows
function setMarkup(el, lines) {
  const old = shownLines.get(el);
  shownLines.set(el, lines);
  if (!old || el.childNodes.length !== old.length) {
    el.innerHTML = lines.join('');
    return;
  }
  let p = 0;
  while (p < old.length && p < lines.length && old[p] === lines[p]) p++;
  let q = 0;
  while (q < old.length - p && q < lines.length - p && old[old.length - 1 - q] === lines[lines.length - 1 - q]) q++;
  const range = document.createRange();
  range.setStart(el, p);
  range.setEnd(el, old.length - q);
  range.deleteContents();
  if (p + q < lines.length) {
    const at = el.childNodes[p] || null;
    el.insertBefore(range.createContextualFragment(lines.slice(p, lines.length - q).join('')), at);
  }
}
function setPlain(el, text) {
  plainQueue.delete(el);
  shownLines.delete(el);
  longReadings.drop(el);
  el.textContent = text;
}

// A hidden pane's plain text, when it is big, goes in in a task of its
// own (a 5,000-line program's hidden readings are 17 MB: swapped in with
// everything else, they held the page's thread over 50 ms), and so does
// every long reading shown after the first (each is hundreds of blocks).
const PLAIN_AT_ONCE = 1 << 20;   // characters
const plainQueue = new Map();     // element -> what puts its reading in
let plainTimer = null;
function queueWork(el, put) {
  plainQueue.set(el, put);
  work.plain = true;
  if (plainTimer === null) plainTimer = setTimeout(flushPlain, 0);
}
function queuePlain(el, text) {
  if (text.length < PLAIN_AT_ONCE) setPlain(el, text);
  else queueWork(el, () => setPlain(el, text));
}
function flushPlain(all = false) {
  plainTimer = null;
  for (const [el, put] of plainQueue) {
    plainQueue.delete(el);
    put();
    if (!all) break;
  }
  if (plainQueue.size) plainTimer = setTimeout(flushPlain, 0);
  else { work.plain = false; updateBusy(); }
}

// Puts reading r of an engine result into its element: a short reading's
// markup, or a long one's chunks (long-reading.js).
// Long readings putReading shows in one task: the first, and the next
// while their text adds up to LONG_AT_ONCE characters; the rest are
// queued, each to a task of its own (a 5,000-line program's are
// megabytes each; a few short long readings share one task and one
// frame).
const LONG_AT_ONCE = 1 << 19;
let longRoom = -1;   // characters left in this task; -1: none shown yet
function takeLong(chars) {
  const ok = longRoom < 0 || chars <= longRoom;
  longRoom = Math.max(0, (longRoom < 0 ? LONG_AT_ONCE : longRoom) - chars);
  return ok;
}
function putReading(r, msg, now = false) {
  const el = readingEl(r);
  plainQueue.delete(el);
  const long = msg.long?.[r];
  if (long && !now && !takeLong(msg.text[r].length)) {
    queueWork(el, () => {
      if (paneShown(r)) putReading(r, msg, true);
      else { setPlain(el, msg.text[r]); deferredHtml.set(r, msg); }   // the tab changed meanwhile
    });
  } else if (long) {
    shownLines.delete(el);
    longReadings.show(el, { ...long, of: msg.id, reading: r, text: msg.text[r] });
  } else {
    longReadings.drop(el);
    setMarkup(el, msg.html[r]);
    fillFolds(el, msg.text[r]);
  }
  rovingStop(el, selected);
}

function showDeferred() {
  longRoom = -1;
  let any = false;
  for (const [r, msg] of deferredHtml) {
    if (!paneShown(r)) continue;
    putReading(r, msg);
    deferredHtml.delete(r);
    any = true;
  }
  if (any) applySelection();
}

function showResult(msg) {
  const refused = msg.status !== 0;
  longRoom = -1;
  // A refused program keeps the last readings that worked: they go in first.
  if (refused && plainQueue.size) { clearTimeout(plainTimer); flushPlain(true); }
  for (const r of TEXT_READINGS) {
    const el = readingEl(r);
    const pane = paneEl(r);
    if (refused && lastText !== null) {
      // Keep the last reading that worked beside the (empty) current one.
      // (its nodes move there: a long reading is not serialised and parsed again)
      const stale = pane.querySelector('.stale');
      if (!pane.classList.contains('refused')) {
        const range = document.createRange();
        range.selectNodeContents(el);
        stale.replaceChildren(range.extractContents());
        shownLines.delete(el);
        longReadings.drop(el);
      }
    } else if (!refused) {
      pane.querySelector('.stale').replaceChildren();   // nothing old is held
    }
    // Markup only where it is seen: a hidden pane gets the plain text (the
    // same textContent, far cheaper to swap in) and its markup when shown.
    if (paneShown(r)) {
      putReading(r, msg);
      deferredHtml.delete(r);
    } else {
      queuePlain(el, msg.text[r]);
      deferredHtml.set(r, msg);
    }
    pane.classList.toggle('refused', refused && lastText !== null);
  }
  readingEl('summary').textContent = msg.text.summary;
  // While a line is half typed the summary keeps the last good one, marked.
  $('#summary-stale').textContent = refused && lastText !== null ? lastText.summary : '';
  showDiagnostics(msg.diagnostics);
  announcer.result(sentence(msg.diagnostics, msg.text.summary));
  if (!refused) {
    lastText = msg.text;
    lastNames = unpackNames(msg.names);
    used = { target: msg.target, observe: msg.observe };
    lastSources = msg.sources;
    const t = lastNames.list.lastIndexOf(msg.target);
    pictureTarget = t < 0 ? null : lastNames.nodes[t];
    fillChoices();
  }
  shown = { ok: !refused, text: msg.text };
  showChoiceNote();
  // The teaching facts follow in a message of their own (engine-worker.js):
  // the page is busy until they are in only when they are seen.
  pendingTeach = { id: msg.id, refused };
  work.teach = teachSeen();
  showPicture(msg.text.dot, refused);
  applySelection();
  updateDownloads();
}

// The teaching facts of the result on screen, which follow it.  They are
// seen on a teaching tab, in the step-through, and in the explanation
// line when a node is selected.
let pendingTeach = null;   // {id, refused} of the result whose facts are on their way
const teachSeen = () => TEACH_TABS.includes(state.tab) || selected !== null || teach.stepping();
function onTeach(msg) {
  if (ahead !== null && msg.teachOf === ahead.id) { ahead.teach = msg; return; }   // of a read ahead, kept with it
  if (pendingTeach === null || msg.teachOf !== pendingTeach.id) return;   // of a result not shown
  const { refused } = pendingTeach;
  pendingTeach = null;
  if (msg.teach) {   // none when picking them out failed: the panes keep the last
    teach.show(msg.teach, refused);
    applySelection();
  }
  work.teach = false;
  updateBusy();
}

// What the engine used, from its JSON; a chosen name it did not use is
// said, with what it used instead.
let used = { target: null, observe: [] };
let shown = { ok: false, text: null };   // the readings on screen: did the program read?
function fallbacks() {
  const known = (n) => lastNames.list.includes(n);
  const out = {};
  if (state.target && used.target !== state.target) {
    out.target = `target ${state.target} is ${known(state.target) ? 'not a scalar' : 'not in the program'}: `
      + (used.target ? `differentiating ${used.target} instead` : 'nothing is differentiated');
    out.targetLabel = `${state.target} (${known(state.target) ? 'not a scalar' : 'not in the program'}; using ${used.target ?? 'none'})`;
  }
  if (state.observe && !used.observe.includes(state.observe)) {
    const why = !known(state.observe) ? 'not in the program' : state.observe === used.target ? 'the target itself' : 'not used';
    out.observe = `observe ${state.observe} is ${why}: observing nothing extra`;
    out.observeLabel = `${state.observe} (${why}; observing nothing)`;
  }
  return out;
}

function showChoiceNote() {
  const f = fallbacks();
  $('#choice-note').textContent = shown.ok ? [f.target, f.observe].filter(Boolean).join('; ') : '';
}

// Target lists the scalar names, observe every name; a chosen name the
// program no longer has stays listed, so typing does not lose the choice.
function fillChoices() {
  const unique = (list) => [...new Set(list)];
  const scalars = unique(lastNames.list.filter((n, i) => lastNames.scalar[i]));
  const all = unique(lastNames.list);
  const f = lastText === null ? {} : fallbacks();
  fillSelect($('#target'), 'the last scalar', scalars, state.target, f.targetLabel);
  fillSelect($('#observe'), 'nothing extra', all, state.observe, f.observeLabel);
}

// A program with thousands of names fills its lists when one is about to
// be used (focus or a press), not on every read.
const EAGER_NAMES = 400;
const lazyFills = new Map();   // select -> its full fill, not done yet
for (const id of ['#target', '#observe']) {
  const fillNow = (e) => { const f = lazyFills.get(e.currentTarget); if (f) { lazyFills.delete(e.currentTarget); f(); } };
  $(id).addEventListener('focus', fillNow);
  $(id).addEventListener('pointerdown', fillNow);
}
function fillSelect(select, placeholder, names, chosen, fallbackLabel) {
  lazyFills.delete(select);
  if (names.length > EAGER_NAMES && document.activeElement !== select) {
    const all = names;
    lazyFills.set(select, () => fillOptions(select, placeholder, all, chosen, fallbackLabel));
    names = names.includes(chosen) ? [chosen] : [];
  }
  fillOptions(select, placeholder, names, chosen, fallbackLabel);
}
function fillOptions(select, placeholder, names, chosen, fallbackLabel) {
  const options = [['', placeholder], ...names.map((n) => [n, n])];
  if (chosen && !names.includes(chosen)) options.push([chosen, fallbackLabel || chosen]);
  const same = options.length === select.options.length
    && options.every(([v, l], i) => select.options[i].value === v && select.options[i].textContent === l);
  if (!same) {
    select.replaceChildren(...options.map(([v, l]) => {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = l;
      return o;
    }));
  }
  select.value = chosen;
}

/* ------------------------------------------------------------- picture */

// The picture is the engine's DOT laid out by graphviz in its own worker.
// A layout cannot be interrupted, so a layout nobody wants any more is
// either left to finish (when it is young; its result is cached) or the
// worker is terminated and a fresh one started.
const GRAPH_QUEUE_MS = 300;
let graphWorker = null;
let graphSeq = 0;
let graphJob = null;       // {id, dot, started, timer}
let renderedDot = null;    // the DOT the picture now shows
let wantedDot = '';        // the DOT of the current readings

function startGraphWorker() {
  graphWorker = new Worker(new URL('./graph-worker.js', import.meta.url), { type: 'module' });
  graphWorker.onmessage = (e) => onGraphResult(e.data);
  // The worker's file is missing or broken: every layout fails at once
  // (instead of waiting out GRAPH_PATIENCE_MS for an answer that never comes).
  graphWorker.onerror = (e) => {
    e.preventDefault();
    graphBroken = `graphviz could not be loaded (${e.message || 'graph-worker.js is missing or broken'})`;
    stopGraphWorker();
    if (graphJob) onGraphResult({ id: graphJob.id, error: graphBroken });
  };
}
let graphBroken = null;

function stopGraphWorker() {
  if (graphWorker) graphWorker.terminate();
  graphWorker = null;
  if (graphJob) clearTimeout(graphJob.timer);
}

// A few recent layouts (or their errors), so fixing a typo does not lay
// the graph out again.
const svgCache = new Map();
function remember(dot, entry) {
  svgCache.delete(dot);
  svgCache.set(dot, entry);
  if (svgCache.size > 8) svgCache.delete(svgCache.keys().next().value);
}

function showPicture(dot, refused) {
  const el = readingEl('picture');
  const pane = paneEl('picture');
  const stale = pane.querySelector('.picture.stale');
  if (refused) {
    if (!pane.classList.contains('refused')) stale.innerHTML = el.innerHTML;
    pane.classList.toggle('refused', stale.firstChild !== null);
  } else {
    pane.classList.remove('refused');
    stale.replaceChildren();
  }
  wantedDot = dot;
  drawWanted();
}

function drawWanted() {
  const dot = wantedDot;
  const note = $('#picture-note');
  if (dot !== renderedDot) {
    if (!dot.trim()) {
      setPicture('', dot);
      note.textContent = lastText !== null && lastText.dot === dot ? 'no picture for this program.' : '';
    } else if (svgCache.has(dot)) {
      const { svg, error } = svgCache.get(dot);
      setPicture(svg, dot);
      note.textContent = error ? `The picture could not be drawn: ${error}` : '';
    } else if (!graphJob || (graphJob.dot !== dot && performance.now() - graphJob.started >= GRAPH_QUEUE_MS)) {
      if (graphJob) {
        stopGraphWorker();
        stats.graphRestarts++;
        graphJob = null;
      }
      startLayout(dot);
    }
    // else: a layout is on its way (this one, or a young one whose result
    // comes back here first).
  }
  work.graph = renderedDot !== wantedDot;
  updateBusy();
  updateDownloads();
}

function startLayout(dot) {
  const id = ++graphSeq;
  if (graphBroken) {
    graphJob = { id, dot, started: performance.now(), timer: null };
    onGraphResult({ id, error: graphBroken });
    return;
  }
  if (!graphWorker) startGraphWorker();
  const timer = setTimeout(() => {
    stopGraphWorker();
    onGraphResult({ id, error: `the layout took longer than ${GRAPH_PATIENCE_MS / 1000} s and was stopped` });
  }, GRAPH_PATIENCE_MS);
  graphJob = { id, dot, started: performance.now(), timer };
  graphWorker.postMessage({ id, dot });
}

function onGraphResult(msg) {
  if (!graphJob || msg.id !== graphJob.id) return;   // from a terminated worker
  const job = graphJob;
  clearTimeout(job.timer);
  graphJob = null;
  if (msg.error) {
    remember(job.dot, { svg: '', error: msg.error });
  } else {
    stats.graphMs.push(msg.ms);
    stats.graphVersion = msg.version;
    remember(job.dot, { svg: msg.svg, error: null });
  }
  drawWanted();   // shows it, or lays out what is wanted now
}

let zoom = 0;   // 0: fit (as far as labels stay readable); otherwise a scale factor
let pictureNodes = [];   // the tape nodes the picture draws
let pictureFacts = {};   // what the engine says of them (picture-facts.js)
let factsSeq = 0;
function setPicture(svg, dot) {
  renderedDot = dot;
  lastSvg = svg;
  const el = readingEl('picture');
  card.hide();
  el.innerHTML = svg.replace(/^[\s\S]*?(?=<svg)/, '');
  const root = el.querySelector('svg');
  pictureNodes = [];
  pictureFacts = {};
  if (root) {
    root.removeAttribute('width');
    root.removeAttribute('height');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', 'the recorded graph');
    pictureNodes = prepareNodes(root);
    root.dataset.readable = String(readableScale(root));
  }
  describePicture(root);
  zoom = 0;
  applyZoom(true);
  applySelection();
  updateDownloads();
}

// The picture as text, for those who cannot see it: each drawn node's op,
// name, shape, value and operands, from the engine's facts of the nodes
// the picture draws (asked for once it is drawn).
function describePicture(root) {
  const summary = (text) => { $('#picture-alt summary').textContent = text; };
  const list = $('#picture-alt-list');
  if (!root || pictureNodes.length === 0) {
    list.replaceChildren();
    summary('the picture as text: nothing drawn');
    return;
  }
  const id = ++factsSeq;
  work.facts = true;
  updateBusy();
  const done = (facts) => {
    if (id !== factsSeq) return;
    work.facts = false;
    pictureFacts = facts;
    const edges = describeNodes(root, pictureNodes, facts, list);
    const n = pictureNodes.length;
    summary(`the picture as text: ${n} nodes, ${edges} operand edges`);
    root.setAttribute('aria-label', `the recorded graph: ${n} nodes, ${edges} operand edges; listed as text below the picture`);
    updateBusy();
  };
  askEngine('facts', { facts: { of: shownId, nodes: pictureNodes } })
    .then((m) => done(m.facts || {}), () => done({}));
}

// zoom 0 fits the picture in its pane: the whole of it when its labels
// stay readable (READABLE_PX) at that size, else its width, else the
// readable size around the target; otherwise zoom is a scale factor.
// opening: the picture was just drawn (the view goes to the target).
function applyZoom(opening = false) {
  const el = readingEl('picture');
  const root = el.querySelector('svg');
  if (!root) return;
  const vb = root.viewBox.baseVal;
  const width = (vb && vb.width ? vb.width : 400) * 96 / 72;
  const height = (vb && vb.height ? vb.height : 300) * 96 / 72;
  let scale = zoom;
  const box = el.closest('.scroll');
  if (zoom === 0) {
    const w = box.clientWidth - 24, h = box.clientHeight - 24;
    if (w <= 0) return;   // the pane is hidden; showView fits it later
    const readable = Number(root.dataset.readable) || 0.6;
    scale = Math.min(w / width, h / height, 1.5);
    if (scale < readable) scale = Math.min(w / width, 1.5);
    if (scale < readable) scale = Math.min(readable, 1.5);
  }
  root.style.width = `${Math.round(width * scale)}px`;
  el.dataset.scale = scale.toFixed(3);
  if (zoom === 0 && (opening || box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight)) centreOnTarget(root, box);
}

// Scrolls the picture so that the target's node (else the selected one)
// is in the middle of its box.
let pictureTarget = null;
function centreOnTarget(root, box) {
  const n = selected ?? pictureTarget;
  const g = n === null ? null : root.querySelector(`g.node[data-node="${n}"]`);
  if (!g || box.clientWidth === 0) return;
  const b = box.getBoundingClientRect(), r = g.getBoundingClientRect();
  box.scrollLeft += r.left + r.width / 2 - (b.left + b.width / 2);
  box.scrollTop += r.top + r.height / 2 - (b.top + b.height / 2);
}

function currentScale() {
  return Number(readingEl('picture').dataset.scale) || 1;
}
window.addEventListener('resize', () => { if (zoom === 0) applyZoom(); });
// Zooms by FACTOR keeping the point (x, y) of the picture's box, in client
// coordinates (default: its middle), where it is.
const pictureBox = $('.picture-scroll');
function zoomBy(factor, x, y) {
  const box = pictureBox.getBoundingClientRect();
  const ox = (x ?? box.left + box.width / 2) - box.left, oy = (y ?? box.top + box.height / 2) - box.top;
  const before = currentScale();
  zoom = Math.min(4, Math.max(0.1, before * factor));
  applyZoom();
  const ratio = currentScale() / before;
  pictureBox.scrollLeft = (pictureBox.scrollLeft + ox) * ratio - ox;
  pictureBox.scrollTop = (pictureBox.scrollTop + oy) * ratio - oy;
}
function zoomFit() { zoom = 0; applyZoom(); }
$('#zoom-in').onclick = () => zoomBy(1.25);
$('#zoom-out').onclick = () => zoomBy(1 / 1.25);
$('#zoom-fit').onclick = zoomFit;
$('#zoom-in').setAttribute('aria-keyshortcuts', '+');
$('#zoom-out').setAttribute('aria-keyshortcuts', '-');
$('#zoom-fit').setAttribute('aria-keyshortcuts', '0');

// Ctrl+wheel zooms around the pointer; a drag pans; a double click fits;
// + − 0 on the focused picture zoom in, out and fit.
pictureBox.addEventListener('wheel', (e) => {
  if (!e.ctrlKey && !e.metaKey) return;
  e.preventDefault();
  zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
}, { passive: false });
let pan = null;            // {x, y, left, top, moved} while the pointer is down
let panned = false;        // the last pointer press was a drag, not a click
pictureBox.addEventListener('pointerdown', (e) => {
  if (e.button !== 0 || e.pointerType === 'touch') return;   // touch scrolls natively
  pan = { x: e.clientX, y: e.clientY, left: pictureBox.scrollLeft, top: pictureBox.scrollTop, moved: false };
  panned = false;
});
pictureBox.addEventListener('pointermove', (e) => {
  if (!pan) return;
  const dx = e.clientX - pan.x, dy = e.clientY - pan.y;
  if (!pan.moved && Math.hypot(dx, dy) < 4) return;
  if (!pan.moved) { pan.moved = true; pictureBox.setPointerCapture(e.pointerId); pictureBox.classList.add('panning'); }
  pictureBox.scrollLeft = pan.left - dx;
  pictureBox.scrollTop = pan.top - dy;
});
const endPan = () => {
  if (pan?.moved) panned = true;
  pan = null;
  pictureBox.classList.remove('panning');
};
pictureBox.addEventListener('pointerup', endPan);
pictureBox.addEventListener('pointercancel', endPan);
pictureBox.addEventListener('dblclick', (e) => { e.preventDefault(); zoomFit(); });

// The picture's nodes by keyboard (picture-view.js): arrows, Home and End
// move between them, Enter or Space selects; a hovered or focused node
// shows its card.
const card = new NodeCard(pictureBox);
const pictureNode = (t) => (t instanceof Element ? t.closest('[data-reading="picture"] g.node[data-node]') : null);
const NODE_KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'];
pictureBox.addEventListener('keydown', (e) => {
  const g = pictureNode(e.target);
  if (!g || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'Enter' || e.key === ' ') {
    select(Number(g.dataset.node), paneEl('picture'));
  } else if (NODE_KEYS.includes(e.key)) {
    const next = nextNode(readingEl('picture'), g, e.key);
    if (next) focusNode(readingEl('picture'), next);
  } else {
    return;
  }
  e.preventDefault();
});
const showCard = (g) => { const n = Number(g.dataset.node); card.show(g, n, pictureFacts[n]); };
pictureBox.addEventListener('pointerover', (e) => { const g = pictureNode(e.target); if (g && !pan?.moved) showCard(g); });
pictureBox.addEventListener('pointerout', (e) => {
  const g = pictureNode(e.target);
  if (g && !g.contains(e.relatedTarget) && document.activeElement !== g) card.hide();
});
pictureBox.addEventListener('focusin', (e) => { const g = pictureNode(e.target); if (g) showCard(g); });
pictureBox.addEventListener('focusout', (e) => { if (pictureNode(e.target)) card.hide(); });
pictureBox.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === '+' || e.key === '=') zoomBy(1.25);
  else if (e.key === '-' || e.key === '_') zoomBy(1 / 1.25);
  else if (e.key === '0') zoomFit();
  else return;
  e.preventDefault();
});

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
// Files are named after the draft (its name, else its first comment).
function stem() {
  return fileStem(drafts.get(drafts.current) || { name: '', program: state.program });
}

// Why a download (or copy) of the readings cannot be had now, or ''.
function readingsUnavailable() {
  if (work.fatal) return 'the engine is not running';
  if (shown.text === null) return 'no reading yet';
  if (!shown.ok) return 'no current reading: the program does not read';
  return '';
}
function pictureUnavailable() {
  const why = readingsUnavailable();
  if (why) return why;
  if (!wantedDot.trim()) return 'no picture for this program';
  if (renderedDot !== wantedDot) return 'the picture is being laid out';
  if (!lastSvg) return 'the picture could not be drawn';
  return '';
}

function setAvailable(button, why) {
  button.disabled = why !== '';
  button.title = why ? `not now: ${why}` : button.dataset.title || '';
  const note = button.nextElementSibling;
  if (note?.classList.contains('why')) note.textContent = why ? `(${why})` : '';
}

function updateDownloads() {
  const why = readingsUnavailable();
  setAvailable($('#download-mlir'), why || (shown.text.stablehlo ? '' : 'no StableHLO for this program'));
  setAvailable($('#download-svg'), pictureUnavailable());
  setAvailable($('#download-json'), why);
  for (const b of document.querySelectorAll('button[data-copy]'))
    setAvailable(b, b.dataset.copy === 'picture' ? pictureUnavailable() : why);
}

$('#download-json').onclick = async () => {
  if (readingsUnavailable()) return;
  const name = `${stem()}.json`;
  try {
    download(name, 'application/json', await engineJson());
  } catch (error) {
    say(`${name} could not be made: ${error?.message || error}`);
  }
};

// Each reading's exact text (the picture: its SVG) to the clipboard.
const READING_NAMES = { spec: 'spec', derivative: 'derivative', plan: 'plan', stablehlo: 'StableHLO', values: 'values', picture: 'picture (SVG)' };
for (const b of document.querySelectorAll('button[data-copy]')) {
  const r = b.dataset.copy;
  b.onclick = async () => {
    const text = r === 'picture' ? lastSvg : shown.text?.[r];
    if (b.disabled || typeof text !== 'string') return;
    try {
      await navigator.clipboard.writeText(text);
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      say(`copied the ${READING_NAMES[r]} reading: ${lines} line${lines === 1 ? '' : 's'}.`);
    } catch (error) {
      say(`the ${READING_NAMES[r]} reading could not be copied (${error?.message || 'the clipboard is not available'}); select its text instead.`);
    }
  };
}

$('#download-svg').onclick = () => {
  if (!pictureUnavailable()) download(`${stem()}.svg`, 'image/svg+xml', standaloneSvg(lastSvg));
};
$('#download-mlir').onclick = () => {
  if (!readingsUnavailable() && shown.text.stablehlo) download(`${stem()}.mlir`, 'text/plain', shown.text.stablehlo);
};

/* ------------------------------------------------ cross-reading highlight */

// Lights the selected node everywhere, or only inside root (a chunk of a
// long reading that just got its markup).
function applySelection(root = null) {
  if (!root) {
    for (const el of document.querySelectorAll('.sel, .sel-ref')) el.classList.remove('sel', 'sel-ref');
    showSourceSpan(view, selected === null ? null : sourceOf(selected));
  }
  if (selected !== null) {
    const within = root || document.querySelector('.readings');
    for (const el of within.querySelectorAll(`[data-node="${selected}"]`)) el.classList.add('sel');
    for (const el of within.querySelectorAll(`[data-ref="${selected}"]`)) el.classList.add('sel-ref');
  }
  if (!root) teach.selectionApplied();
}
// Node n's source span [line, first, last], or null.
function sourceOf(n) {
  return 3 * n + 2 < lastSources.length && lastSources[3 * n] >= 0 ? [...lastSources.subarray(3 * n, 3 * n + 3)] : null;
}

// A click selects a node, or clears it when it was selected.
function select(node, origin) {
  showSelected(selected === node ? null : node, origin);
}

// Selects node (null: none) in every reading and brings it into view.
function showSelected(node, origin = null) {
  selected = node;
  applySelection();
  if (selected === null) return;
  // Bring the node into view in every other visible pane.
  for (const name of [...TABS, 'memory']) {
    const pane = paneEl(name);
    if (pane === origin || pane.offsetParent === null) continue;
    const hit = pane.querySelector(`[data-reading] [data-node="${selected}"]`);
    if (hit) hit.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    else if (name !== 'picture') longReadings.reveal(readingEl(name), selected);
  }
}

// "show all" on a folded long line (readings.js): the hidden middle is
// shown, the line wraps; its text was there all along.
function unfold(fold) {
  const rest = fold.previousElementSibling;
  if (!rest?.classList.contains('fold-rest')) return;
  const line = fold.parentElement;
  foldChunks(rest);
  rest.hidden = false;
  line.classList.add('unfolded');
  fold.remove();
  say(`the whole line is shown: ${line.textContent.length.toLocaleString('en')} characters.`);
}

$('.panes').addEventListener('keydown', (e) => {
  const fold = e.target instanceof Element && e.target.classList.contains('fold') ? e.target : null;
  if (fold && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); unfold(fold); return; }
  // A reading's lines (reading-keys.js): arrows move, Enter selects.
  const line = e.target instanceof Element && e.target.matches('[data-reading] .ir-line[data-node]') ? e.target : null;
  if (!line || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    select(Number(line.dataset.node), line.closest('.pane'));
  } else if (['ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) {
    e.preventDefault();
    stepLine(line.closest('[data-reading]'), line, e.key, (el, at, dir) => longReadings.more(el, at, dir));
  }
});

$('.panes').addEventListener('click', (e) => {
  if (panned) { panned = false; return; }   // the end of a drag of the picture
  const target = e.target instanceof Element ? e.target : null;
  const fold = target?.closest('[data-reading] .fold');
  if (fold) { unfold(fold); return; }
  const hit = target?.closest('[data-ref], [data-node]');
  if (!hit || !hit.closest('[data-reading]')) return;
  if (window.getSelection()?.toString()) return;   // the reader is selecting text
  const node = Number(hit.dataset.ref ?? hit.dataset.node);
  select(node, hit.closest('.pane'));
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && selected !== null) { selected = null; applySelection(); }
});

// The teaching panes (teach.js) select through here and train the
// program the page reads now.
function requestKey(r) {
  return JSON.stringify([r.program, r.target, r.observe, r.exact]);
}
const teach = createTeach({
  select: (node) => { if (node !== selected) showSelected(node); },
  get selected() { return selected; },
  request: currentRead,
  requestKey,
  target: () => used.target,
  // The teaching panes are not among the six tiles (style.css hides them there).
  shown: (name) => (TEACH_TABS.includes(name) ? state.tab === name : paneShown(name)),
  reselect: () => applySelection(),
});

/* ------------------------------------------------- choices, tabs, hash */

// A program past this many characters stays out of the address bar while
// it is edited (the drafts keep it; a reload opens its draft): encoding it
// into the URL on every read costs tens of milliseconds.  "copy link"
// always puts it in.
const HASH_PROGRAM_CHARS = 20000;
function writeHash(full = false) {
  const hash = formatHash(!full && state.program.length > HASH_PROGRAM_CHARS ? { ...state, program: undefined } : state);
  if (location.hash !== hash) window.history.replaceState(null, '', hash);
}

function showView(tab) {
  state.tab = VIEWS.includes(tab) ? tab : 'spec';
  document.body.dataset.view = state.tab;
  for (const b of document.querySelectorAll('.tabs button')) {
    b.setAttribute('aria-selected', String(b.dataset.tab === state.tab));
    b.tabIndex = b.dataset.tab === state.tab ? 0 : -1;   // one tab stop; arrows move between tabs
  }
  for (const name of [...TABS, ...TEACH_TABS]) paneEl(name).classList.toggle('active', name === state.tab);
  showDeferred();
  teach.viewChanged();
  applyZoom();
}

for (const b of document.querySelectorAll('.tabs button')) {
  b.addEventListener('click', () => { showView(b.dataset.tab); writeHash(); });
}
$('.tabs').addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
  const i = VIEWS.indexOf(state.tab) + (e.key === 'ArrowRight' ? 1 : VIEWS.length - 1);
  showView(VIEWS[i % VIEWS.length]);
  writeHash();
  document.querySelector(`.tabs [data-tab="${state.tab}"]`).focus();
});

function choose(fields) {
  Object.assign(state, fields);
  drafts.update(drafts.current, fields);
  scheduleRead();
}
$('#target').addEventListener('change', (e) => choose({ target: e.target.value }));
$('#observe').addEventListener('change', (e) => choose({ observe: e.target.value }));
$('#exact').addEventListener('change', (e) => choose({ exact: e.target.checked }));

function applyChoices() {
  fillChoices();
  $('#exact').checked = state.exact;
}

const sampleSelect = $('#sample');
// The manifest's teaching flag splits the menu as on the desktop.
const sampleGroup = (label, teaching) => {
  const g = document.createElement('optgroup');
  g.label = label;
  g.append(...SAMPLES.filter((s) => s.teaching === teaching).map((s) => new Option(s.title, s.id)));
  return g;
};
sampleSelect.replaceChildren(new Option('choose…', ''), sampleGroup('From the original playground', false),
  sampleGroup('Teaching samples', true));
sampleSelect.addEventListener('change', () => {
  const s = SAMPLES.find((x) => x.id === sampleSelect.value);
  if (!s) return;
  loadSample(s);
  sampleSelect.value = '';
  view.focus();
});

// A sample opens as a new draft: the program it replaces stays a draft of
// its own (an empty one, or an untouched sample, is simply put away).
// Ctrl+Z in the editor, before any edit, undoes the load.
let sampleLoad = null;   // {draft: the sample's id, previous: id, removed: draft or null}
function loadSample(s) {
  const previous = drafts.get(drafts.current);
  let removed = null;
  if (previous && (previous.program.trim() === '' || SAMPLES.some((x) => x.program === previous.program))) {
    removed = { ...previous };
    drafts.remove(previous.id);
  }
  const d = drafts.create({ program: s.program, target: s.target, observe: s.observe, origin: 'sample' });
  showDraft(d);
  sampleLoad = { draft: d.id, previous: previous?.id ?? null, removed };
  say(removed || !previous
    ? `loaded the sample “${s.title}”. `
    : `loaded the sample “${s.title}”; your program is kept as the draft “${draftTitle(previous)}”. `,
  undoButton('undo the load (Ctrl+Z)', () => {
    if (!undoSampleLoad()) say('the sample has been edited since, so it stays; every program you had is in the drafts list.');
  }));
}

function undoSampleLoad() {
  if (!sampleLoad || sampleLoad.draft !== drafts.current || undoDepth(view.state) > 0) return false;
  const { draft, previous, removed } = sampleLoad;
  sampleLoad = null;
  drafts.remove(draft);
  if (removed) drafts.restore(removed);
  const back = drafts.get(previous) || drafts.sorted()[0] || drafts.create();
  showDraft(back);
  say(`back to “${draftTitle(back)}”.`);
  view.focus();
  return true;
}

$('#share').addEventListener('click', async () => {
  writeHash(true);
  const b = $('#share');
  try {
    await navigator.clipboard.writeText(location.href);
    b.textContent = 'link copied';
  } catch {
    b.textContent = 'the link is in the address bar';
  }
  setTimeout(() => { b.textContent = 'copy link'; }, 1800);
});

// Text size, for projectors; remembered.
let fontSize = 14;
function setFontSize(px) {
  fontSize = Math.min(26, Math.max(11, px));
  document.documentElement.style.setProperty('--fs', `${fontSize}px`);
  try { localStorage.setItem('topos-playground:font-size', String(fontSize)); } catch { /* ignore */ }
  view.requestMeasure();
}
{
  let stored = null;
  try { stored = Number(localStorage.getItem('topos-playground:font-size')); } catch { /* ignore */ }
  if (stored && stored !== fontSize) setFontSize(stored);
}
$('#smaller').onclick = () => setFontSize(fontSize - 1);
$('#larger').onclick = () => setFontSize(fontSize + 1);

/* -------------------------------------------------------------- drafts */

// A short message about what just happened to the reader's programs.
function say(text, ...extra) {
  $('#notice').replaceChildren(text, ...extra);
}

function undoButton(label, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.onclick = () => { action(); };
  return b;
}

function showStorageProblem(problem) {
  const el = $('#storage-warning');
  el.hidden = !problem;
  el.textContent = problem === 'full'
    ? 'The browser’s storage for this page is full: your latest changes are not kept as a draft. Save the program as a file (Ctrl+S), or delete drafts you no longer need.'
    : problem
      ? 'This browser does not let the page keep drafts (a private window, or storage turned off): your programs last only until this page is closed. Save the program as a file (Ctrl+S) to keep it.'
      : '';
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
let renaming = null;   // the id of the draft whose name is being edited
let deleting = null;   // the id of the draft asked to be deleted

function renderDrafts() {
  const current = drafts.get(drafts.current);
  $('#draft-name').textContent = current ? draftTitle(current) : '';
  $('#drafts-toggle').textContent = `drafts (${drafts.list.length})`;
  const panel = $('#drafts');
  if (panel.hidden) return;
  const list = $('#drafts-list');
  list.replaceChildren(...drafts.sorted().map((d) => {
    const li = document.createElement('li');
    li.dataset.draft = d.id;
    if (d.id === drafts.current) li.classList.add('current');
    const title = draftTitle(d);
    if (renaming === d.id) {
      const input = document.createElement('input');
      input.type = 'text';
      input.value = d.name;
      input.placeholder = firstLine(d.program) || 'a name';
      input.setAttribute('aria-label', `the name of the draft “${title}”`);
      input.className = 'draft-rename';
      let done = false;
      const finish = (keep) => {
        if (done) return;
        done = true;
        renaming = null;
        if (keep) drafts.update(d.id, { name: input.value.trim().slice(0, 80) });
        renderDrafts();
        list.querySelector(`[data-draft="${d.id}"] .draft-open`)?.focus();
      };
      input.onkeydown = (e) => {
        if (e.key === 'Enter') { e.preventDefault(); finish(true); }
        if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); finish(false); }
      };
      input.onblur = () => finish(true);
      li.append(input);
      queueMicrotask(() => { input.focus(); input.select(); });
    } else {
      const open = document.createElement('button');
      open.type = 'button';
      open.className = 'draft-open';
      if (d.id === drafts.current) open.setAttribute('aria-current', 'true');
      const name = document.createElement('span');
      name.className = 'draft-title';
      name.textContent = title;
      const meta = document.createElement('span');
      meta.className = 'draft-meta';
      const line = d.name ? firstLine(d.program) : '';
      meta.textContent = [line, timeFormat.format(d.updated), d.origin === 'link' ? 'from a link' : d.origin === 'file' ? 'from a file' : '']
        .filter(Boolean).join(' · ');
      open.append(name, meta);
      open.onclick = () => { if (d.id !== drafts.current) { showDraft(d); writeHash(); } view.focus(); };
      li.append(open);
    }
    if (deleting === d.id) {
      const ask = document.createElement('span');
      ask.className = 'draft-ask';
      ask.textContent = 'delete it?';
      const yes = undoButton('delete', () => deleteDraft(d.id));
      yes.setAttribute('aria-label', `yes, delete the draft “${title}”`);
      const no = undoButton('keep', () => { deleting = null; renderDrafts(); });
      no.setAttribute('aria-label', `keep the draft “${title}”`);
      li.append(ask, yes, no);
      queueMicrotask(() => no.focus());
    } else if (renaming !== d.id) {
      const rename = undoButton('rename', () => { renaming = d.id; deleting = null; renderDrafts(); });
      rename.setAttribute('aria-label', `rename the draft “${title}”`);
      const del = undoButton('delete', () => { deleting = d.id; renaming = null; renderDrafts(); });
      del.setAttribute('aria-label', `delete the draft “${title}”`);
      li.append(rename, del);
    }
    return li;
  }));
}

function deleteDraft(id) {
  const d = drafts.get(id);
  deleting = null;
  if (!d) return;
  const wasCurrent = id === drafts.current;
  drafts.remove(id);
  if (sampleLoad && (sampleLoad.draft === id || sampleLoad.previous === id)) sampleLoad = null;
  if (wasCurrent) {
    const next = drafts.sorted()[0] || drafts.create();
    showDraft(next);
    writeHash();
  }
  say(`deleted the draft “${draftTitle(d)}”. `, undoButton('undo the delete', () => {
    drafts.restore(d);
    if (wasCurrent) { showDraft(drafts.get(d.id)); writeHash(); }
    say(`“${draftTitle(d)}” is back.`);
    renderDrafts();
  }));
  renderDrafts();
}

function toggleDrafts(open = $('#drafts').hidden) {
  $('#drafts').hidden = !open;
  $('#drafts-toggle').setAttribute('aria-expanded', String(open));
  renaming = deleting = null;
  renderDrafts();
}
$('#drafts-toggle').onclick = () => toggleDrafts();
$('#drafts-close').onclick = () => { toggleDrafts(false); $('#drafts-toggle').focus(); };
$('#draft-new').onclick = () => {
  showDraft(drafts.create());
  writeHash();
  say('a new, empty draft; the others are in the list.');
  view.focus();
};

/* ---------------------------------------------------- files: open, save */

const MAX_FILE_BYTES = 4 << 20;

// A .tape file opens as a new draft named after the file.
async function openFile(file) {
  if (!file) return;
  if (file.size > MAX_FILE_BYTES) {
    say(`${file.name} is not opened: it has ${(file.size / 1048576).toFixed(1)} MB, and the page opens programs up to 4 MB.`);
    return;
  }
  let text;
  try {
    text = await file.text();
  } catch (error) {
    say(`${file.name} could not be read: ${error?.message || error}`);
    return;
  }
  if (text.includes('\u0000')) {
    say(`${file.name} is not opened: it is not a text file.`);
    return;
  }
  text = text.replace(/\r\n?/g, '\n');
  const name = file.name.replace(/\.(tape|txt)$/i, '');
  const d = drafts.create({ program: text, name, origin: 'file' });
  showDraft(d);
  writeHash();
  say(`opened ${file.name} as a new draft.`);
  view.focus();
}

const fileInput = $('#open-file');
$('#open').onclick = () => fileInput.click();
fileInput.addEventListener('change', () => {
  const file = fileInput.files[0];
  fileInput.value = '';
  openFile(file);
});

// A file dropped anywhere on the page opens (the editor would otherwise
// insert its text into the current draft).
const hasFiles = (e) => [...(e.dataTransfer?.types || [])].includes('Files');
window.addEventListener('dragover', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
  document.body.classList.add('dropping');
}, true);
window.addEventListener('dragleave', (e) => {
  if (e.relatedTarget === null) document.body.classList.remove('dropping');
}, true);
window.addEventListener('drop', (e) => {
  document.body.classList.remove('dropping');
  if (!hasFiles(e)) return;
  e.preventDefault();
  e.stopPropagation();
  openFile(e.dataTransfer.files[0]);
}, true);

function saveTape() {
  const d = drafts.get(drafts.current);
  download(`${fileStem(d || { name: '', program: state.program })}.tape`, 'text/plain', state.program);
}
$('#save').onclick = saveTape;

/* ---------------------------------------------------------------- keys */

// Another tab of the page changed the drafts.  When it changed the draft
// this tab shows: a tab that had not changed it follows; a tab that had
// changed it too keeps its own text as a new draft (nothing is lost).
window.addEventListener('storage', (e) => {
  if (e.key !== null && !e.key.startsWith('topos-playground:draft')) return;
  const mine = drafts.get(drafts.current);
  if (mine && e.key === `topos-playground:draft:${mine.id}`) {
    if (e.newValue === null) {
      drafts.writeDraft(mine);   // deleted there while open here: kept
    } else if (e.newValue !== state.program) {
      if (e.oldValue === state.program) {
        // Already stored by the other tab: not written back (a write of a
        // text that other tab has since moved past would undo its keys).
        mine.program = e.newValue;
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: e.newValue } });
      } else {
        const copy = drafts.create({ program: state.program, name: `${mine.name || firstLine(state.program) || 'a draft'} (this tab)`,
          target: state.target, observe: state.observe, exact: state.exact, origin: mine.origin });
        mine.program = e.newValue;
        drafts.select(copy.id);
        say(`“${draftTitle(mine)}” was changed in another tab while you changed it here: your text is kept as a new draft, “${draftTitle(copy)}”.`);
      }
    }
  }
  drafts.sync();
  renderDrafts();
});

// A program pasted just before the page is left or hidden is stored now.
window.addEventListener('pagehide', () => drafts.flush());
document.addEventListener('visibilitychange', () => { if (document.hidden) drafts.flush(); });

const inField = (el) => el instanceof Element && (el.closest('.cm-editor') || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
window.addEventListener('keydown', (e) => {
  if (e.defaultPrevented) return;
  const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
  const key = e.key.toLowerCase();
  if (mod && !e.shiftKey && key === 's') { e.preventDefault(); saveTape(); }
  else if (mod && !e.shiftKey && key === 'o') { e.preventDefault(); fileInput.click(); }
  else if (mod && e.key === 'Enter') { e.preventDefault(); readNow(); }
  else if (mod && !e.shiftKey && key === 'z' && !inField(e.target)) { if (undoSampleLoad()) e.preventDefault(); }
  else if (e.key === '?' && !mod && !e.altKey && !inField(e.target) && !$('#keys').open) { e.preventDefault(); openKeys(); }
});

// `?` (or the keys button) lists every shortcut.
let keysOpener = null;
function openKeys() {
  keysOpener = document.activeElement;
  $('#keys').showModal();
  $('#keys-close').focus();
}
$('#keys-open').onclick = openKeys;
$('#keys-close').onclick = () => $('#keys').close();
$('#keys').addEventListener('close', () => { if (keysOpener instanceof HTMLElement) keysOpener.focus(); });

// A pasted link (or the back button) brings its own state.
window.addEventListener('hashchange', () => openState(parseHash(location.hash)));

// A link's program opens as a new draft, next to the others; a program some
// draft already holds opens that draft (so a reload opens the same one).
function openState(h) {
  if (h.program !== undefined && (h.program !== state.program || !drafts.get(drafts.current))) {
    const current = drafts.get(drafts.current);
    const same = current && current.program === h.program ? current : drafts.find(h.program);
    const d = same || drafts.create({ program: h.program, origin: 'link' });
    if (!same && state.program !== '') say(`opened the link as a new draft; your program is kept as “${draftTitle(current || { name: '', program: state.program })}”.`);
    else if (!same && drafts.list.length > 1) say(`opened the link as a new draft; your ${drafts.list.length - 1} other draft${drafts.list.length > 2 ? 's are' : ' is'} in the drafts list.`);
    showDraft(d);
  }
  state.target = h.target;
  state.observe = h.observe;
  state.exact = h.exact;
  drafts.update(drafts.current, { target: state.target, observe: state.observe, exact: state.exact });
  showView(h.tab);
  applyChoices();
  scheduleRead();
}

/* --------------------------------------------------------------- start */

startEngine();
startGraphWorker();   // graphviz compiles its wasm while the engine reads
drafts.onProblem = showStorageProblem;
showStorageProblem(drafts.problem);
{
  const h = parseHash(location.hash);
  const hadHash = location.hash !== '';   // showDraft writes one
  if (h.program === undefined) {
    const d = drafts.get(drafts.current) || drafts.sorted()[0];
    if (d) {
      showDraft(d);
      h.program = d.program;
      if (!hadHash) { h.target = d.target; h.observe = d.observe; h.exact = d.exact; }
    } else {
      const readme = SAMPLES[0];
      showDraft(drafts.create({ program: readme.program, target: readme.target, observe: readme.observe, origin: 'sample' }));
      h.program = readme.program;
      if (!hadHash) { h.target = readme.target; h.observe = readme.observe; }
    }
  }
  openState(h);
}
