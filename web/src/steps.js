// The step-through: a scrubber over the plan's steps (JSON steps, one
// evaluated node a step, in the schedule's order).  Everything it says is
// the engine's: step K's sentence (JSON steps[K].text, or
// tp_wasm_step_text past those the JSON spells out), the node states
// after step K (tp_wasm_node_states) and the value of its node as the
// values reading writes it (tp_wasm_node_value_text), both asked of the
// engine's worker, and the share it adds (JSON origins).
// At step K the node of step K is selected in every pane, the memory
// chart's cursor stands at K and the picture's nodes carry their states.
// Play moves one step every defaults.play_interval_ms (JSON defaults).
//
// Keys on the focused scrubber: Space plays or pauses, Left/Right step,
// Home/End jump to the first or last step.
import { originOf, unpack } from './teach-facts.js';
import { gridHtml, isGrid, tensorText } from './grid.js';

// The picture's class of each TpNodeState (engine/include/tp-engine.h):
// unevaluated, pending, live, freed.
export const STEP_CLASSES = ['step-never', 'step-pending', 'step-live', 'step-freed'];
const GRID_ELEMENTS = 64;   // a value shown in full up to this many elements, as the desktop's (TP_STEP_VALUE_ELEMENTS)

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
  // The engine's answer for step k of the facts shown: {of, k, text, states, value}.
  let asked = null;
  let askSeq = 0;

  const open = () => !box.hidden;
  const steps = () => facts?.steps?.nodes || [];

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

  // Marks the picture's nodes with the engine's states after step k, once
  // they are in (or clears); box.dataset.states says which step's they are.
  function markPicture() {
    const nodes = document.querySelectorAll('[data-reading="picture"] g.node[data-node]');
    const here = open() && facts && asked && asked.of === facts.of && asked.k === k ? asked : null;
    for (const g of nodes) {
      g.classList.remove(...STEP_CLASSES);
      if (here) g.classList.add(STEP_CLASSES[here.states[Number(g.dataset.node)]] || STEP_CLASSES[0]);
    }
    if (here) box.dataset.states = String(k);
    else delete box.dataset.states;
  }

  // Asks the engine for step k's states and its node's value (and its
  // sentence, when the JSON left it out); the latest question only is
  // shown.
  function askStep() {
    const mine = ++askSeq;
    const of = facts.of, at = k, node = steps()[k];
    page.stepFacts(of, at, node, GRID_ELEMENTS).then((m) => {
      if (mine !== askSeq || !m || !facts || facts.of !== of) return;
      asked = { of, k: at, text: m.text, states: m.states, value: m.value };
      if (at === k) {
        if (unpack(facts.steps.texts, at) === undefined) showText(m.text);
        showValue(node, m.value);
      }
      markPicture();
    }, () => {});
  }

  function showText(text) {
    range.setAttribute('aria-valuetext', text);
    $('step-text').textContent = text;
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
    // the desktop's words (ui/tp-steps-pane.c)
    const why = !facts ? 'No steps: the program does not read yet.' : n === 0 ? 'No steps: the plan evaluates nothing.' : '';
    $('step-why').textContent = stale && facts ? 'The program is refused: these are the steps of the last good reading (stale).' : why;
    box.classList.toggle('stale', stale && !!facts);
    if (!usable) {
      range.setAttribute('aria-valuetext', why || 'no steps');
      $('step-text').textContent = '';
      showValue(null, '');
      decorate();
      return;
    }
    const node = list[k];
    // the engine's sentence, verbatim; past the JSON's, the worker's answer
    const text = unpack(facts.steps.texts, k);
    const known = asked && asked.of === facts.of && asked.k === k ? asked : null;
    showText(text ?? known?.text ?? '');
    showValue(node, known ? known.value : '');   // until the engine answers: none
    page.select(node);
    decorate();
    if (!known) askStep();
  }

  // The step's value as the engine writes it ("value: [[1, 2], [3, 4]]",
  // the desktop's words), laid out as a grid (grid.js) when the engine's
  // texts of its elements (asked of the worker, grid.js exactNode) write
  // exactly that text: the element's textContent stays the engine's.
  let valueSeq = 0;
  function showValue(node, text) {
    const el = $('step-value');
    el.textContent = text ? `value: ${text}` : '';
    delete el.dataset.grid;
    const mine = ++valueSeq;
    if (!text) return;
    page.nodeValue(node).then((v) => {
      if (mine !== valueSeq || !v || !isGrid(v.shape) || v.texts.length > GRID_ELEMENTS) return;
      const tensor = tensorText(v.shape, v.texts);
      const grid = tensor.text === text ? gridHtml(tensor.text, tensor.spans, v.shape) : null;
      if (!grid) return;
      el.innerHTML = `value: ${grid}`;
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
