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
//   current program and choices, "busy" while work is in flight.
import { EditorState } from '@codemirror/state';
import {
  EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, keymap, lineNumbers,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';

import { tapeSupport } from './tape-language.js';
import { showSourceSpan, sourceSpan } from './source-span.js';
import { TABS, VIEWS, formatHash, loadProgram, parseHash, saveProgram } from './state.js';

const SAMPLES = __TP_SAMPLES__;
const VERSION = __TP_VERSION__;
const READ_DELAY_MS = 120;         // an edit is read at most this long after
const ENGINE_PATIENCE_MS = 2000;   // a newer request replaces a compile this old
const GRAPH_PATIENCE_MS = 20000;   // a layout is given up after this long

const $ = (sel) => document.querySelector(sel);
const readingEl = (name) => document.querySelector(`[data-reading="${name}"]`);
const paneEl = (name) => document.querySelector(`[data-pane="${name}"]`);

// What the reader chose; mirrored in the URL hash.
const state = { program: '', target: '', observe: '', exact: false, tab: 'spec' };
let selected = null;               // the node highlighted across readings
let lastNames = [];                // names of the last program that read
let lastSources = [];              // per node its source span, from the engine
let lastSvg = '';                  // the current picture's SVG text
let lastText = null;               // the engine's text readings, last shown

// Timings for the benchmark and the curious: window.toposPlayground.
// firstTextMs: the text readings first shown; firstReadingsMs: all six
// (picture included) first shown, both in ms since navigation.
const stats = {
  version: VERSION, firstTextMs: null, firstReadingsMs: null,
  engineMs: [], markupMs: [], graphMs: [], graphVersion: null,
  engineRestarts: 0, graphRestarts: 0,   // workers terminated to drop stale work
};
globalThis.toposPlayground = stats;

/* ---------------------------------------------------------------- busy */

const work = { timer: false, engine: false, graph: false, fatal: false };
function updateBusy() {
  const busy = work.timer || work.engine || work.graph;
  document.body.dataset.state = busy && !work.fatal ? 'busy' : 'ready';
  if (!busy && stats.firstReadingsMs === null) stats.firstReadingsMs = performance.now();
}

/* -------------------------------------------------------------- editor */

const view = new EditorView({
  parent: $('#editor'),
  state: EditorState.create({
    doc: '',
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
      keymap.of([...defaultKeymap, ...historyKeymap]),
      tapeSupport(),
      sourceSpan(),
      EditorView.contentAttributes.of({ 'aria-label': 'the program', spellcheck: 'false', autocapitalize: 'off', autocorrect: 'off' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && !applyingDoc) {
          state.program = update.state.doc.toString();
          saveProgram(state.program);
          scheduleRead();
        }
      }),
    ],
  }),
});

let applyingDoc = false;
function setProgram(text) {
  applyingDoc = true;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  applyingDoc = false;
  state.program = text;
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
  const doc = view.state.doc;
  const marks = diags.map((d) => {
    const from = offsetOf(d.line, d.column);
    const line = doc.lineAt(from);
    const word = /^[A-Za-z_0-9.]+|^\S/.exec(line.text.slice(from - line.from));
    return { from, to: from + (word ? word[0].length : 0), severity: 'error', message: d.message };
  });
  view.dispatch(setDiagnostics(view.state, marks));
}

readingEl('diagnostics').addEventListener('click', () => {
  const first = /^(\d+):(\d+):/.exec(readingEl('diagnostics').textContent);
  if (!first) return;
  const pos = offsetOf(Number(first[1]), Number(first[2]));
  view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  view.focus();
});

/* -------------------------------------------------------------- engine */

let engineWorker = null;
let seq = 0;            // the newest request's id
let inFlight = null;    // {id, started}
let pending = null;     // the newest request not yet sent
let patience = null;

function startEngine() {
  engineWorker = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
  engineWorker.onmessage = (e) => onEngineResult(e.data);
  engineWorker.onerror = (e) => {
    e.preventDefault();
    fatal(`the engine could not start: ${e.message || 'unknown error'}`);
  };
}

function fatal(message) {
  work.fatal = true;
  readingEl('diagnostics').textContent = message;
  updateBusy();
}

let readTimer = null;
function scheduleRead() {
  work.timer = true;
  updateBusy();
  writeHash();
  // A throttle, not a debounce: steady typing still re-reads every 120 ms.
  if (readTimer === null) readTimer = setTimeout(() => { readTimer = null; work.timer = false; read(); }, READ_DELAY_MS);
}

function read() {
  const request = {
    id: ++seq,
    program: state.program,
    target: state.target,
    observe: state.observe ? [state.observe] : [],
    exact: state.exact,
  };
  work.engine = true;
  updateBusy();
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
  stats.engineRestarts++;
  startEngine();
  inFlight = null;
  const next = pending;
  pending = null;
  send(next);
}

function onEngineResult(msg) {
  if (inFlight === null || msg.id !== inFlight.id) return;   // from a terminated run
  inFlight = null;
  if (patience !== null) { clearTimeout(patience); patience = null; }
  if (msg.fatal) {
    // The wasm instance may be broken: the next read gets a fresh one.
    engineWorker.terminate();
    startEngine();
  }
  if (pending !== null) {
    const next = pending;
    pending = null;
    send(next);
  }
  if (msg.id !== seq) return;          // stale: a newer request is on its way
  work.engine = false;
  if (msg.fatal) {
    readingEl('diagnostics').textContent = `the engine failed on this program: ${msg.fatal}`;
    updateBusy();
    return;
  }
  stats.engineMs.push(msg.ms.engine);
  stats.markupMs.push(msg.ms.markup);
  showResult(msg);
  if (stats.firstTextMs === null) {
    stats.firstTextMs = performance.now();
    document.body.classList.add('loaded');
  }
  updateBusy();
}

/* ------------------------------------------------------------ readings */

const TEXT_READINGS = ['spec', 'derivative', 'plan', 'stablehlo', 'values'];

function showResult(msg) {
  const refused = msg.status !== 0;
  for (const r of TEXT_READINGS) {
    const el = readingEl(r);
    const pane = paneEl(r);
    if (refused && lastText !== null) {
      // Keep the last reading that worked beside the (empty) current one.
      const stale = pane.querySelector('.stale');
      if (!pane.classList.contains('refused')) stale.innerHTML = el.innerHTML;
    }
    el.innerHTML = msg.html[r];
    pane.classList.toggle('refused', refused && lastText !== null);
  }
  readingEl('summary').textContent = msg.text.summary;
  showDiagnostics(msg.diagnostics);
  if (!refused) {
    lastText = msg.text;
    lastNames = msg.names;
    lastSources = msg.sources;
    fillChoices();
  }
  showPicture(msg.text.dot, refused);
  applySelection();
}

// Target lists the scalar names, observe every name; a chosen name the
// program no longer has stays listed, so typing does not lose the choice.
function fillChoices() {
  const unique = (list) => [...new Set(list)];
  const scalars = unique(lastNames.filter((n) => n.scalar).map((n) => n.name));
  const all = unique(lastNames.map((n) => n.name));
  fillSelect($('#target'), 'the last scalar', scalars, state.target);
  fillSelect($('#observe'), 'nothing extra', all, state.observe);
}

function fillSelect(select, placeholder, names, chosen) {
  const options = [['', placeholder], ...names.map((n) => [n, n])];
  if (chosen && !names.includes(chosen)) options.push([chosen, lastText === null ? chosen : `${chosen} (not in the program)`]);
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
  graphWorker.onerror = (e) => {
    e.preventDefault();
    if (graphJob) onGraphResult({ id: graphJob.id, error: e.message || 'the graphviz worker failed' });
  };
}

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
}

function startLayout(dot) {
  if (!graphWorker) startGraphWorker();
  const id = ++graphSeq;
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

let zoom = 0;   // 0: fit the pane's width; otherwise a scale factor
function setPicture(svg, dot) {
  const el = readingEl('picture');
  renderedDot = dot;
  lastSvg = svg;
  el.innerHTML = svg.replace(/^[\s\S]*?(?=<svg)/, '');
  const root = el.querySelector('svg');
  if (root) {
    root.removeAttribute('width');
    root.removeAttribute('height');
    root.setAttribute('role', 'img');
    root.setAttribute('aria-label', 'the recorded graph');
    for (const g of root.querySelectorAll('g.node')) {
      const m = /^n(\d+)$/.exec(g.querySelector('title')?.textContent || '');
      if (m) g.dataset.node = m[1];
    }
  }
  applyZoom();
  applySelection();
}

// zoom 0 fits the picture in its pane (the whole of it when that stays
// readable, else its width); otherwise it is a scale factor.
function applyZoom() {
  const el = readingEl('picture');
  const root = el.querySelector('svg');
  if (!root) return;
  const vb = root.viewBox.baseVal;
  const width = (vb && vb.width ? vb.width : 400) * 96 / 72;
  const height = (vb && vb.height ? vb.height : 300) * 96 / 72;
  let scale = zoom;
  if (zoom === 0) {
    const box = el.closest('.scroll');
    const w = box.clientWidth - 24, h = box.clientHeight - 24;
    if (w <= 0) return;   // the pane is hidden; showView fits it later
    scale = Math.min(w / width, h / height, 1.5);
    if (scale < 0.6) scale = Math.min(w / width, 1.5);
  }
  root.style.width = `${Math.round(width * scale)}px`;
  el.dataset.scale = scale.toFixed(3);
}

function currentScale() {
  return Number(readingEl('picture').dataset.scale) || 1;
}
window.addEventListener('resize', () => { if (zoom === 0) applyZoom(); });
$('#zoom-in').onclick = () => { zoom = Math.min(4, currentScale() * 1.25); applyZoom(); };
$('#zoom-out').onclick = () => { zoom = Math.max(0.1, currentScale() / 1.25); applyZoom(); };
$('#zoom-fit').onclick = () => { zoom = 0; applyZoom(); };

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
$('#download-svg').onclick = () => {
  if (lastSvg) download('topos-picture.svg', 'image/svg+xml', lastSvg);
};
$('#download-mlir').onclick = () => {
  if (lastText?.stablehlo) download('topos.mlir', 'text/plain', lastText.stablehlo);
};

/* ------------------------------------------------ cross-reading highlight */

function applySelection() {
  for (const el of document.querySelectorAll('.sel, .sel-ref')) el.classList.remove('sel', 'sel-ref');
  showSourceSpan(view, selected === null ? null : lastSources[selected]);
  if (selected === null) return;
  for (const el of document.querySelectorAll(`.readings [data-node="${selected}"]`)) el.classList.add('sel');
  for (const el of document.querySelectorAll(`.readings [data-ref="${selected}"]`)) el.classList.add('sel-ref');
}

function select(node, origin) {
  selected = selected === node ? null : node;
  applySelection();
  if (selected === null) return;
  // Bring the node into view in every other visible pane.
  for (const name of TABS) {
    const pane = paneEl(name);
    if (pane === origin || pane.offsetParent === null) continue;
    const hit = pane.querySelector(`[data-reading] [data-node="${selected}"]`);
    if (hit) hit.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}

$('.panes').addEventListener('click', (e) => {
  const target = e.target instanceof Element ? e.target : null;
  const hit = target?.closest('[data-ref], [data-node]');
  if (!hit || !hit.closest('[data-reading]')) return;
  if (window.getSelection()?.toString()) return;   // the reader is selecting text
  const node = Number(hit.dataset.ref ?? hit.dataset.node);
  select(node, hit.closest('.pane'));
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && selected !== null) { selected = null; applySelection(); }
});

/* ------------------------------------------------- choices, tabs, hash */

function writeHash() {
  const hash = formatHash(state);
  if (location.hash !== hash) window.history.replaceState(null, '', hash);
}

function showView(tab) {
  state.tab = VIEWS.includes(tab) ? tab : 'spec';
  document.body.dataset.view = state.tab;
  for (const b of document.querySelectorAll('.tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === state.tab));
  for (const name of TABS) paneEl(name).classList.toggle('active', name === state.tab);
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

$('#target').addEventListener('change', (e) => { state.target = e.target.value; scheduleRead(); });
$('#observe').addEventListener('change', (e) => { state.observe = e.target.value; scheduleRead(); });
$('#exact').addEventListener('change', (e) => { state.exact = e.target.checked; scheduleRead(); });

function applyChoices() {
  fillChoices();
  $('#exact').checked = state.exact;
}

const sampleSelect = $('#sample');
sampleSelect.replaceChildren(new Option('choose…', ''), ...SAMPLES.map((s) => new Option(s.title, s.id)));
sampleSelect.addEventListener('change', () => {
  const s = SAMPLES.find((x) => x.id === sampleSelect.value);
  if (!s) return;
  loadSample(s);
  sampleSelect.value = '';
  view.focus();
});

function loadSample(s) {
  setProgram(s.program);
  saveProgram(s.program);
  state.target = s.target;
  state.observe = s.observe;
  applyChoices();
  scheduleRead();
}

$('#share').addEventListener('click', async () => {
  writeHash();
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

// A pasted link (or the back button) brings its own state.
window.addEventListener('hashchange', () => openState(parseHash(location.hash)));

function openState(h) {
  if (h.program !== undefined && h.program !== state.program) {
    setProgram(h.program);
    saveProgram(h.program);
  }
  state.target = h.target;
  state.observe = h.observe;
  state.exact = h.exact;
  showView(h.tab);
  applyChoices();
  scheduleRead();
}

/* --------------------------------------------------------------- start */

startEngine();
startGraphWorker();   // graphviz compiles its wasm while the engine reads
{
  const h = parseHash(location.hash);
  if (h.program === undefined) {
    const stored = loadProgram();
    if (stored !== null) h.program = stored;
    else {
      const readme = SAMPLES[0];
      h.program = readme.program;
      if (!location.hash) { h.target = readme.target; h.observe = readme.observe; }
    }
  }
  openState(h);
}
