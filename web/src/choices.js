// The reader's choices beside the readings: target, observe and exact.
// The lists are the names of the last program that read; a chosen name
// the engine did not use (its JSON says what it used) is said, with what
// is used instead.
import { $, page } from './page-state.js';
import { scheduleRead } from './engine-client.js';

// A program with thousands of names fills its lists when one is about to
// be used (focus or a press), not on every read.
const EAGER_NAMES = 400;
const lazyFills = new Map();   // select -> its full fill, not done yet

function fallbacks() {
  const { chosen, used } = page;
  const known = (n) => page.names.list.includes(n);
  const out = {};
  if (chosen.target && used.target !== chosen.target) {
    out.target = `target ${chosen.target} is ${known(chosen.target) ? 'not a scalar' : 'not in the program'}: `
      + (used.target ? `differentiating ${used.target} instead` : 'nothing is differentiated');
    out.targetLabel = `${chosen.target} (${known(chosen.target) ? 'not a scalar' : 'not in the program'}; using ${used.target ?? 'none'})`;
  }
  if (chosen.observe && !used.observe.includes(chosen.observe)) {
    const why = !known(chosen.observe) ? 'not in the program' : chosen.observe === used.target ? 'the target itself' : 'not used';
    out.observe = `observe ${chosen.observe} is ${why}: observing nothing extra`;
    out.observeLabel = `${chosen.observe} (${why}; observing nothing)`;
  }
  return out;
}

export function showChoiceNote() {
  const f = fallbacks();
  $('#choice-note').textContent = page.shown.ok ? [f.target, f.observe].filter(Boolean).join('; ') : '';
}

// Target lists the scalar names, observe every name; a chosen name the
// program no longer has stays listed, so typing does not lose the choice.
export function fillChoices() {
  const names = page.names;
  const unique = (list) => [...new Set(list)];
  const scalars = unique(names.list.filter((n, i) => names.scalar[i]));
  const all = unique(names.list);
  const f = page.lastText === null ? {} : fallbacks();
  fillSelect($('#target'), 'the last scalar', scalars, page.chosen.target, f.targetLabel);
  fillSelect($('#observe'), 'nothing extra', all, page.chosen.observe, f.observeLabel);
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

// The choices of page.chosen shown in their controls.
export function applyChoices() {
  fillChoices();
  $('#exact').checked = page.chosen.exact;
}

function choose(fields) {
  Object.assign(page.chosen, fields);
  page.drafts.update(page.drafts.current, fields);
  scheduleRead();
}

export function wireChoices() {
  for (const id of ['#target', '#observe']) {
    const fillNow = (e) => { const f = lazyFills.get(e.currentTarget); if (f) { lazyFills.delete(e.currentTarget); f(); } };
    $(id).addEventListener('focus', fillNow);
    $(id).addEventListener('pointerdown', fillNow);
  }
  $('#target').addEventListener('change', (e) => choose({ target: e.target.value }));
  $('#observe').addEventListener('change', (e) => choose({ observe: e.target.value }));
  $('#exact').addEventListener('change', (e) => choose({ exact: e.target.checked }));
}
