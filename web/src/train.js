// The train tab: gradient descent in the engine (docs/language.md train),
// run in a worker of its own (a second engine-worker.js), so a long
// training never holds back a reading nor the typing.  The steps and rate
// start from the program's own `# train it:` line (JSON train_settings,
// the engine's defaults when it has none), and Reset puts them back.
// Shown as the engine gives it: the sentence that heads it (train JSON
// "summary"), its loss-curve SVG (tp_wasm_train_text 2, its labels in the
// engine's short number format), the parameters after the last update
// (text 3), its error when it refuses, and the node where a NaN or an
// infinity that stopped it was born (train JSON "stopped").  The slider
// looks at any step K: the engine gives the parameters after K steps
// (tp_wasm_train_at, no training again) and the loss at K in its short
// number format.
import { nodeButton } from './node-link.js';
import { gridHtml, isGrid, tensorText } from './grid.js';
import { escapeHtml } from './readings.js';

const LOOK_DELAY_MS = 80;

export function createTrain(page) {
  const $ = (id) => document.getElementById(id);
  let worker = null;
  let seq = 0;
  const waiting = new Map();   // id -> resolve
  let run = null;              // {id, key, steps, rate, json, svg, cache: Map(k -> {text, exact, loss})}
  let lookTimer = null;
  let settings = null;         // the program's steps and rate last put in the fields ("steps rate")
  let shownSettings = null;    // the train_settings of the last program that read

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

  function ask(request, id = `train-${++seq}`) {
    ensureWorker();
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
    const id = `train-${++seq}`;
    const answer = await ask({ ...request, train: { steps, rate } }, id);
    $('train-run').disabled = false;
    if (answer.cancelled) return;
    status('');
    if (answer.fatal && /could not be loaded/.test(answer.fatal)) { fail(answer.fatal); return; }
    if (answer.fatal || !answer.train) { fail(`the engine failed: ${answer.fatal || 'no answer'}`); return; }
    const t = answer.train;
    if (t.ran !== 1) { fail(t.error ? `refused: ${t.error}` : 'the training was refused'); return; }
    const last = t.json.losses.length - 1;
    run = { id, key, steps, rate, json: t.json, svg: t.svg, cache: new Map([[last, { text: t.parameters, exact: t.exact, loss: t.loss }]]) };
    showRun();
  }

  function showRun() {
    $('train-curve').innerHTML = run.svg;
    const root = $('train-curve').querySelector('svg');
    if (root) {
      root.setAttribute('role', 'img');
      root.setAttribute('aria-label', `the loss curve over ${run.json.losses.length} runs`);
    }
    // the engine's sentence: "trained 100 steps: loss 16 to 0.00102", or
    // where a NaN or an infinity stopped it, whose node a button selects
    status(run.json.summary);
    const stop = run.json.stopped;
    const stopEl = $('train-stop');
    stopEl.hidden = !stop;
    if (stop) stopEl.replaceChildren(nodeButton(stop.node, stop.op));
    const last = run.json.losses.length - 1;
    const slider = $('train-k');
    slider.max = String(last);
    slider.value = String(last);
    $('train-at').hidden = false;
    look(last);
  }

  // A cursor over the curve at step k: the engine's chart (train JSON
  // chart) spans the steps x[0] to x[1] along its axis (the steps asked
  // for, also when a NaN stopped it earlier), so the axis's box, from the
  // DOM, places it.
  function curveCursor(k) {
    const root = $('train-curve').querySelector('svg');
    root?.querySelector('.train-cursor')?.remove();
    const axis = root?.querySelector('.axis');
    const [low, high] = run.json.chart?.x || [0, 0];
    if (!axis || !(high > low)) return;
    const box = axis.getBBox();
    const x = box.x + (box.width * (k - low)) / (high - low);
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

  // Shows the loss at step k and the parameters after k steps, as the
  // training in the engine gives them (asked once a step, then kept).
  async function look(k) {
    const losses = run.json.losses;
    curveCursor(k);
    const mine = run;
    let at = mine.cache.get(k);
    if (at === undefined) {
      $('train-parameters').textContent = '';
      $('train-k-text').textContent = '';
      const answer = await ask({ trainAt: { of: mine.id, k, loss: losses[k] } });
      if (answer.cancelled || run !== mine) return;
      if (answer.fatal) { fail(answer.fatal); return; }
      if (answer.gone) { fail('the training is gone (the page restarted its engine): run it again'); return; }
      at = { text: answer.at.parameters, exact: null, loss: answer.at.loss };
      mine.cache.set(k, at);
      if (Number($('train-k').value) !== k) return;   // the slider moved on
    }
    // the desktop's words (ui/tp-train-pane.c), the loss in the engine's short format
    const text = `after ${k} steps: loss ${at.loss}`;
    $('train-k').setAttribute('aria-valuetext', text);
    $('train-k-text').textContent = text;
    showParameters(at);
    $('train-parameters-label').textContent = k === 0 ? 'the parameters before any step' : `the parameters after ${k} step${k === 1 ? '' : 's'}`;
  }

  // The program's own steps and rate (JSON train_settings; the engine's
  // defaults before any program read) into the fields.
  function putSettings(s) {
    const d = page.defaults();
    const steps = String(s ? s.steps : d.train_steps), rate = s ? s.learning_rate : d.train_rate;
    settings = `${steps} ${rate}`;
    $('train-steps').value = steps;
    $('train-rate').value = rate;
  }

  // Apply: the engine writes the program again with the parameters after
  // the step looked at as literals (tp_wasm_train_apply); it goes into the
  // editor as one edit, which Ctrl+Z takes back, and reads.
  async function apply() {
    if (!run) return;
    const mine = run, k = Number($('train-k').value);
    const answer = await ask({ trainApply: { of: mine.id, k } });
    if (answer.cancelled || run !== mine) return;
    if (answer.gone) { fail('the training is gone (the page restarted its engine): run it again'); return; }
    if (answer.fatal || !answer.applied) { fail(`cannot apply: ${answer.fatal || answer.why}`); return; }
    fail('');
    page.applyProgram(answer.applied);
    status(`the parameters after ${k} step${k === 1 ? '' : 's'} are in the program: Ctrl+Z takes them back`);
  }

  $('train-run').addEventListener('click', start);
  $('train-apply').addEventListener('click', apply);
  for (const id of ['train-steps', 'train-rate'])
    $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); start(); } });
  $('train-reset').addEventListener('click', () => {
    cancel();
    clear();
    status('');
    $('train-run').disabled = false;
    putSettings(shownSettings);
  });
  $('train-k').addEventListener('input', () => {
    if (lookTimer !== null) clearTimeout(lookTimer);
    lookTimer = setTimeout(() => { lookTimer = null; if (run) look(Number($('train-k').value)); }, LOOK_DELAY_MS);
  });

  return {
    warm: ensureWorker,
    // A program read (its JSON train_settings): when its own settings
    // changed (another program, its `# train it:` line edited), the fields
    // take them; values typed for the same program stay.
    // (null: no program read yet; the engine's defaults go in once.)
    settings(s) {
      shownSettings = s;
      const key = s ? `${s.steps} ${s.learning_rate}` : null;
      if (key === null ? settings === null : key !== settings) putSettings(s);
    },
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
