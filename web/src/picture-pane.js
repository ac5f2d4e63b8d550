// The picture pane: the engine's DOT laid out by graphviz in its own
// worker (graph-worker.js), its zoom and pan, its nodes by keyboard with
// their cards (picture-view.js), and its text alternative.
import { $, page, paneEl, readingEl, stats, updateBusy } from './page-state.js';
import { NodeCard, describeNodes, focusNode, nextNode, prepareNodes, readableScale, uncut } from './picture-view.js';
import { askEngine } from './engine-client.js';
import { applySelection, select } from './selection.js';
import { updateDownloads } from './downloads.js';

const GRAPH_PATIENCE_MS = 20000;   // a layout is given up after this long
// A layout cannot be interrupted, so a layout nobody wants any more is
// either left to finish (when it is younger than this; its result is
// cached) or the worker is terminated and a fresh one started.
const GRAPH_QUEUE_MS = 300;
// The zoom a picture opens at (fitted as far as its labels stay readable,
// else readable around its target), and the whole picture (Fit).
const OPENING = 0, FIT_ALL = -1;

const picture = {
  worker: null,
  seq: 0,
  job: null,            // {id, dot, started, timer}
  broken: null,         // why graphviz cannot be loaded, or null
  renderedDot: null,    // the DOT the picture now shows
  wantedDot: '',        // the DOT of the current readings
  svg: '',              // the shown picture's SVG text
  cache: new Map(),     // DOT -> {svg, error}: a few recent layouts
  zoom: 0,              // OPENING, FIT_ALL or a scale factor
  nodes: [],            // the tape nodes the picture draws
  facts: {},            // what the engine says of them (picture-facts.js)
  factsSeq: 0,
  pan: null,            // {x, y, left, top, moved} while the pointer is down
  panned: false,        // the last pointer press was a drag, not a click
  card: null,
};

// The shown picture's SVG, and why it cannot be had now ('' when it can).
export const pictureSvg = () => picture.svg;
export function pictureProblem() {
  if (!picture.wantedDot.trim()) return 'no picture for this program';
  if (picture.renderedDot !== picture.wantedDot) return 'the picture is being laid out';
  if (!picture.svg) return 'the picture could not be drawn';
  return '';
}
// Whether the click that ends now ends a drag of the picture (and so
// selects nothing).
export function consumePan() {
  const was = picture.panned;
  picture.panned = false;
  return was;
}

export function startGraphWorker() {
  const w = new Worker(new URL('./graph-worker.js', import.meta.url), { type: 'module' });
  picture.worker = w;
  w.onmessage = (e) => onGraphResult(e.data);
  // The worker's file is missing or broken: every layout fails at once
  // (instead of waiting out GRAPH_PATIENCE_MS for an answer that never comes).
  w.onerror = (e) => {
    e.preventDefault();
    picture.broken = `graphviz could not be loaded (${e.message || 'graph-worker.js is missing or broken'})`;
    stopGraphWorker();
    if (picture.job) onGraphResult({ id: picture.job.id, error: picture.broken });
  };
}

function stopGraphWorker() {
  if (picture.worker) picture.worker.terminate();
  picture.worker = null;
  if (picture.job) clearTimeout(picture.job.timer);
}

function remember(dot, entry) {
  const cache = picture.cache;
  cache.delete(dot);
  cache.set(dot, entry);
  if (cache.size > 8) cache.delete(cache.keys().next().value);
}

// A new result's DOT (refused: the last picture is kept, marked).
export function showPicture(dot, refused) {
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
  picture.wantedDot = dot;
  drawWanted();
}

function drawWanted() {
  const dot = picture.wantedDot;
  const note = $('#picture-note');
  if (dot !== picture.renderedDot) {
    const job = picture.job;
    if (!dot.trim()) {
      setPicture('', dot);
      note.textContent = page.lastText !== null && page.lastText.dot === dot ? 'no picture for this program.' : '';
    } else if (picture.cache.has(dot)) {
      const { svg, error } = picture.cache.get(dot);
      setPicture(svg, dot);
      note.textContent = error ? `The picture could not be drawn: ${error}` : '';
    } else if (!job || (job.dot !== dot && performance.now() - job.started >= GRAPH_QUEUE_MS)) {
      if (job) {
        stopGraphWorker();
        stats.graphRestarts++;
        picture.job = null;
      }
      startLayout(dot);
    }
    // else: a layout is on its way (this one, or a young one whose result
    // comes back here first).
  }
  page.work.graph = picture.renderedDot !== picture.wantedDot;
  updateBusy();
  updateDownloads();
}

function startLayout(dot) {
  const id = ++picture.seq;
  if (picture.broken) {
    picture.job = { id, dot, started: performance.now(), timer: null };
    onGraphResult({ id, error: picture.broken });
    return;
  }
  if (!picture.worker) startGraphWorker();
  const timer = setTimeout(() => {
    stopGraphWorker();
    onGraphResult({ id, error: `the layout took longer than ${GRAPH_PATIENCE_MS / 1000} s and was stopped` });
  }, GRAPH_PATIENCE_MS);
  picture.job = { id, dot, started: performance.now(), timer };
  picture.worker.postMessage({ id, dot });
}

function onGraphResult(msg) {
  const job = picture.job;
  if (!job || msg.id !== job.id) return;   // from a terminated worker
  clearTimeout(job.timer);
  picture.job = null;
  if (msg.error) {
    remember(job.dot, { svg: '', error: msg.error });
  } else {
    stats.graphMs.push(msg.ms);
    stats.graphVersion = msg.version;
    remember(job.dot, { svg: msg.svg, error: null });
  }
  drawWanted();   // shows it, or lays out what is wanted now
}

function setPicture(svg, dot) {
  picture.renderedDot = dot;
  picture.svg = svg;
  const el = readingEl('picture');
  picture.card.hide();
  el.innerHTML = svg.replace(/^[\s\S]*?(?=<svg)/, '');
  const root = el.querySelector('svg');
  picture.nodes = [];
  picture.facts = {};
  if (root) {
    root.removeAttribute('width');
    root.removeAttribute('height');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', 'the recorded graph');
    picture.nodes = prepareNodes(root);
    root.dataset.readable = String(readableScale(root, page.defaults.readable_label_px));
  }
  showLegend(root);
  describePicture(root);
  picture.zoom = OPENING;
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
  if (!root || picture.nodes.length === 0) {
    list.replaceChildren();
    summary('the picture as text: nothing drawn');
    return;
  }
  const id = ++picture.factsSeq;
  page.work.facts = true;
  updateBusy();
  const done = (facts) => {
    if (id !== picture.factsSeq) return;
    page.work.facts = false;
    picture.facts = facts;
    const edges = describeNodes(root, picture.nodes, facts, list);
    const n = picture.nodes.length;
    summary(`the picture as text: ${n} nodes, ${edges} operand edges`);
    root.setAttribute('aria-label', `the recorded graph: ${n} nodes, ${edges} operand edges; listed as text below the picture`);
    updateBusy();
  };
  askEngine('facts', { facts: { of: page.shownId, nodes: picture.nodes } })
    .then((m) => done(m.facts || {}), () => done({}));
}

// The legend (the DOT's last node) is not drawn in the picture, where it
// is cut at the pane's edge as often as not, but whole in a box of its own
// over the pane, which the legend button opens.
function showLegend(root) {
  const g = root?.querySelector('g#legend');
  const box = $('#picture-legend');
  $('#legend-toggle').disabled = !g;
  if (!g) { box.replaceChildren(); openLegend(false); return; }
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `the picture's legend: ${[...g.querySelectorAll('text')].map((t) => t.textContent.trim()).filter(Boolean).join('; ')}`);
  // A group of the graph's: in the graph's own coordinates.
  const copy = document.createElementNS('http://www.w3.org/2000/svg', 'g');
  copy.setAttribute('transform', root.querySelector('g.graph')?.getAttribute('transform') || '');
  const legend = g.cloneNode(true);
  legend.removeAttribute('id');
  copy.append(legend);
  svg.append(copy);
  box.replaceChildren(svg);
  if (!box.hidden) fitLegend();
}
// The legend's box drawn at the picture's size, or smaller to fit the
// pane (its bounding box is known only once it is on screen).
function fitLegend() {
  const box = $('#picture-legend'), svg = box.querySelector('svg');
  if (!svg) return;
  const b = svg.getBBox();
  svg.setAttribute('viewBox', `${b.x - 2} ${b.y - 2} ${b.width + 4} ${b.height + 4}`);
  const pane = box.parentElement;
  const pad = 16;   // the box's border and padding, and a little room
  const natural = { w: (b.width + 4) * 96 / 72, h: (b.height + 4) * 96 / 72 };
  const scale = Math.min(1, (pane.clientHeight - box.offsetTop - 12 - pad) / natural.h, (pane.clientWidth - 24 - pad) / natural.w);
  svg.style.width = `${Math.max(80, Math.floor(natural.w * scale))}px`;
}
function openLegend(open) {
  $('#picture-legend').hidden = !open;
  $('#legend-toggle').setAttribute('aria-expanded', String(open));
  if (open) fitLegend();
}

// OPENING fits the picture in its pane: the whole of it when its labels
// stay readable (the engine's defaults.readable_label_px) at that size, else its width, else the
// readable size around the target; FIT_ALL: the whole picture, whatever
// its labels' size; otherwise zoom is a scale factor.  opening: the
// picture was just drawn (the view goes to the target, and to where it
// cuts no node at the pane's edges).
export function applyZoom(opening = false) {
  const el = readingEl('picture');
  const root = el.querySelector('svg');
  if (!root) return;
  const vb = root.viewBox.baseVal;
  const width = (vb && vb.width ? vb.width : 400) * 96 / 72;
  const height = (vb && vb.height ? vb.height : 300) * 96 / 72;
  let scale = picture.zoom;
  const box = el.closest('.scroll');
  if (picture.zoom === OPENING || picture.zoom === FIT_ALL) {
    // The picture's own padding (.picture) and a little room.
    const w = box.clientWidth - 24, h = box.clientHeight - 24;
    if (w <= 0) return;   // the pane is hidden; showView fits it later
    const readable = Number(root.dataset.readable) || 0.6;
    scale = Math.min(w / width, h / height, 1.5);
    if (picture.zoom === OPENING && scale < readable) scale = Math.min(w / width, 1.5);
    if (picture.zoom === OPENING && scale < readable) scale = Math.min(readable, 1.5);
  }
  root.style.width = `${Math.round(width * scale)}px`;
  el.dataset.scale = scale.toFixed(3);
  el.dataset.zoom = picture.zoom === OPENING ? 'opening' : picture.zoom === FIT_ALL ? 'fit' : 'scale';
  if (picture.zoom === FIT_ALL) box.scrollTo(0, 0);
  if (picture.zoom === OPENING && (opening || box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight)) {
    centreOnTarget(root, box);
    uncutNodes(root, box);
  }
}

// Moves the view (by at most half a screen, the target kept whole) to
// where the pane's edges cut no node.
// An axis counts the nodes the view shows along the other one: first the
// rows, then the columns, then the rows again for the columns chosen.
function uncutNodes(root, box) {
  const b = box.getBoundingClientRect();
  const t = page.selected ?? page.pictureTarget;
  const nodes = [];
  let keep = null;
  for (const g of root.querySelectorAll('g.node[data-node]')) {
    const r = g.getBoundingClientRect();
    const n = {
      x: [r.left - b.left - box.clientLeft + box.scrollLeft, r.right - b.left - box.clientLeft + box.scrollLeft],
      y: [r.top - b.top - box.clientTop + box.scrollTop, r.bottom - b.top - box.clientTop + box.scrollTop],
    };
    nodes.push(n);
    if (Number(g.dataset.node) === t) keep = n;
  }
  const view = { x: box.scrollLeft, y: box.scrollTop };
  const size = { x: box.clientWidth, y: box.clientHeight };
  const max = { x: box.scrollWidth - box.clientWidth, y: box.scrollHeight - box.clientHeight };
  const seen = (n, axis) => n[axis][1] > view[axis] && n[axis][0] < view[axis] + size[axis];
  for (const [axis, other] of [['y', 'x'], ['x', 'y'], ['y', 'x']])
    view[axis] = uncut(nodes.filter((n) => seen(n, other)).map((n) => n[axis]), view[axis], size[axis], max[axis], keep?.[axis]);
  box.scrollTo(view.x, view.y);
}

// Scrolls the picture so that the target's node (else the selected one)
// is in the middle of its box.
function centreOnTarget(root, box) {
  const n = page.selected ?? page.pictureTarget;
  const g = n === null ? null : root.querySelector(`g.node[data-node="${n}"]`);
  if (!g || box.clientWidth === 0) return;
  const b = box.getBoundingClientRect(), r = g.getBoundingClientRect();
  box.scrollLeft += r.left + r.width / 2 - (b.left + b.width / 2);
  box.scrollTop += r.top + r.height / 2 - (b.top + b.height / 2);
}

function currentScale() {
  return Number(readingEl('picture').dataset.scale) || 1;
}

// Zooms by FACTOR keeping the point (x, y) of the picture's box, in client
// coordinates (default: its middle), where it is.
function zoomBy(factor, x, y) {
  const pictureBox = $('.picture-scroll');
  const box = pictureBox.getBoundingClientRect();
  const ox = (x ?? box.left + box.width / 2) - box.left, oy = (y ?? box.top + box.height / 2) - box.top;
  const before = currentScale();
  picture.zoom = Math.min(4, Math.max(0.1, before * factor));
  applyZoom();
  const ratio = currentScale() / before;
  pictureBox.scrollLeft = (pictureBox.scrollLeft + ox) * ratio - ox;
  pictureBox.scrollTop = (pictureBox.scrollTop + oy) * ratio - oy;
}
function zoomFit() { picture.zoom = FIT_ALL; applyZoom(); }

const NODE_KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'];
const pictureNode = (t) => (t instanceof Element ? t.closest('[data-reading="picture"] g.node[data-node]') : null);

// The zoom buttons and keys, the wheel, the drag, the nodes' keys and cards.
export function wirePicture() {
  const pictureBox = $('.picture-scroll');
  picture.card = new NodeCard(pictureBox);
  const card = picture.card;
  window.addEventListener('resize', () => { if (picture.zoom === OPENING || picture.zoom === FIT_ALL) applyZoom(); });
  // The box changes size with the page around it too (its header wraps
  // once its buttons settle): the opening view is made again for the new
  // size, as for a resized window; not while stepping, whose steps bring
  // their node into view themselves.
  let boxSize = '';
  new ResizeObserver(() => {
    const size = `${pictureBox.clientWidth}x${pictureBox.clientHeight}`;
    if (size === boxSize) return;
    boxSize = size;
    if ((picture.zoom === OPENING || picture.zoom === FIT_ALL) && !page.teach.stepping()) applyZoom();
  }).observe(pictureBox);
  $('#legend-toggle').addEventListener('click', () => openLegend($('#picture-legend').hidden));
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || $('#picture-legend').hidden || e.defaultPrevented) return;
    e.preventDefault();
    openLegend(false);
    if ($('#picture-legend').contains(document.activeElement)) $('#legend-toggle').focus();
  }, true);
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
  pictureBox.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || e.pointerType === 'touch') return;   // touch scrolls natively
    picture.pan = { x: e.clientX, y: e.clientY, left: pictureBox.scrollLeft, top: pictureBox.scrollTop, moved: false };
    picture.panned = false;
  });
  pictureBox.addEventListener('pointermove', (e) => {
    const pan = picture.pan;
    if (!pan) return;
    const dx = e.clientX - pan.x, dy = e.clientY - pan.y;
    if (!pan.moved && Math.hypot(dx, dy) < 4) return;
    if (!pan.moved) { pan.moved = true; pictureBox.setPointerCapture(e.pointerId); pictureBox.classList.add('panning'); }
    pictureBox.scrollLeft = pan.left - dx;
    pictureBox.scrollTop = pan.top - dy;
  });
  const endPan = () => {
    if (picture.pan?.moved) picture.panned = true;
    picture.pan = null;
    pictureBox.classList.remove('panning');
  };
  pictureBox.addEventListener('pointerup', endPan);
  pictureBox.addEventListener('pointercancel', endPan);
  pictureBox.addEventListener('dblclick', (e) => { e.preventDefault(); zoomFit(); });

  // The picture's nodes by keyboard (picture-view.js): arrows, Home and End
  // move between them, Enter or Space selects; a hovered or focused node
  // shows its card.
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
  const showCard = (g) => { const n = Number(g.dataset.node); card.show(g, n, picture.facts[n]); };
  pictureBox.addEventListener('pointerover', (e) => { const g = pictureNode(e.target); if (g && !picture.pan?.moved) showCard(g); });
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
}
