// The text readings' panes: an engine result put on the page (markup only
// where it is seen, a hidden pane's plain text, a long reading's blocks,
// the last good reading kept beside a refused one), a folded line shown in
// full, and the panes' clicks and keys.
import { $, page, paneEl, paneShown, readingEl, say, teachSeen, unpackNames, updateBusy } from './page-state.js';
import { LongReadings } from './long-reading.js';
import { fillFolds, foldChunks } from './readings.js';
import { rovingStop, stepLine } from './reading-keys.js';
import { askEngine, expectTeach, scheduleRead } from './engine-client.js';
import { applySelection, select, selectAtCursor } from './selection.js';
import { fillChoices, showChoiceNote } from './choices.js';
import { consumePan, showPicture } from './picture-pane.js';
import { showDiagnostics } from './editor.js';
import { updateDownloads } from './downloads.js';

export const TEXT_READINGS = ['spec', 'derivative', 'plan', 'stablehlo', 'values'];

// A hidden pane's plain text, when it is big, goes in in a task of its
// own (a 5,000-line program's hidden readings are 17 MB: swapped in with
// everything else, they held the page's thread over 50 ms), and so does
// every long reading shown after the first (each is hundreds of blocks).
const PLAIN_AT_ONCE = 1 << 20;   // characters
// Long readings putReading shows in one task: the first, and the next
// while their text adds up to LONG_AT_ONCE characters; the rest are
// queued, each to a task of its own (a 5,000-line program's are
// megabytes each; a few short long readings share one task and one
// frame).
const LONG_AT_ONCE = 1 << 19;

const panes = {
  deferred: new Map(),      // reading -> the result whose markup its hidden pane has not had yet
  shownLines: new WeakMap(),   // element -> the markup items it shows
  plainQueue: new Map(),    // element -> what puts its reading in
  plainTimer: null,
  longRoom: -1,             // characters of long readings left in this task; -1: none shown yet
};

// Long readings: chunks of plain text, marked up as they come near the screen.
export const longReadings = new LongReadings(
  (chunk) => askEngine('chunk', { chunk }).then((m) => (m.gone ? null : m.html), () => null),
  (chunk) => { applySelection(chunk); rovingStop(chunk.closest('[data-reading]'), page.selected); });

// Puts a reading's markup (an array, one item a line: readings.js) into
// its element, keeping the lines it shares with what the element shows at
// the start and at the end (as the desktop does): an edit in the middle of
// a 300-line program rebuilds only the lines that changed.
function setMarkup(el, lines) {
  const old = panes.shownLines.get(el);
  panes.shownLines.set(el, lines);
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
  panes.plainQueue.delete(el);
  panes.shownLines.delete(el);
  longReadings.drop(el);
  el.textContent = text;
}

function queueWork(el, put) {
  panes.plainQueue.set(el, put);
  page.work.plain = true;
  if (panes.plainTimer === null) panes.plainTimer = setTimeout(flushPlain, 0);
}
function queuePlain(el, text) {
  if (text.length < PLAIN_AT_ONCE) setPlain(el, text);
  else queueWork(el, () => setPlain(el, text));
}
function flushPlain(all = false) {
  panes.plainTimer = null;
  for (const [el, put] of panes.plainQueue) {
    panes.plainQueue.delete(el);
    put();
    if (!all) break;
  }
  if (panes.plainQueue.size) panes.plainTimer = setTimeout(flushPlain, 0);
  else { page.work.plain = false; updateBusy(); }
}

function takeLong(chars) {
  const ok = panes.longRoom < 0 || chars <= panes.longRoom;
  panes.longRoom = Math.max(0, (panes.longRoom < 0 ? LONG_AT_ONCE : panes.longRoom) - chars);
  return ok;
}

// Puts reading r of an engine result into its element: a short reading's
// markup, or a long one's chunks (long-reading.js).
function putReading(r, msg, now = false) {
  const el = readingEl(r);
  panes.plainQueue.delete(el);
  // the names' column (readings.js): its width, in characters
  const gutter = msg.gutter?.[r] ?? 0;
  el.classList.toggle('named', gutter > 0);
  el.style.setProperty('--names', `${gutter + 1}ch`);
  const long = msg.long?.[r];
  if (long && !now && !takeLong(msg.text[r].length)) {
    queueWork(el, () => {
      if (paneShown(r)) putReading(r, msg, true);
      else { setPlain(el, msg.text[r]); panes.deferred.set(r, msg); }   // the tab changed meanwhile
    });
  } else if (long) {
    panes.shownLines.delete(el);
    longReadings.show(el, { ...long, of: msg.id, reading: r, text: msg.text[r] });
  } else {
    longReadings.drop(el);
    setMarkup(el, msg.html[r]);
    fillFolds(el, msg.text[r]);
  }
  rovingStop(el, page.selected);
}

// A pane just shown gets the markup it was spared while hidden.
export function showDeferred() {
  panes.longRoom = -1;
  let any = false;
  for (const [r, msg] of panes.deferred) {
    if (!paneShown(r)) continue;
    putReading(r, msg);
    panes.deferred.delete(r);
    any = true;
  }
  if (any) applySelection();
}

// An engine result on the page: every reading, the summary, the
// diagnostics, the names behind the choices, the picture.
export function showResult(msg) {
  const refused = msg.status !== 0;
  panes.longRoom = -1;
  // A refused program keeps the last readings that worked: they go in first.
  if (refused && panes.plainQueue.size) { clearTimeout(panes.plainTimer); flushPlain(true); }
  for (const r of TEXT_READINGS) {
    const el = readingEl(r);
    const pane = paneEl(r);
    if (refused && page.lastText !== null) {
      // Keep the last reading that worked beside the (empty) current one.
      // (its nodes move there: a long reading is not serialised and parsed again)
      const stale = pane.querySelector('.stale');
      if (!pane.classList.contains('refused')) {
        const range = document.createRange();
        range.selectNodeContents(el);
        stale.replaceChildren(range.extractContents());
        panes.shownLines.delete(el);
        longReadings.drop(el);
      }
    } else if (!refused) {
      pane.querySelector('.stale').replaceChildren();   // nothing old is held
    }
    // Markup only where it is seen: a hidden pane gets the plain text (the
    // same textContent, far cheaper to swap in) and its markup when shown.
    if (paneShown(r)) {
      putReading(r, msg);
      panes.deferred.delete(r);
    } else {
      queuePlain(el, msg.text[r]);
      panes.deferred.set(r, msg);
    }
    pane.classList.toggle('refused', refused && page.lastText !== null);
  }
  readingEl('summary').textContent = msg.text.summary;
  // While a line is half typed the summary keeps the last good one, marked.
  $('#summary-stale').textContent = refused && page.lastText !== null ? page.lastText.summary : '';
  showDiagnostics(msg.diagnostics);
  page.announcer.result(msg.announcement);
  if (!refused) {
    page.lastText = msg.text;
    page.names = unpackNames(msg.names);
    page.used = { target: msg.target, observe: msg.observe };
    page.sources = msg.sources;
    page.pictureTarget = msg.targetNode;   // the engine's (JSON target_node)
    forgetPastedChoices();
    fillChoices();
  }
  page.shown = { ok: !refused, text: msg.text };
  showChoiceNote();
  expectTeach(msg.id, refused, teachSeen());
  showPicture(msg.text.dot, refused);
  page.passes.resultShown(msg);
  applySelection();
  selectAtCursor();
  updateDownloads();
}

// A pasted program that has no value of the target's or the observe
// choice's name: the choice goes (silently: the reader did not make it for
// this program), and the program is read with it gone.  Typing keeps it.
function forgetPastedChoices() {
  const { chosen, drafts } = page;
  if (page.pasted === null || page.shownRequest?.program !== page.pasted) return;
  page.pasted = null;
  const gone = {};
  for (const k of ['target', 'observe'])
    if (chosen[k] && !page.names.list.includes(chosen[k])) gone[k] = '';
  if (Object.keys(gone).length === 0) return;
  Object.assign(chosen, gone);
  drafts.update(drafts.current, gone);
  scheduleRead();
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

// A reading's folds, lines and references, by pointer and by keyboard.
export function wirePanes() {
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
    if (consumePan()) return;   // the end of a drag of the picture
    const target = e.target instanceof Element ? e.target : null;
    const fold = target?.closest('[data-reading] .fold');
    if (fold) { unfold(fold); return; }
    const hit = target?.closest('[data-ref], [data-node]');
    if (!hit || !hit.closest('[data-reading]')) return;
    if (window.getSelection()?.toString()) return;   // the reader is selecting text
    const node = Number(hit.dataset.ref ?? hit.dataset.node);
    select(node, hit.closest('.pane'));
  });
}
