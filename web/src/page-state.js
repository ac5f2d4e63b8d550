// The page's state: one object that every module of the page reads and
// changes (main.js wires them).  What the reader chose, what is on screen,
// which work is in flight, and the few long-lived objects (the editor, the
// drafts, the teaching panes).  A module keeps to itself only what no
// other module reads (engine-client.js its requests, picture-pane.js its
// layouts).
import { TEACH_TABS, formatHash } from './state.js';
import { afterFirstReadings } from './offline.js';

// The names of a program as the worker packs them (engine-worker.js
// packNames): list[i] names node nodes[i], a scalar when scalar[i] is 1.
export const unpackNames = ({ text, nodes, scalar }) => ({ list: text === '' ? [] : text.split('\n'), nodes, scalar });

export const page = {
  // What the reader chose; mirrored in the URL hash (writeHash).
  chosen: { program: '', target: '', observe: '', exact: false, tab: 'spec',
    // the passes (passes.js, forward.js): optimise, rematerialise (names,
    // or 'auto'), forward mode's direction ('': seeded), kernels as clusters
    optimize: false, remat: [], direction: '', kernels: false, tangents: false },
  selected: null,           // the node highlighted across readings, or null
  // Of the last program that read (none: the empty program's):
  names: unpackNames({ text: '', nodes: new Int32Array(0), scalar: new Uint8Array(0) }),
  sources: new Int32Array(0),   // per node its source span (flat: line, first, last; -1 none)
  lastText: null,           // its text readings, or null before any read
  used: { target: null, observe: [] },   // what the engine used (its JSON)
  pictureTarget: null,      // its target's node, where the picture opens
  // The readings on screen: did the program read? (text: the engine's)
  shown: { ok: false, text: null },
  shownId: null,            // the engine request whose readings are shown
  shownRequest: null,       // ... and what it asked
  pasted: null,             // the program as a paste left it, until it reads or is edited
  // The engine's defaults (the JSON's defaults member: debounce, folding,
  // play interval, readable zoom, training), from its worker once loaded.
  defaults: null,
  // Work in flight; the page is "busy" while any of it is.
  work: { timer: false, engine: false, graph: false, facts: false, teach: false, plain: false, passes: false, fatal: false },
  // The long-lived objects, made by main.js at the start.
  view: null,               // the editor (editor.js)
  drafts: null,             // the drafts (drafts.js)
  teach: null,              // the teaching panes (teach.js)
  passes: null,             // the passes' panes and choices (passes.js)
  announcer: null,          // the live region's sentences (announce.js)
  // The Lessons panel's hooks (lessons.js; main.js sets them).
  lessonRequest: null,      // () => what a read grades, or null
  showGrade: null,          // (grade, lesson key) the grade of the read shown
  openLessonFile: null,     // (File) a .lesson file, opened or dropped
};

// Timings for the benchmark and the curious: window.toposPlayground.
// firstTextMs: the text readings first shown; firstReadingsMs: all six
// (picture included) first shown, both in ms since navigation.
export const stats = {
  version: __TP_VERSION__, firstTextMs: null, firstReadingsMs: null,
  engineMs: [], markupMs: [], graphMs: [], graphVersion: null,
  showMs: [],                            // main thread: one reading's result put on the page
  shownAt: null,                         // when the last engine result was put on the page
  engineRestarts: 0, graphRestarts: 0,   // workers terminated to drop stale work
  readsNow: 0,                           // Ctrl+Enter
};
globalThis.toposPlayground = stats;

export const $ = (sel) => document.querySelector(sel);
export const readingEl = (name) => document.querySelector(`[data-reading="${name}"]`);
export const paneEl = (name) => document.querySelector(`[data-pane="${name}"]`);

// document.body.dataset.state: "busy" while work is in flight, else "ready".
export function updateBusy() {
  const w = page.work;
  const busy = w.timer || w.engine || w.graph || w.facts || w.teach || w.plain || w.passes;
  const next = busy && !w.fatal ? 'busy' : 'ready';
  if (document.body.dataset.state !== next) document.body.dataset.state = next;   // a change only, for observers
  if (!busy && stats.firstReadingsMs === null) {
    stats.firstReadingsMs = performance.now();
    afterFirstReadings();
  }
}

// Whether reading pane `name` is on screen (its tab, or all six tiled).
export const paneShown = (name) => page.chosen.tab === 'tiled' || page.chosen.tab === name;

// The teaching facts are seen on a teaching tab, in the step-through, and
// in the explanation line when a node is selected.
export const teachSeen = () => TEACH_TABS.includes(page.chosen.tab) || page.selected !== null || page.teach.stepping();

// What a read of the program now asks the engine, and a key that tells
// two such requests apart.
export function currentRead() {
  const c = page.chosen;
  return {
    program: c.program, target: c.target, observe: c.observe ? [c.observe] : [], exact: c.exact,
    optimize: c.optimize, remat: c.remat, direction: c.direction, kernels: c.kernels, tangents: c.tangents,
    // the open lesson, graded after the readings (lessons.js), or null
    lesson: page.lessonRequest ? page.lessonRequest() : null,
  };
}
export function requestKey(r) {
  return JSON.stringify([r.program, r.target, r.observe, r.exact, !!r.optimize, r.remat || [], r.direction || '', !!r.kernels, !!r.tangents, r.lesson ? r.lesson.key : 0]);
}

// A program past this many characters stays out of the address bar while
// it is edited (the drafts keep it; a reload opens its draft): encoding it
// into the URL on every read costs tens of milliseconds.  "copy link"
// always puts it in (full).
const HASH_PROGRAM_CHARS = 20000;
export function writeHash(full = false) {
  const c = page.chosen;
  const hash = formatHash(!full && c.program.length > HASH_PROGRAM_CHARS ? { ...c, program: undefined } : c);
  if (location.hash !== hash) window.history.replaceState(null, '', hash);
}

// Node n's source span [line, first, last], or null.
export function sourceOf(n) {
  const s = page.sources;
  return 3 * n + 2 < s.length && s[3 * n] >= 0 ? [...s.subarray(3 * n, 3 * n + 3)] : null;
}

// A short message about what just happened to the reader's programs.
// untilTyping: it goes at the reader's next edit (drafts-ui.js).
const notice = { untilTyping: false };
export function say(text, ...extra) {
  notice.untilTyping = false;
  $('#notice').replaceChildren(text, ...extra);
}
export function sayUntilTyping(text) {
  say(text);
  notice.untilTyping = true;
}
export function typed() {
  if (notice.untilTyping) say('');
}

export function undoButton(label, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.onclick = () => { action(); };
  return b;
}
