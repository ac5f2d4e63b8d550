// The step-through: a scrubber over the plan's steps (JSON memory.steps,
// one evaluated node a step, in tape order).  At step K the node of step
// K is selected in every pane; its value (JSON nodes) and why
// differentiate recorded it (JSON origins) are shown; the memory chart's
// cursor stands at K; the picture's nodes carry the state each has after
// step K (docs/language.md memory: a buffer with from/to is pending while
// K < from, live from `from` to `to`, freed after `to`; a node with no
// buffer is never computed).  Play moves one step every
// defaults.play_interval_ms (the engine's, JSON defaults).
//
// Keys on the focused scrubber: Space plays or pauses, Left/Right step,
// Home/End jump to the first or last step.
import { originOf, unpack } from './teach-facts.js';
import { gridHtml, isGrid, tensorText } from './grid.js';

export const STEP_CLASSES = ['step-pending', 'step-live', 'step-freed', 'step-never'];
const GRID_ELEMENTS = 64;   // as the desktop's step value shows in full

// The state of every node after step k, from the JSON's buffers.
// (memory: teach-facts.js packMemory, buffers as node, from, to triples)
export function nodeStates(memory, n, k) {
  const states = new Array(n).fill('never');
  const b = memory?.buffers || [];
  for (let i = 0; i + 2 < b.length; i += 3)
    states[b[i]] = k < b[i + 1] ? 'pending' : k <= b[i + 2] ? 'live' : 'freed';
  return states;
}

// "node 10 Add" (with its name when the program named it).
export function nodeLabel(facts, node) {
  const ops = unpack(facts.ops, node), names = unpack(facts.names, node);
  const op = ops ? ` ${ops}` : '';
  const name = node < facts.specNodes && names ? ` (${names})` : '';
  return `node ${node}${op}${name}`;
}

// What a share adds to which gradient, from JSON origins[N], or ''.
export function shareText(facts, node) {
  const o = originOf(facts, node);
  if (!o || o.role !== 'share') return '';
  const named = unpack(facts.names, o.of);
  const of = named && o.of < facts.specNodes ? named : `node ${o.of}`;
  return `share from ${nodeLabel(facts, o.from)} added to d ${facts.target} / d ${of}`
    + ` (share ${o.count}: node ${o.share} added to the running sum, node ${o.sum})`;
}

// beforeShow: called when the step-through opens (the chart it moves the
// cursor over may not be drawn yet).
export function createStepper(page, chart, beforeShow) {
  const $ = (id) => document.getElementById(id);
  const box = $('stepper');
  const range = $('step-range');
  const toggle = $('steps-toggle');
  let facts = null;      // the last reading that read
  let stale = false;     // the program does not read now
  let k = 0;
  let timer = null;

  const open = () => !box.hidden;
  const steps = () => facts?.memory?.steps || [];

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $('step-play').textContent = '▶ play';
    $('step-play').setAttribute('aria-pressed', 'false');
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (!steps().length) return;
    if (k >= steps().length - 1) go(0);
    timer = setInterval(() => {
      if (k >= steps().length - 1) stop();
      else go(k + 1);
    }, page.defaults().play_interval_ms);
    $('step-play').textContent = '‖ pause';
    $('step-play').setAttribute('aria-pressed', 'true');
  }

  // Marks the picture's nodes with their state after step k (or clears).
  function markPicture() {
    const nodes = document.querySelectorAll('[data-reading="picture"] g.node[data-node]');
    const states = open() && facts ? nodeStates(facts.memory, facts.nodes, k) : null;
    for (const g of nodes) {
      g.classList.remove(...STEP_CLASSES);
      if (states) g.classList.add(`step-${states[Number(g.dataset.node)] || 'never'}`);
    }
  }

  // Marks the share a step adds (in every reading), or clears.
  function markShare(node) {
    for (const el of document.querySelectorAll('.readings .step-share')) el.classList.remove('step-share');
    const o = node === null || !facts ? null : originOf(facts, node);
    if (!o || o.role !== 'share') return;
    for (const el of document.querySelectorAll(`.readings [data-node="${o.share}"]`)) el.classList.add('step-share');
  }

  function show() {
    const list = steps();
    const n = list.length;
    const usable = open() && n > 0;
    for (const b of box.querySelectorAll('button')) b.disabled = !usable;
    range.disabled = !usable;
    range.max = String(Math.max(0, n - 1));
    range.value = String(k);
    const why = !facts ? 'no reading yet' : n === 0 ? 'this program evaluates nothing' : '';
    $('step-why').textContent = stale && facts ? 'the program does not read now: stepping through the last reading that did'
      : why ? `nothing to step through: ${why}` : '';
    box.classList.toggle('stale', stale && !!facts);
    if (!usable) {
      range.setAttribute('aria-valuetext', why || 'no steps');
      $('step-text').textContent = '';
      $('step-value').textContent = '';
      $('step-share').textContent = '';
      decorate();
      return;
    }
    const node = list[k];
    const half = node >= facts.specNodes ? 'gradient' : 'forward';
    const text = `step ${k + 1} of ${n}: ${nodeLabel(facts, node)}`;
    range.setAttribute('aria-valuetext', text);
    $('step-text').textContent = `${text}, ${half}`;
    showValue(node, unpack(facts.values, node));
    $('step-share').textContent = shareText(facts, node);
    page.select(node);
    decorate();
  }

  // The step's value: its short line, then (a tensor of up to
  // GRID_ELEMENTS elements) a grid of the engine's texts of its elements,
  // asked of the engine's worker (grid.js exactNode).
  let valueSeq = 0;
  function showValue(node, line) {
    const el = $('step-value');
    el.textContent = line ? `value ${line}` : '';
    delete el.dataset.grid;
    const mine = ++valueSeq;
    page.nodeValue(node).then((v) => {
      if (mine !== valueSeq || !v || !isGrid(v.shape) || v.texts.length > GRID_ELEMENTS) return;
      const { text, spans } = tensorText(v.shape, v.texts);
      const grid = gridHtml(text, spans, v.shape);
      if (!grid) return;
      el.innerHTML = `value <span class="ir-shape">[${v.shape.join(', ')}]</span> ${grid}`;
      el.dataset.grid = String(node);   // for tools: the grid of node's value is in
    }, () => {});
  }

  // The share, the memory chart's cursor and the picture's states of the
  // current step (again after a pane's markup or the picture changed).
  function decorate() {
    const on = open() && facts && steps().length > 0;
    markShare(on ? steps()[k] : null);
    chart.cursor(on ? k : null);
    markPicture();
  }

  function go(to) {
    const n = steps().length;
    if (n === 0) return;
    k = Math.min(Math.max(to, 0), n - 1);
    show();
  }

  function setOpen(on) {
    box.hidden = !on;
    toggle.setAttribute('aria-expanded', String(on));
    toggle.textContent = on ? 'stop stepping' : 'step through';
    if (!on) {
      stop();
      decorate();
      return;
    }
    beforeShow();
    show();
    range.focus();
  }

  toggle.addEventListener('click', () => setOpen(!open()));
  $('step-home').onclick = () => { stop(); go(0); };
  $('step-back').onclick = () => { stop(); go(k - 1); };
  $('step-forward').onclick = () => { stop(); go(k + 1); };
  $('step-end').onclick = () => { stop(); go(steps().length - 1); };
  $('step-play').onclick = play;
  range.addEventListener('input', () => { stop(); go(Number(range.value)); });
  range.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const moves = { ArrowRight: () => go(k + 1), ArrowLeft: () => go(k - 1), Home: () => go(0), End: () => go(steps().length - 1) };
    if (e.key === ' ') play();
    else if (moves[e.key]) { stop(); moves[e.key](); }
    else return;
    e.preventDefault();
  });

  return {
    // A new reading (refused: keep the last good facts, marked stale).
    update(next, refused) {
      stale = refused;
      if (!refused) {
        facts = next;
        k = Math.min(k, Math.max(0, steps().length - 1));
      }
      if (open()) show();
    },
    decorate,
    get open() { return open(); },
    get step() { return open() ? k : null; },
  };
}
