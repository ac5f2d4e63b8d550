// The train tab: gradient descent in the engine (docs/language.md train),
// run in a worker of its own (a second engine-worker.js), so a long
// training never holds back a reading nor the typing.  Shown as the engine
// gives it: its loss-curve SVG (tp_wasm_train_text 2), the parameters
// after the last update (text 3), its error when it refuses, and the
// stop of a NaN or infinity (train JSON "stopped").  The slider looks at
// any step K: the loss at K is losses[K]; the parameters after K steps
// are those of a training of K steps, asked of the worker and cached.
import { nodeButton } from './node-link.js';
import { gridHtml, isGrid, tensorText } from './grid.js';
import { escapeHtml } from './readings.js';

const DEFAULTS = { steps: '50', rate: '0.1' };
const LOOK_DELAY_MS = 80;

export function createTrain(page) {
  const $ = (id) => document.getElementById(id);
  let worker = null;
  let seq = 0;
  const waiting = new Map();   // id -> resolve
  let run = null;              // {key, steps, rate, json, svg, cache: Map(k -> {text, exact})}
  let lookTimer = null;

  // The training's worker, started once the page has read its first
  // program and kept: a Run needs no file fetched then (the page may be
  // offline by now; the service worker, offline.js, keeps the files for a
  // worker started later).  A worker that cannot load says why, and every
  // question to it is answered with that.
  function ensureWorker() {
    if (worker) return;
    const w = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
    worker = w;
    const broken = (why) => {
      if (worker !== w) return;
      w.terminate();
      worker = null;
      const message = `the training engine could not be loaded (${why}); if the page is offline, run it again once it is back online`;
      for (const done of waiting.values()) done({ fatal: message });
      waiting.clear();
      if (!$('train-run').disabled) fail(message);
    };
    w.onmessage = (e) => {
      if (e.data.loadError) { broken(e.data.loadError); return; }
      const done = waiting.get(e.data.id);
      if (!done) return;
      waiting.delete(e.data.id);
      done(e.data);
    };
    w.onerror = (e) => {
      e.preventDefault();
      broken(e.message || 'engine-worker.js could not be fetched');
    };
  }

  function ask(request) {
    ensureWorker();
    const id = `train-${++seq}`;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage({ ...request, id });
    });
  }

  // Drops the worker and everything it was asked (the program changed),
  // and starts the next one at once.
  function cancel() {
    if (!worker) return;
    worker.terminate();
    worker = null;
    for (const done of waiting.values()) done({ cancelled: true });
    waiting.clear();
    ensureWorker();
  }

  function status(text) { $('train-status').textContent = text; }
  function fail(message) {
    const el = $('train-error');
    el.textContent = message;
    el.hidden = !message;
  }

  function clear() {
    run = null;
    fail('');
    $('train-curve').replaceChildren();
    $('train-stop').hidden = true;
    $('train-stop').replaceChildren();
    $('train-at').hidden = true;
    $('train-parameters').textContent = '';
    $('pane-train').classList.remove('train-stale');
  }

  async function start() {
    cancel();
    clear();
    const steps = Number($('train-steps').value);
    const rate = $('train-rate').value;
    if (!Number.isInteger(steps) || steps < 0) {
      fail('the steps must be a whole number, 0 or more');
      return;
    }
    const request = page.request();
    const key = page.requestKey(request);
    status('training…');
    $('train-run').disabled = true;
    const answer = await ask({ ...request, train: { steps, rate } });
    $('train-run').disabled = false;
    if (answer.cancelled) return;
    status('');
    if (answer.fatal && /could not be loaded/.test(answer.fatal)) { fail(answer.fatal); return; }
    if (answer.fatal || !answer.train) { fail(`the engine failed: ${answer.fatal || 'no answer'}`); return; }
    const t = answer.train;
    if (t.ran !== 1) { fail(t.error ? `refused: ${t.error}` : 'the training was refused'); return; }
    run = { key, request, steps, rate, json: t.json, svg: t.svg, cache: new Map([[steps, { text: t.parameters, exact: t.exact }]]) };
    showRun();
  }

  function showRun() {
    $('train-curve').innerHTML = run.svg;
    const root = $('train-curve').querySelector('svg');
    if (root) {
      root.setAttribute('role', 'img');
      root.setAttribute('aria-label', `the loss curve over ${run.json.losses.length} runs`);
    }
    const stop = run.json.stopped;
    const stopEl = $('train-stop');
    stopEl.hidden = !stop;
    if (stop) {
      const b = nodeButton(stop.node, stop.op);
      const at = stop.element && stop.element.length ? ` at element [${stop.element.join(', ')}]` : '';
      stopEl.replaceChildren(`stopped at step ${stop.step}: `, b, ` gives ${stop.value}${at}`);
    }
    const last = run.json.losses.length - 1;
    const slider = $('train-k');
    slider.max = String(last);
    slider.value = String(last);
    $('train-at').hidden = false;
    look(last);
  }

  // A cursor over the curve at step k: the engine draws the steps evenly
  // along its axis (step 0 at its left end, the last at its right), so
  // the axis's box, from the DOM, places it.
  function curveCursor(k, last) {
    const root = $('train-curve').querySelector('svg');
    root?.querySelector('.train-cursor')?.remove();
    const axis = root?.querySelector('.axis');
    if (!axis || last <= 0) return;
    const box = axis.getBBox();
    const x = box.x + (box.width * k) / last;
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
    line.setAttribute('class', 'train-cursor');
    for (const [a, v] of [['x1', x], ['x2', x], ['y1', box.y], ['y2', box.y + box.height]]) line.setAttribute(a, v);
    root.append(line);
  }

  // The parameter lines as the engine writes them, a tensor laid out as a
  // grid (grid.js) when its element texts (the train JSON's, exact) write
  // the end of its line; the element's textContent stays the text.
  function showParameters({ text, exact }) {
    const el = $('train-parameters');
    const entries = exact ? Object.entries(exact) : [];
    const lines = text.split('\n');
    let any = false;
    const html = lines.map((line, k) => {
      const nl = k < lines.length - 1 ? '\n' : '';
      const [name, value] = entries[k] || [];
      const shape = (value?.shape || []).map(Number);
      if (!name || !line.startsWith(`${name} `) || !Array.isArray(value?.data) || !isGrid(shape)) return escapeHtml(line + nl);
      const tensor = tensorText(shape, value.data);
      if (!line.endsWith(tensor.text)) return escapeHtml(line + nl);
      const grid = gridHtml(tensor.text, tensor.spans, shape);
      if (grid === null) return escapeHtml(line + nl);
      any = true;
      return `<span class="train-line">${escapeHtml(line.slice(0, line.length - tensor.text.length))}${grid}</span>`
        + (nl ? `<span class="grid-nl">${nl}</span>` : '');
    });
    if (any) el.innerHTML = html.join('');
    else el.textContent = text;
  }

  // Shows the loss at step k and the parameters after k steps.
  async function look(k) {
    const losses = run.json.losses;
    curveCursor(k, losses.length - 1);
    const target = page.target() || 'the target';
    $('train-k').setAttribute('aria-valuetext', `step ${k} of ${losses.length - 1}: ${target} ${losses[k]}`);
    $('train-k-text').textContent = `step ${k}: ${target} ${losses[k]}`;
    const mine = run;
    let parameters = mine.cache.get(k);
    if (parameters === undefined) {
      $('train-parameters').textContent = '';
      status(`the parameters after ${k} steps…`);
      const answer = await ask({ ...mine.request, train: { steps: k, rate: mine.rate } });
      if (answer.cancelled || run !== mine) return;
      status('');
      if (answer.fatal) { fail(answer.fatal); return; }
      parameters = { text: answer.train?.parameters ?? '', exact: answer.train?.exact ?? null };
      mine.cache.set(k, parameters);
      if (Number($('train-k').value) !== k) return;   // the slider moved on
    }
    showParameters(parameters);
    $('train-parameters-label').textContent = k === 0 ? 'the parameters before any step' : `the parameters after ${k} step${k === 1 ? '' : 's'}`;
  }

  $('train-run').addEventListener('click', start);
  for (const id of ['train-steps', 'train-rate'])
    $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); start(); } });
  $('train-reset').addEventListener('click', () => {
    cancel();
    clear();
    status('');
    $('train-run').disabled = false;
    $('train-steps').value = DEFAULTS.steps;
    $('train-rate').value = DEFAULTS.rate;
  });
  $('train-k').addEventListener('input', () => {
    if (lookTimer !== null) clearTimeout(lookTimer);
    lookTimer = setTimeout(() => { lookTimer = null; if (run) look(Number($('train-k').value)); }, LOOK_DELAY_MS);
  });

  return {
    warm: ensureWorker,
    // The program or a choice changed: a training in flight is dropped, a
    // shown one is marked as being of an earlier program.
    programChanged(key) {
      if (waiting.size > 0) {
        cancel();
        $('train-run').disabled = false;
        status('the program changed: the training was stopped; run it again');
      }
      $('pane-train').classList.toggle('train-stale', run !== null && run.key !== key);
    },
  };
}
