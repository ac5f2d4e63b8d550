// The page's side of the engine's worker (engine-worker.js): the reads
// (a debounce, the read ahead of it, stale answers dropped, a worker
// terminated when a compile it no longer needs runs long) and the other
// questions (the whole JSON, a long reading's chunk, the picture's facts).
import { $, currentRead, page, readingEl, requestKey, stats, updateBusy, writeHash } from './page-state.js';
import { showResult } from './reading-panes.js';
import { applySelection } from './selection.js';
import { updateDownloads } from './downloads.js';

// An edit is read once typing pauses for the engine's debounce (JSON
// defaults.debounce_ms); before the engine is loaded at once (its worker
// holds the read until it is).
const readDelay = () => (page.defaults ? page.defaults.debounce_ms : 0);
const ENGINE_PATIENCE_MS = 2000;   // a newer request replaces a compile this old
// Reading ahead: once typing has paused for AHEAD_MS the worker reads the
// program, and the result waits, unseen, for the debounce to end; if the
// program is still the same then, it is shown at once (a 300-line
// program's read takes most of the debounce).  A key typed
// meanwhile drops it.  Not for a program whose reads take about as long
// as the debounce: a read ahead would only delay the one that counts.
const AHEAD_MS = 40;

const client = {
  worker: null,
  seq: 0,               // the newest request's id
  inFlight: null,       // {id, started}
  pending: null,        // the newest request not yet sent
  patience: null,       // the timer that restarts a worker stuck on a stale compile
  readTimer: null,      // the debounce
  aheadTimer: null,
  ahead: null,          // {key, id, msg, teach, stale} of the read ahead of the debounce
  lastEngineMs: 0,      // the worker's time for the last read shown
  latestRequest: null,  // the request of the read the page waits for
  textParts: new Map(), // the readings' texts of the result on its way, each a message of its own
  asked: new Map(),     // id -> {resolve, reject} of the other questions
  askSeq: 0,
  pendingTeach: null,   // {id, refused} of the result whose teaching facts are on their way
};

export function startEngine() {
  client.textParts = new Map();   // a terminated worker's parts are not the next result's
  const w = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
  client.worker = w;
  w.onmessage = (e) => {
    if (e.data.loadError) fatal(`the engine could not be loaded: ${e.data.loadError}`);
    else if (typeof e.data.id === 'string') onAnswer(e.data);
    else if (e.data.part) client.textParts.set(e.data.part, e.data.text);
    else if (e.data.teachOf !== undefined) onTeach(e.data);
    else if (e.data.loaded) page.defaults = e.data.defaults;
    else onEngineResult(e.data);
  };
  w.onerror = (e) => {
    e.preventDefault();
    fatal(`the engine could not be loaded: ${e.message || 'engine-worker.js is missing or broken'}`);
  };
}

// The engine cannot run at all: say so plainly, and stop waiting for it.
function fatal(message) {
  const work = page.work;
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

// An edit or a choice: the program is read when typing pauses.
export function scheduleRead() {
  page.announcer.typed();
  page.work.timer = true;
  updateBusy();
  // The hash is written when the program is read, not on every key (a
  // replaceState of a long program's URL costs milliseconds).
  // A debounce: the program is read when typing pauses for readDelay ()
  // (the timer restarts on every key), so the panes do not flip between
  // stale and fresh during a burst of keys.
  if (client.readTimer !== null) clearTimeout(client.readTimer);
  const delay = readDelay();
  client.readTimer = setTimeout(() => { client.readTimer = null; page.work.timer = false; read(); }, delay);
  // The engine starts on the program after a shorter pause; what it
  // reads is shown only when the debounce ends (readAhead).
  if (client.ahead !== null) client.ahead.stale = true;   // of another program now
  if (client.aheadTimer !== null) clearTimeout(client.aheadTimer);
  client.aheadTimer = client.lastEngineMs < delay - AHEAD_MS ? setTimeout(readAhead, AHEAD_MS) : null;
}

function newRequest() {
  return { id: ++client.seq, ...currentRead() };
}
function readAhead() {
  client.aheadTimer = null;
  if (page.work.fatal || client.inFlight !== null || client.readTimer === null) return;
  const request = newRequest();
  client.ahead = { key: requestKey(request), id: request.id, msg: null, teach: null, stale: false };
  send(request);
}

// Ctrl+Enter: read now, without waiting for the pause.
export function readNow() {
  stats.readsNow++;
  if (client.readTimer !== null) clearTimeout(client.readTimer);
  client.readTimer = null;
  page.work.timer = false;
  writeHash();
  read();
}

// Questions to the engine worker besides reads, each answered once: the
// whole JSON (what `topos --json` prints) for the request whose readings
// are shown, asked for only when the reader downloads it; a long
// reading's chunk of markup; the facts of the picture's nodes.
export function askEngine(kind, body) {
  return new Promise((resolve, reject) => {
    const id = `${kind}-${++client.askSeq}`;
    client.asked.set(id, { resolve, reject });
    client.worker.postMessage({ ...body, id });
  });
}
export function engineJson() {
  return askEngine('json', { ...page.shownRequest, json: true }).then((m) => m.json);
}
function onAnswer(msg) {
  const r = client.asked.get(msg.id);
  client.asked.delete(msg.id);
  if (!r) return;
  if (msg.fatal) r.reject(new Error(msg.fatal));
  else r.resolve(msg);
}
function dropQuestions() {
  for (const r of client.asked.values()) r.reject(new Error('the engine was restarted; try again'));
  client.asked.clear();
}

function read() {
  if (page.work.fatal) return;
  if (client.aheadTimer !== null) { clearTimeout(client.aheadTimer); client.aheadTimer = null; }
  // The read ahead of this pause, when it read this same program, is the
  // one shown: its result now, or when it comes.
  const ahead = client.ahead;
  const early = ahead !== null && !ahead.stale && ahead.key === requestKey(currentRead()) ? ahead : null;
  client.ahead = null;
  const request = early ? { id: early.id, ...currentRead() } : newRequest();
  client.latestRequest = request;
  page.teach.programChanged(requestKey(request));
  writeHash();
  // Printing shows the whole program (the editor draws only what is on screen).
  $('#print-program').textContent = page.chosen.program;
  page.work.engine = true;
  updateBusy();
  if (early) {
    if (early.msg) {
      showEngineResult(early.msg);
      if (early.teach) onTeach(early.teach);
    }
    return;
  }
  if (client.inFlight === null) send(request);
  else {
    client.pending = request;   // replaces any older pending request: it is stale
    if (client.patience === null) {
      const wait = Math.max(0, ENGINE_PATIENCE_MS - (performance.now() - client.inFlight.started));
      client.patience = setTimeout(restartEngine, wait);
    }
  }
}

function send(request) {
  client.inFlight = { id: request.id, started: performance.now() };
  client.worker.postMessage(request);
}

function sendPending() {
  if (client.pending === null) return;
  const next = client.pending;
  client.pending = null;
  send(next);
}

// A compile is taking long and the reader has moved on: drop it.
function restartEngine() {
  client.patience = null;
  if (client.inFlight === null || client.pending === null) return;
  client.worker.terminate();
  dropQuestions();
  stats.engineRestarts++;
  startEngine();
  client.inFlight = null;
  sendPending();
}

function onEngineResult(msg) {
  if (!msg.fatal) {
    msg.text = Object.fromEntries(client.textParts);
    client.textParts = new Map();
  }
  if (client.inFlight === null || msg.id !== client.inFlight.id) return;   // from a terminated run
  client.inFlight = null;
  if (client.patience !== null) { clearTimeout(client.patience); client.patience = null; }
  if (msg.fatal) {
    // The wasm instance may be broken: the next read gets a fresh one.
    client.worker.terminate();
    dropQuestions();
    startEngine();
  }
  sendPending();
  const ahead = client.ahead;
  if (ahead !== null && msg.id === ahead.id) {   // read ahead: kept until the debounce ends, or dropped
    if (!ahead.stale) ahead.msg = msg;
    return;
  }
  if (msg.id !== client.seq) return;          // stale: a newer request is on its way
  showEngineResult(msg);
}

function showEngineResult(msg) {
  page.work.engine = false;
  page.shownRequest = client.latestRequest;
  page.shownId = msg.id;
  if (msg.fatal) {
    readingEl('diagnostics').textContent = `the engine failed on this program: ${msg.fatal}`;
    updateBusy();
    return;
  }
  stats.engineMs.push(msg.ms.engine);
  stats.markupMs.push(msg.ms.markup);
  client.lastEngineMs = msg.ms.engine + msg.ms.markup;
  const shownAt = performance.now();
  showResult(msg);
  page.showGrade?.(msg.grade ?? null, page.shownRequest?.lesson?.key ?? 0);
  stats.showMs.push(performance.now() - shownAt);
  stats.shownAt = performance.now();
  if (stats.firstTextMs === null) {
    stats.firstTextMs = performance.now();
    document.body.classList.add('loaded');
  }
  updateBusy();
}

// The teaching facts of the result on screen follow it in a message of
// their own (engine-worker.js): the page is busy until they are in only
// when they are seen (teachSeen).
export function expectTeach(id, refused, seen) {
  client.pendingTeach = { id, refused };
  page.work.teach = seen;
}
function onTeach(msg) {
  const ahead = client.ahead;
  if (ahead !== null && msg.teachOf === ahead.id) { ahead.teach = msg; return; }   // of a read ahead, kept with it
  const pending = client.pendingTeach;
  if (pending === null || msg.teachOf !== pending.id) return;   // of a result not shown
  client.pendingTeach = null;
  if (msg.teach) {   // none when picking them out failed: the panes keep the last
    page.teach.show(msg.teach, pending.refused);
    applySelection();
  }
  page.work.teach = false;
  updateBusy();
}
