// Forward mode's pane (issue 26): the forward reading's tangent tape, the
// direction picker, and the tangent nodes' own highlight.
//
// The direction is the seeded one, or one element of a parameter: the
// parameters and their shapes are the forward JSON's `direction` (the
// engine's), each axis an index picker; the choice is read as
// `--direction 'NAME[i, j]'` is (page.chosen.direction).
//
// The tangent nodes are numbered from the spec's node count, as
// differentiate numbers its own: the same numbers name other nodes in
// the other readings.  The engine worker marks them data-tnode and
// data-tref (pass-readings.js), so a click on one lights it in this pane
// only, with its tangent step's sentence (JSON forward.steps); the
// program's own nodes select across every reading as anywhere else.
//
// The tangent step-through walks the same steps in order (first,
// previous, next and last, under the direction): each lights its tangent node and shows
// the engine's sentence, JSON forward.steps[k].text, or for a step past
// the JSON's first ones (text null) the seam's (the worker's tangentStep).
import { $, page, paneEl, readingEl } from './page-state.js';
import { askEngine } from './engine-client.js';
import { select } from './selection.js';
import { longReadings } from './reading-panes.js';

// "w[0, 1]" -> {name: 'w', index: [0, 1]}; "w" -> {name: 'w', index: null}.
export function parseDirection(text) {
  const m = /^\s*([^[\s]+)\s*(?:\[([^\]]*)\])?\s*$/.exec(text || '');
  if (!m) return null;
  const index = m[2] === undefined ? null : m[2].trim() === '' ? [] : m[2].split(',').map((s) => Number(s.trim()));
  return { name: m[1], index };
}
export const formatDirection = (name, index) => `${name}[${index.join(', ')}]`;

export function createForward({ choose }) {
  let facts = null;      // the forward JSON of the reading shown, or null
  let tangent = null;    // the tangent node lit in this pane, or null
  let of = null;         // the read id whose forward reading is shown
  let walk = -1;         // the tangent step lit (an index of facts.steps), or -1
  const stepText = new Map();   // tangent node -> its step's sentence
  const stepOf = new Map();     // tangent node -> its step's index

  const el = () => readingEl('forward');

  function option(value, label) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    return o;
  }

  // The parameters (the forward JSON's direction) in the picker, the
  // chosen one selected with an index picker per axis.
  function fillPicker() {
    const chosen = parseDirection(page.chosen.direction);
    const params = facts?.direction ? Object.entries(facts.direction) : [];
    const select = $('#direction-parameter');
    const opts = [option('', 'seeded'), ...params.map(([n]) => option(n, n))];
    if (chosen && !params.some(([n]) => n === chosen.name)) opts.push(option(chosen.name, `${chosen.name} (not a parameter)`));
    select.replaceChildren(...opts);
    select.value = chosen ? chosen.name : '';
    select.disabled = params.length === 0 && !chosen;
    const shape = chosen ? params.find(([n]) => n === chosen.name)?.[1]?.shape : null;
    const box = $('#direction-index');
    box.replaceChildren();
    if (!shape) return;
    shape.forEach((extent, axis) => {
      const s = document.createElement('select');
      s.dataset.axis = String(axis);
      s.setAttribute('aria-label', `${chosen.name}: index along axis ${axis} (of ${extent})`);
      for (let i = 0; i < extent; i++) s.append(option(String(i), String(i)));
      s.value = String(chosen.index?.[axis] ?? 0);
      box.append(s);
    });
  }

  function pick() {
    const name = $('#direction-parameter').value;
    if (!name) { choose({ direction: '' }); return; }
    const shape = facts?.direction?.[name]?.shape;
    const old = parseDirection(page.chosen.direction);
    const index = (shape || []).map((_, axis) => {
      const s = $(`#direction-index select[data-axis="${axis}"]`);
      return old?.name === name && s ? Number(s.value) : 0;
    });
    choose({ direction: shape ? formatDirection(name, index) : name });
  }

  function lightTangent(node) {
    const root = paneEl('forward');
    for (const t of root.querySelectorAll('.tsel, .tsel-ref')) t.classList.remove('tsel', 'tsel-ref');
    tangent = node;
    walk = node === null ? -1 : stepOf.get(node) ?? -1;
    if (node !== null) {
      for (const t of root.querySelectorAll(`[data-tnode="${node}"]`)) t.classList.add('tsel');
      for (const t of root.querySelectorAll(`[data-tref="${node}"]`)) t.classList.add('tsel-ref');
    }
    $('#tangent-step').textContent = node === null ? '' : stepText.get(node) ?? '';
    if (walk >= 0 && !stepText.has(node)) lateText(walk);
    showWalk();
  }

  // A step past the JSON's sentences: the engine makes it when asked.
  function lateText(k) {
    askEngine('tstep', { tangentStep: { of, k } }).then((m) => {
      if (walk === k && !m.gone) $('#tangent-step').textContent = m.text;
    }, () => {});
  }

  // Previous and next: what the walk can do from here.
  function showWalk() {
    const n = facts?.steps?.length ?? 0;
    $('#tangent-walk').hidden = n === 0;
    $('#tangent-first').disabled = $('#tangent-prev').disabled = walk <= 0;
    $('#tangent-next').disabled = $('#tangent-last').disabled = walk >= n - 1;
    // a button that just went off gives the focus to one still on
    const a = document.activeElement;
    if (a?.disabled && a.closest('#tangent-walk')) (walk <= 0 ? $('#tangent-next') : $('#tangent-prev')).focus();
  }
  function walkTo(k) {
    const steps = facts?.steps || [];
    if (k < 0 || k >= steps.length) return;
    lightTangent(steps[k].node);
    paneEl('forward').querySelector(`.ir-line[data-tnode="${steps[k].node}"]`)?.scrollIntoView({ block: 'nearest' });
  }

  // The forward reading's lines by keyboard: every node line, program's
  // and tangent's, one roving tab stop; Enter lights it.
  function onKey(e) {
    const line = e.target instanceof Element ? e.target.closest('.ir-line') : null;
    if (!line || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      if (line.dataset.tnode !== undefined) lightTangent(tangent === Number(line.dataset.tnode) ? null : Number(line.dataset.tnode));
      else select(Number(line.dataset.node), paneEl('forward'));
      return;
    }
    if (!['ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    e.stopPropagation();
    moveLine(line, e.key);
  }
  async function moveLine(line, key) {
    const root = el();
    const lines = () => [...root.querySelectorAll('.ir-line')];
    const dir = key === 'ArrowDown' || key === 'End' ? 1 : -1;
    let all = lines();
    let next = key === 'Home' ? all[0] : key === 'End' ? all[all.length - 1] : all[all.indexOf(line) + dir];
    if ((!next || next === line) && await longReadings.more(root, line, dir)) {
      all = lines();
      next = all[all.indexOf(line) + dir];
    }
    if (!next || next === line) return;
    line.setAttribute('tabindex', '-1');
    next.setAttribute('tabindex', '0');
    next.focus();
  }

  return {
    wire() {
      $('#direction-parameter').addEventListener('change', pick);
      $('#direction-index').addEventListener('change', pick);
      el().addEventListener('keydown', onKey);
      $('#tangent-prev').addEventListener('click', () => walkTo(walk - 1));
      $('#tangent-next').addEventListener('click', () => walkTo(walk + 1));
      $('#tangent-first').addEventListener('click', () => walkTo(0));
      $('#tangent-last').addEventListener('click', () => walkTo((facts?.steps?.length ?? 0) - 1));
      el().addEventListener('click', (e) => {
        const hit = e.target instanceof Element ? e.target.closest('[data-tref], [data-tnode], [data-ref], [data-node]') : null;
        if (!hit || (hit.dataset.tnode === undefined && hit.dataset.tref === undefined)) return;   // the page's own
        if (window.getSelection()?.toString()) return;
        const node = Number(hit.dataset.tnode ?? hit.dataset.tref);
        lightTangent(tangent === node ? null : node);
      });
      document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && tangent !== null) lightTangent(null); });
    },
    // A forward reading was put in (its JSON member: forward, or null).
    show(root, forward, readId) {
      facts = forward;
      of = readId;
      stepText.clear();
      stepOf.clear();
      (forward?.steps || []).forEach((s, k) => {
        stepOf.set(s.node, k);
        if (s.text) stepText.set(s.node, s.text);
      });
      $('#direction-note').textContent = forward?.direction_error ?? '';
      fillPicker();
      lightTangent(tangent !== null && root.querySelector(`[data-tnode="${tangent}"]`) ? tangent : null);
    },
    applyChoice() { fillPicker(); },
    clearTangent() { lightTangent(null); },
  };
}
