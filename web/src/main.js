// The page: the editor, the reader's choices, the six readings.
//
// Everything shown comes from the engine's JSON (web/tp-wasm.c), computed in
// a Web Worker; the picture is the engine's DOT laid out by graphviz in a
// second worker.  The page only schedules work and displays results.  Its
// state is one object (page-state.js); each concept is a module of its own:
// engine-client.js (the engine's worker), reading-panes.js and selection.js
// (the readings and the highlight), picture-pane.js, choices.js,
// drafts-ui.js, downloads.js, editor.js and teach.js (the teaching tabs).
// This file wires them: the tabs, the URL hash, the page's keys, the start.
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
import { PASS_TABS, TABS, TEACH_TABS, VIEWS, parseHash } from './state.js';
import { Drafts, draftTitle } from './drafts.js';
import { createTeach } from './teach.js';
import { Announcer } from './announce.js';
import { $, currentRead, page, paneEl, paneShown, requestKey, say, writeHash } from './page-state.js';
import { createEditor, wireEditorLinks } from './editor.js';
import { askEngine, readNow, scheduleRead, startEngine } from './engine-client.js';
import { showDeferred, wirePanes } from './reading-panes.js';
import { applySelection, revealSelected, showSelected, wireSelection } from './selection.js';
import { applyChoices, wireChoices } from './choices.js';
import { applyZoom, startGraphWorker, wirePicture } from './picture-pane.js';
import { saveTape, wireDownloads } from './downloads.js';
import { createPasses } from './passes.js';
import { lessonRequest, openLessonFile, showGrade, startLessons, toggleLessons, wireLessons } from './lessons.js';
import { pickFile, showDraft, showStorageProblem, startingDraft, undoSampleLoad, wireDrafts } from './drafts-ui.js';

function showView(tab) {
  const chosen = page.chosen;
  chosen.tab = VIEWS.includes(tab) ? tab : 'spec';
  document.body.dataset.view = chosen.tab;
  for (const b of document.querySelectorAll('.tabs button')) {
    b.setAttribute('aria-selected', String(b.dataset.tab === chosen.tab));
    b.tabIndex = b.dataset.tab === chosen.tab ? 0 : -1;   // one tab stop; arrows move between tabs
  }
  for (const name of [...TABS, ...TEACH_TABS, ...PASS_TABS]) paneEl(name).classList.toggle('active', name === chosen.tab);
  showDeferred();
  page.teach.viewChanged();
  page.passes.viewChanged();
  applyZoom();
  // The selected node (the step's, while stepping) in view in what is shown.
  revealSelected(chosen.tab === 'tiled' ? TABS : [chosen.tab]);
}

function wireTabs() {
  for (const b of document.querySelectorAll('.tabs button')) {
    b.addEventListener('click', () => { showView(b.dataset.tab); writeHash(); });
  }
  $('.tabs').addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = VIEWS.indexOf(page.chosen.tab) + (e.key === 'ArrowRight' ? 1 : VIEWS.length - 1);
    showView(VIEWS[i % VIEWS.length]);
    writeHash();
    document.querySelector(`.tabs [data-tab="${page.chosen.tab}"]`).focus();
  });
}

// "copy link": the whole state, program included, in the address.
function wireShare() {
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
}

// Text size, for projectors; remembered.
const FONT_KEY = 'topos-playground:font-size';
const font = { size: 14 };
function setFontSize(px) {
  font.size = Math.min(26, Math.max(11, px));
  document.documentElement.style.setProperty('--fs', `${font.size}px`);
  try { localStorage.setItem(FONT_KEY, String(font.size)); } catch { /* ignore */ }
  page.view.requestMeasure();
}
function wireFontSize() {
  let stored = null;
  try { stored = Number(localStorage.getItem(FONT_KEY)); } catch { /* ignore */ }
  if (stored && stored !== font.size) setFontSize(stored);
  $('#smaller').onclick = () => setFontSize(font.size - 1);
  $('#larger').onclick = () => setFontSize(font.size + 1);
}

// The page's keys, and `?` (or the keys button) listing every shortcut.
const inField = (el) => el instanceof Element && (el.closest('.cm-editor') || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
const keysDialog = { opener: null };
function openKeys() {
  keysDialog.opener = document.activeElement;
  $('#keys').showModal();
  $('#keys-close').focus();
}
function wireKeys() {
  window.addEventListener('keydown', (e) => {
    if (e.defaultPrevented) return;
    const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
    const key = e.key.toLowerCase();
    if (mod && !e.shiftKey && key === 's') { e.preventDefault(); saveTape(); }
    else if (mod && !e.shiftKey && key === 'o') { e.preventDefault(); pickFile(); }
    else if (mod && e.key === 'Enter') { e.preventDefault(); readNow(); }
    else if (mod && !e.shiftKey && key === 'z' && !inField(e.target)) { if (undoSampleLoad()) e.preventDefault(); }
    else if (e.key === 'F8' && !mod && !e.altKey && !e.shiftKey) { e.preventDefault(); toggleLessons(); }
    else if (e.key === '?' && !mod && !e.altKey && !inField(e.target) && !$('#keys').open) { e.preventDefault(); openKeys(); }
  });
  $('#keys-open').onclick = openKeys;
  $('#keys-close').onclick = () => $('#keys').close();
  $('#keys').addEventListener('close', () => { if (keysDialog.opener instanceof HTMLElement) keysDialog.opener.focus(); });
}

// "start here" is open until the reader first closes it (remembered).
const STARTED_KEY = 'topos-playground:started';
function wireStartHere() {
  const box = $('#start-here');
  let started = true;
  try { started = localStorage.getItem(STARTED_KEY) !== null; } catch { /* no storage: closed */ }
  box.open = !started;
  // At the press (the toggle event comes a task later, after a reload
  // that follows at once).
  box.querySelector('summary').addEventListener('click', () => {
    if (box.open) try { localStorage.setItem(STARTED_KEY, '1'); } catch { /* ignore */ }
  });
}

// A link's program opens as a new draft, next to the others; a program some
// draft already holds opens that draft (so a reload opens the same one).
function openState(h) {
  const { drafts, chosen } = page;
  if (h.program !== undefined && (h.program !== chosen.program || !drafts.get(drafts.current))) {
    const current = drafts.get(drafts.current);
    const same = current && current.program === h.program ? current : drafts.find(h.program);
    const d = same || drafts.create({ program: h.program, origin: 'link' });
    if (!same && chosen.program !== '') say(`opened the link as a new draft; your program is kept as “${draftTitle(current || { name: '', program: chosen.program })}”.`);
    else if (!same && drafts.list.length > 1) say(`opened the link as a new draft; your ${drafts.list.length - 1} other draft${drafts.list.length > 2 ? 's are' : ' is'} in the drafts list.`);
    showDraft(d);
  }
  chosen.target = h.target;
  chosen.observe = h.observe;
  chosen.exact = h.exact;
  Object.assign(chosen, { optimize: h.optimize, remat: h.remat, direction: h.direction, kernels: h.kernels, tangents: h.tangents });
  drafts.update(drafts.current, { target: chosen.target, observe: chosen.observe, exact: chosen.exact });
  showView(h.tab);
  applyChoices();
  page.passes.applyPassChoices();
  scheduleRead();
}

/* --------------------------------------------------------------- start */

page.drafts = new Drafts();
page.announcer = new Announcer($('#announce'));
createEditor();
// The teaching panes (teach.js) select through here and train the
// program the page reads now.
page.teach = createTeach({
  select: (node) => { if (node !== page.selected) showSelected(node); },
  get selected() { return page.selected; },
  request: currentRead,
  requestKey,
  // The teaching panes are not among the six tiles (style.css hides them there).
  shown: (name) => (TEACH_TABS.includes(name) ? page.chosen.tab === name : paneShown(name)),
  reselect: () => applySelection(),
  reveal: (name) => revealSelected([name]),
  // The engine's display name of a node (the first statement naming it,
  // docs/decisions.md D9), or null.
  nameOf: (node) => { const k = page.names.nodes.indexOf(node); return k < 0 ? null : page.names.list[k]; },
  // A node's shape and its elements' texts, as the engine wrote them, of
  // the readings shown (or null).
  nodeValue: (node) => askEngine('value', { value: { of: page.shownId, node } }).then((m) => (m.gone ? null : m.value)),
  // Step k of read of's step-through, as the engine says it: {text,
  // states, value} (engine-worker.js step), or null.
  stepFacts: (of, k, node, elements) => askEngine('step', { step: { of, k, node, elements } }).then((m) => (m.gone ? null : m)),
  // The engine's defaults (JSON defaults), once it is loaded.
  defaults: () => page.defaults,
  // A program the training wrote (its parameters as literals) into the
  // editor: one transaction, so Ctrl+Z takes it back whole.
  applyProgram: (text) => {
    const v = page.view;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text }, userEvent: 'input.train' });
    v.focus();
  },
});
// The passes' panes and choices (passes.js, forward.js).
page.passes = createPasses();
wireEditorLinks();
wirePanes();
wireSelection();
wireChoices();
wirePicture();
wireDownloads();
page.passes.wire();
wireDrafts();
wireTabs();
wireShare();
wireFontSize();
wireKeys();
wireStartHere();
page.lessonRequest = lessonRequest;
page.showGrade = showGrade;
page.openLessonFile = openLessonFile;
wireLessons();
// A pasted link (or the back button) brings its own state.
window.addEventListener('hashchange', () => openState(parseHash(location.hash)));

startEngine();
startGraphWorker();   // graphviz compiles its wasm while the engine reads
page.drafts.onProblem = showStorageProblem;
showStorageProblem(page.drafts.problem);
{
  const h = parseHash(location.hash);
  const hadHash = location.hash !== '';   // showDraft writes one
  if (h.program === undefined) {
    const d = startingDraft();
    showDraft(d);
    h.program = d.program;
    if (!hadHash) { h.target = d.target; h.observe = d.observe; h.exact = d.exact; }
  }
  openState(h);
  startLessons();   // a link's lesson, or the Lessons panel as it was left
}
