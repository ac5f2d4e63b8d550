// The teaching tabs in headless Chromium, each against the engine's own
// JSON (the wasm module under node): the check tab's verdict and the
// non-finite origin, the explanation of the selected node, the memory
// chart's cross-highlight, the step-through (every step, by keyboard,
// the picture's node states) and training (the engine's loss curve and
// parameter lines, a refusal's reason).  Screenshots go to
// TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CHROMIUM, openBrowser, ready } from './browser.mjs';
import { loadEngine } from './engine.mjs';
import { unmet } from './prereq.mjs';
import { isGrid, tensorText } from '../../web/src/grid.js';

const build = process.env.TP_WEB_BUILD;
const site = join(build || '.', 'site');
const shots = process.env.TP_WEB_ARTIFACTS || join(build || '.', 'screenshots');
const samplesDir = process.env.TP_SAMPLES;
const skip = unmet(!existsSync(CHROMIUM) ? `no Chromium at ${CHROMIUM}` : !existsSync(join(site, 'index.html')) ? `no site at ${site}` : false);

const sample = (name) => readFileSync(join(samplesDir, name), 'utf8');
const README = sample('readme.tape');
const NAN = sample('where-does-the-nan-come-from.tape');
const README_CHOICES = { target: 'loss', observe: ['error'] };
const link = (tab, program, choices = {}) => `#tab=${tab}`
  + (choices.target ? `&target=${choices.target}` : '') + (choices.observe?.length ? `&observe=${choices.observe[0]}` : '')
  + '&program=' + encodeURIComponent(program);

let b, engine;
before(async () => {
  if (skip) return;
  mkdirSync(shots, { recursive: true });
  b = await openBrowser(site, join(build, 'npm'));
  engine = await loadEngine(build);
});
after(async () => { if (b) await b.close(); });

const json = (program, choices = {}) => JSON.parse(engine.read(program, choices).json);

async function open(tab, program, choices, options) {
  const page = await b.page(options);
  await page.goto(b.base + link(tab, program, choices));
  await ready(page);
  return page;
}

// The nodes the highlight marks, per kind of element, in the panes shown.
function selectedNodes(page) {
  return page.evaluate(() => {
    const shown = (el) => el.getClientRects().length > 0;
    const out = { lines: [], picture: [], bars: [], refs: [] };
    for (const el of document.querySelectorAll('.readings .sel')) {
      if (!shown(el)) continue;
      const kind = el.closest('[data-reading="picture"]') ? 'picture' : el.closest('[data-reading="memory"]') ? 'bars' : 'lines';
      out[kind].push(Number(el.dataset.node));
    }
    for (const el of document.querySelectorAll('.readings .sel-ref')) if (shown(el)) out.refs.push(Number(el.dataset.ref));
    return out;
  });
}

const OUTCOME_WORD = { agree: 'agree', differ: 'differ', nonfinite: 'non-finite', unchecked: 'unchecked' };

test('the check tab: the verdict is the JSON\'s, a non-finite origin is named and selects its node', { skip }, async () => {
  for (const [name, program, choices] of [['readme', README, README_CHOICES], ['nan', NAN, {}]]) {
    const want = json(program, choices);
    engine.read(program, choices);
    const page = await open('check', program, choices);
    assert.equal(await page.getAttribute('#verdict', 'data-outcome'), want.check.outcome, `${name}: the outcome`);
    assert.equal(await page.textContent('#verdict .verdict-word'), OUTCOME_WORD[want.check.outcome], `${name}: the outcome in words`);
    assert.ok((await page.textContent('#verdict')).endsWith(`: ${want.check.verdict}`), `${name}: the verdict sentence`);
    assert.notEqual(await page.textContent('#verdict .verdict-icon'), '', `${name}: an icon beside the words`);
    assert.equal(await page.textContent('[data-reading="check"]'), engine.reading(7), `${name}: the check reading, as the engine wrote it`);
    const nf = want.check.nonfinite;
    assert.equal(await page.isVisible('#nonfinite'), nf !== null, `${name}: the non-finite line only when there is one`);
    if (nf) {
      assert.equal(await page.textContent('#nonfinite button'), `node ${nf.node} ${nf.op}`, `${name}: the origin's node is named`);
      await page.click('#nonfinite button');
      const sel = await page.evaluate(() => [...document.querySelectorAll('.readings .sel')].map((e) => e.dataset.node));
      assert.ok(sel.length > 0 && sel.every((n) => n === String(nf.node)), `${name}: clicking it selects node ${nf.node} (${sel})`);
      await page.click('#tab-spec');
      assert.equal(await page.getAttribute('[data-reading="spec"] .sel', 'data-node'), String(nf.node), `${name}: selected in the spec too`);
      await page.click('#tab-check');
      await page.screenshot({ path: join(shots, 'teach-check-nan.png') });
    }
    await page.context().close();
  }
});

test('selecting a node shows its explanation, JSON explain[N]; hovering explains another', { skip }, async () => {
  const want = json(README, README_CHOICES);
  const page = await open('plan', README, README_CHOICES);
  assert.equal(await page.textContent('#explain-line'), '', 'nothing selected, nothing explained');
  for (const n of [3, 10, 20]) {
    await page.click(`[data-reading="plan"] [data-node="${n}"] .ir-index`);
    assert.equal(await page.textContent('#explain-line'), want.explain[n], `node ${n}`);
    assert.equal(await page.textContent('#explain-announce'), want.explain[n], `node ${n} is announced, the engine's line`);
  }
  await page.hover('[data-reading="plan"] [data-node="5"] .ir-index');
  assert.equal(await page.textContent('#explain-line'), want.explain[5], 'the hovered node');
  assert.equal(await page.textContent('#explain-announce'), want.explain[20], 'a hover is not announced');
  await page.mouse.move(0, 0);
  assert.equal(await page.textContent('#explain-line'), want.explain[20], 'back to the selected node');
  assert.equal(await page.getAttribute('#explain-announce', 'aria-live'), 'polite');
  await page.context().close();
});

test('the memory chart: a bar selects its node everywhere; a node selected elsewhere lights its bar', { skip }, async () => {
  const want = json(README, README_CHOICES);
  assert.equal(want.memory_svg.length > 0, true);
  const page = await open('memory', README, README_CHOICES);
  const bars = await page.$$eval('[data-reading="memory"] svg g.buffer', (gs) => gs.map((g) => Number(g.dataset.node)));
  assert.deepEqual(bars, want.memory.buffers.map((x) => x.node), 'a bar per buffer, named by its node');
  assert.equal(await page.locator('[data-reading="memory"] [id^="n"]').count(), 0, 'no id the picture uses too');
  const node = want.memory.steps[12];
  await page.click(`[data-reading="memory"] g.buffer[data-node="${node}"]`);
  assert.deepEqual((await selectedNodes(page)).bars, [node], 'the bar is lit');
  for (const tab of ['plan', 'derivative', 'picture']) {
    await page.click(`#tab-${tab}`);
    const sel = await selectedNodes(page);
    const got = tab === 'picture' ? sel.picture : sel.lines;
    assert.ok(got.length > 0 && got.every((n) => n === node), `${tab}: node ${node} is selected (${JSON.stringify(sel)})`);
  }
  await page.click('#tab-plan');
  await page.click('[data-reading="plan"] [data-node="5"] .ir-index');
  await page.click('#tab-memory');
  assert.deepEqual((await selectedNodes(page)).bars, [5], 'selected in the plan: its bar is lit');
  assert.equal(await page.getAttribute('[data-reading="memory"] g.buffer.sel', 'class'), 'buffer kept sel', 'with the picture\'s class, beside the engine\'s');
  await page.screenshot({ path: join(shots, 'teach-memory.png') });
  await page.context().close();
});

// The picture's state classes after step k, as the page shows them.
function pictureStates(page) {
  return page.$$eval('[data-reading="picture"] g.node[data-node]', (gs) => Object.fromEntries(gs.map((g) =>
    [g.dataset.node, [...g.classList].filter((c) => c.startsWith('step-') && c !== 'step-share').join(' ')])));
}

test('the step-through: every step selects its node in every pane; keys drive it; the picture shows each node\'s state', { skip }, async () => {
  const want = json(README, README_CHOICES);
  const steps = want.memory.steps;
  const page = await open('picture', README, README_CHOICES);
  await page.click('#steps-toggle');
  assert.equal(await page.getAttribute('#steps-toggle', 'aria-expanded'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'step-range', 'the scrubber has the focus');
  await page.keyboard.press('Home');
  for (let k = 0; k < steps.length; k++) {
    if (k > 0) await page.keyboard.press('ArrowRight');
    const n = steps[k];
    assert.equal(await page.inputValue('#step-range'), String(k), `step ${k}`);
    assert.equal(await page.getAttribute('#step-range', 'aria-valuetext'), want.steps[k].text, `step ${k}: the engine's sentence`);
    assert.equal(await page.textContent('#step-text'), want.steps[k].text, `step ${k}: the engine's sentence, shown`);
    // the node states after the step, asked of the engine
    await page.waitForSelector(`#stepper[data-states="${k}"]`);
    const sel = await selectedNodes(page);
    assert.deepEqual([...new Set(sel.picture)], [n], `step ${k}: the picture selects node ${n}`);
    assert.equal(await page.textContent('#explain-line'), want.explain[n], `step ${k}: its explanation`);
    const value = want.nodes[n];
    if (isGrid(value.shape) && value.data.length <= 64) {
      // A grid of the engine's texts of its elements (the sample's numbers
      // are written by String() as the engine writes them).
      await page.waitForSelector(`#step-value[data-grid="${n}"]`);
      assert.equal(await page.textContent('#step-value'), `value: ${tensorText(value.shape, value.data.map(String)).text}`, `step ${k}: its value, as a grid`);
    } else {
      // as the values reading writes it (the desktop's words)
      assert.equal(await page.textContent('#step-value'), `value: ${value.shape.length === 0 ? String(value.data[0]) : tensorText(value.shape, value.data.map(String)).text}`, `step ${k}: its value`);
    }
    const states = await pictureStates(page);
    for (const [node, cls] of Object.entries(states)) {
      const buf = want.memory.buffers.find((x) => x.node === Number(node));
      const state = !buf ? 'never' : k < buf.from ? 'pending' : k <= buf.to ? 'live' : 'freed';
      assert.equal(cls, `step-${state}`, `step ${k}: node ${node} is ${state}`);
    }
    // A share step: the engine's sentence says it, the share's node is marked.
    const o = want.origins[n];
    const marked = await page.$$eval('[data-reading="picture"] g.node.step-share', (gs) => gs.map((g) => Number(g.dataset.node)));
    if (o.role === 'share') {
      assert.match(want.steps[k].text, / adds share \d+, /, `step ${k}: a share, as the engine says`);
      assert.deepEqual(marked, [o.share], `step ${k}: the share's node is marked`);
      if (k === 10) await page.screenshot({ path: join(shots, 'teach-step-share.png') });
    } else {
      assert.deepEqual(marked, [], `step ${k}: no share marked`);
    }
  }
  // The other panes follow the step, and so does the memory chart's cursor.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.inputValue('#step-range'), '1', 'Left steps back');
  for (const tab of ['plan', 'derivative', 'memory']) {
    await page.click(`#tab-${tab}`);
    const sel = await selectedNodes(page);
    const got = tab === 'memory' ? sel.bars : sel.lines;
    assert.ok(got.length > 0 && got.every((x) => x === steps[1]), `${tab}: node ${steps[1]} (${JSON.stringify(sel)})`);
  }
  const cursor = await page.$eval('[data-reading="memory"] .step-cursor', (l) => Number(l.getAttribute('x1')));
  const barX = await page.$eval(`[data-reading="memory"] g.buffer[data-node="${steps[1]}"] rect`, (r) => Number(r.getAttribute('x')));
  assert.equal(cursor, barX, 'the cursor stands where the engine drew step 1');
  await page.focus('#step-range');
  await page.keyboard.press('End');
  assert.equal(await page.inputValue('#step-range'), String(steps.length - 1), 'End');
  await page.keyboard.press('Home');
  assert.equal(await page.inputValue('#step-range'), '0', 'Home');
  await page.keyboard.press(' ');
  assert.equal(await page.getAttribute('#step-play', 'aria-pressed'), 'true', 'Space plays');
  await page.waitForFunction(() => Number(document.querySelector('#step-range').value) >= 1, null, { timeout: 5000 });
  await page.keyboard.press(' ');
  assert.equal(await page.getAttribute('#step-play', 'aria-pressed'), 'false', 'Space pauses');
  const at = await page.inputValue('#step-range');
  await page.waitForTimeout(900);
  assert.equal(await page.inputValue('#step-range'), at, 'paused, it stays');
  // A program that does not read: the last good reading, marked stale.
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('bad = (');
  await ready(page);
  assert.match(await page.textContent('#step-why'), /^The program is refused: these are the steps of the last good reading \(stale\)\.$/, 'stepping on the last reading that did, said so');
  for (const pane of ['check', 'memory'])
    assert.ok(await page.$eval(`#pane-${pane}`, (p) => p.classList.contains('teach-stale')), `the ${pane} tab is marked as of the last reading that read`);
  assert.equal(await page.getAttribute('#verdict', 'data-outcome'), want.check.outcome, 'the check tab keeps that reading\'s verdict');
  await page.focus('#step-range');
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute('#step-range', 'aria-valuetext'), want.steps.at(-1).text);
  // the engine answers for the last reading that read (its worker reads it again)
  await page.waitForSelector(`#stepper[data-states="${steps.length - 1}"]`);
  await page.click('#steps-toggle');
  assert.deepEqual(Object.values(await pictureStates(page)).filter(Boolean), [], 'closed, the picture has no step marks');
  await page.context().close();
});

test('training: Run shows the engine\'s curve and parameters; a step K; a refusal shows the engine\'s error', { skip }, async () => {
  const program = sample('linear-regression.tape');
  const page = await open('train', program, {});
  engine.read(program, {});
  const want = engine.train(20, '0.05');
  assert.equal(want.ran, 1);
  await page.fill('#train-steps', '20');
  await page.fill('#train-rate', '0.05');
  await page.click('#train-run');
  await page.waitForSelector('#train-curve svg');
  // The page's own additions: a name for assistive technology, the cursor at step K.
  const shown = await page.$eval('#train-curve svg', (s) => {
    const copy = s.cloneNode(true);
    copy.querySelector('.train-cursor')?.remove();
    return copy.outerHTML;
  });
  assert.equal(await page.locator('#train-curve svg .train-cursor').count(), 1, 'a cursor at the step looked at');
  const clean = (svg) => svg.replace(/^[\s\S]*?(?=<svg)/, '').replace(/\s(role|aria-label)="[^"]*"/g, '').trim();
  const parse = (svg) => page.evaluate((t) => new XMLSerializer().serializeToString(new DOMParser().parseFromString(t, 'image/svg+xml').documentElement), svg);
  assert.equal(await parse(clean(shown)), await parse(clean(want.svg)), 'the curve is the engine\'s SVG');
  await page.waitForFunction(() => document.querySelector('#train-parameters').textContent !== '');
  assert.equal(await page.textContent('#train-parameters'), want.shown, 'the parameters after the last step, short numbers');
  assert.notEqual(want.shown, want.parameters, 'the short format is not the reading\'s');
  const losses = JSON.parse(want.json).losses;
  // Look at step 5: its loss, and the parameters of a 5-step training.
  engine.read(program, {});
  const five = engine.train(5, '0.05');
  await page.$eval('#train-k', (el) => { el.value = '5'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction((p) => document.querySelector('#train-parameters').textContent === p, five.shown, { timeout: 10000 });
  assert.notEqual(five.shown, want.shown, 'step 5\'s parameters are not the last step\'s');
  assert.equal(await page.textContent('#train-k-text'), `after 5 steps: loss ${engine.shortNumber(losses[5])}`, 'the loss at step 5, short');
  const [cursorX, axis] = await page.$eval('#train-curve svg', (s) => [Number(s.querySelector('.train-cursor').getAttribute('x1')), s.querySelector('.axis').getBBox()].map((v) => (typeof v === 'number' ? v : { x: v.x, width: v.width })));
  assert.ok(Math.abs(cursorX - (axis.x + axis.width * 5 / 20)) < 1e-6, 'the cursor at step 5 of 20 along the axis');
  await page.screenshot({ path: join(shots, 'teach-train.png') });
  // Refused: the engine's reason.
  await page.fill('#train-steps', '20000');
  await page.click('#train-run');
  await page.waitForSelector('#train-error:not([hidden])');
  engine.read(program, {});
  const refused = JSON.parse(engine.train(20000, '0.05').json);
  assert.equal(await page.textContent('#train-error'), `refused: ${refused.error}`);
  await page.fill('#train-steps', '5');
  await page.fill('#train-rate', 'fast');
  await page.click('#train-run');
  await page.waitForSelector('#train-error:not([hidden])');
  engine.read(program, {});
  assert.equal(await page.textContent('#train-error'), `refused: ${JSON.parse(engine.train(5, 'fast').json).error}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('training a program whose NaN stops it: the stop names the node, and clicking selects it', { skip }, async () => {
  const program = 'w = parameter [2]\nx = input [2]\nloss = sum(ln(w * x))\n';
  engine.read(program, {});
  const want = JSON.parse(engine.train(10, '0.1').json);
  assert.ok(want.stopped, 'the engine stops this training');
  const page = await open('train', program, {});
  await page.fill('#train-steps', '10');
  await page.click('#train-run');
  await page.waitForSelector('#train-stop:not([hidden]) button');
  assert.equal(await page.textContent('#train-stop button'), `node ${want.stopped.node} ${want.stopped.op}`);
  assert.equal(await page.textContent('#train-status'), want.summary, 'the engine\'s sentence says where it stopped');
  assert.match(want.summary, new RegExp(`^stopped at step ${want.stopped.step} of 10: node ${want.stopped.node} `));
  await page.click('#train-stop button');
  await page.click('#tab-spec');
  assert.equal(await page.getAttribute('[data-reading="spec"] .sel', 'data-node'), String(want.stopped.node));
  await page.context().close();
});
