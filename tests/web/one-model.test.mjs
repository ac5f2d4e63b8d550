// One teaching model (issue 23): the page shows the engine's teaching
// facts and composes none of its own, each checked in headless Chromium
// against the native engine's own JSON (TP_NATIVE_TOPOS): at every step
// of a sample the step-through shows exactly the engine's steps[k].text;
// the Train control starts from the program's own `# train it:` line
// (JSON train_settings, the engine's defaults without one) and Reset
// returns to them; a training whose loss blows up shows only short
// labels and numbers (the engine's short format); the live region says
// the engine's announcement.  Screenshots go to
// TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs, and TP_NATIVE_TOPOS (the native topos).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { editorText, pageSuite, ready } from './browser.mjs';
import { unmet } from './prereq.mjs';

const s = pageSuite();
const topos = process.env.TP_NATIVE_TOPOS;
const skip = s.skip || unmet(!topos || !existsSync(topos) ? 'TP_NATIVE_TOPOS does not name the native topos' : false);

let b;
before(async () => { if (!skip) b = await s.open(); });

const DESKTOP = { width: 1280, height: 720 };

// The native engine's JSON of a program (its text on standard input).
function nativeJson(program, ...args) {
  return JSON.parse(execFileSync(topos, [...args, '-'], { input: program, encoding: 'utf8', maxBuffer: 1 << 26 }));
}

async function open(tab, program) {
  const page = await b.page({ viewport: DESKTOP });
  await page.goto(b.base + `#tab=${tab}&program=` + encodeURIComponent(program));
  await ready(page);
  return page;
}

// Steps k of the step-through by keyboard, waiting for the engine's node
// states of that step (the stepper's data-states).
async function stepTo(page, k) {
  await page.keyboard.press(k === 0 ? 'Home' : 'ArrowRight');
  await page.waitForSelector(`#stepper[data-states="${k}"]`, { timeout: 10000 });
}

for (const sample of ['readme', 'xor']) {
  test(`${sample}: at every step the page shows exactly the engine's steps[k].text`, { skip }, async () => {
    const program = s.sample(sample);
    const want = nativeJson(program, '--json=steps,memory').steps;
    assert.ok(want.length > 10 && want.some((x) => / adds share /.test(x.text)), 'the sample has steps and shares');
    const page = await open('picture', program);
    await page.click('#steps-toggle');
    for (let k = 0; k < want.length; k++) {
      await stepTo(page, k);
      assert.equal(await page.textContent('#step-text'), want[k].text, `step ${k + 1}: the engine's sentence`);
      assert.equal(await page.getAttribute('#step-range', 'aria-valuetext'), want[k].text, `step ${k + 1}: the scrubber says it too`);
      if (sample === 'readme' && k === 11) await page.screenshot({ path: join(s.shots, 'model-step.png') });
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the Train control starts at the program\'s own settings (or the engine\'s defaults) and Reset returns to them', { skip }, async () => {
  const xor = s.sample('xor');
  const own = nativeJson(xor, '--json=train_settings').train_settings;
  assert.equal(own.from_program, true, 'the xor sample has a `# train it:` line');
  const page = await open('train', xor);
  const fields = async () => [await page.inputValue('#train-steps'), await page.inputValue('#train-rate')];
  assert.deepEqual(await fields(), [String(own.steps), own.learning_rate], 'the fields start at the header\'s settings');
  await page.fill('#train-steps', '3');
  await page.fill('#train-rate', '0.01');
  await page.click('#train-run');
  await page.waitForSelector('#train-curve svg');
  assert.match(await page.textContent('#train-status'), /^trained 3 steps: /, 'the run used the values typed');
  await page.click('#train-reset');
  assert.deepEqual(await fields(), [String(own.steps), own.learning_rate], 'Reset returns to them');
  assert.equal(await page.locator('#train-curve svg').count(), 0, 'and drops the training');
  // A program without the line: the engine's defaults.
  const readme = s.sample('readme');
  const { train_settings: none, defaults } = nativeJson(readme, '--json=train_settings,defaults');
  assert.equal(none.from_program, false);
  await page.goto(b.base + '#tab=train&program=' + encodeURIComponent(readme));
  await ready(page);
  assert.deepEqual(await fields(), [String(defaults.train_steps), defaults.train_rate], 'the engine\'s defaults');
  // Editing the program's own line puts its new settings in.
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('# train it: topos --train 7 --learning-rate 0.05\n');
  await ready(page);
  assert.deepEqual(await fields(), ['7', '0.05'], 'the edited line\'s settings');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a training whose loss blows up: every label and number the train tab shows is short', { skip }, async () => {
  const readme = s.sample('readme');
  const want = nativeJson(readme, '--train', '10', '--learning-rate', '5', '--json').train;
  assert.match(want.summary, /e3\d$/, `the loss blows up (${want.summary})`);
  const page = await open('train', readme);
  await page.fill('#train-steps', '10');
  await page.fill('#train-rate', '5');
  await page.click('#train-run');
  await page.waitForSelector('#train-curve svg');
  await page.waitForFunction(() => document.querySelector('#train-k-text').textContent !== '');
  assert.equal(await page.textContent('#train-status'), want.summary, 'the engine\'s sentence heads it');
  const titles = new Set([want.chart.title, want.chart.x_title, want.chart.y_title]);
  const labels = (await page.$$eval('#train-curve svg text', (ts) => ts.map((t) => t.textContent))).filter((t) => !titles.has(t));
  assert.deepEqual(labels.sort(), [...want.chart.x_ticks, ...want.chart.y_ticks].map((t) => t.label).sort(), 'the labels are the engine\'s ticks');
  for (const l of labels) assert.ok(l.length <= 10, `label ${JSON.stringify(l)} is short`);
  // The loss at the last step, in the short format the summary uses.
  const last = want.summary.split(' to ').at(-1);
  assert.equal(await page.textContent('#train-k-text'), `after 10 steps: loss ${last}`);
  await page.screenshot({ path: join(s.shots, 'model-train-blow-up.png') });
  // Another step's loss, short too.
  await page.$eval('#train-k', (el) => { el.value = '9'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction(() => document.querySelector('#train-k-text').textContent.startsWith('after 9 steps: loss '));
  const shown = (await page.textContent('#train-k-text')).slice('after 9 steps: loss '.length);
  assert.match(shown, /^\d(\.\d)?e\d+$/, `the loss at step 9 is short (${shown})`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a picture node\'s card: the engine\'s display name and its numbers short', { skip }, async () => {
  const program = 'w = parameter [2]\nbig = w * 100000000000000000000000000000000000.0\nalias = big\nloss = sum(big)\n';
  const want = nativeJson(program, '--json=display_names,nodes');
  const node = want.display_names.indexOf('big');
  assert.ok(node > 0 && want.nodes[node].data.every((x) => x > 1e33), 'its elements are huge (the readings write them in 35 digits)');
  const page = await open('picture', program);
  await page.hover(`[data-reading="picture"] g.node[data-node="${node}"]`);
  await page.waitForSelector('#picture-card:not([hidden])');
  const card = await page.textContent('#picture-card');
  assert.match(card, new RegExp(`^${node} Mul big`), `the first statement naming it names it (${card})`);
  const row = await page.$$eval('#picture-card > span', (els) => els.map((e) => e.textContent).find((t) => t.startsWith('value: ')));
  const m = /^value: 2 elements, from (\S+) to (\S+)$/.exec(row ?? '');
  assert.ok(m, `the card has the value's range (${row})`);
  for (const v of m.slice(1)) assert.match(v, /^\d(\.\d)?e\d+$/, `${v}: the short format`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The names beside the tape (issue 24): each spec, derivative and plan
// line that stands for a node has the engine's display name beside it,
// drawn by the style sheet, so the reading's text stays the engine's.
test('names beside the tape: the engine\'s display names beside the spec, derivative and plan lines, outside the text', { skip }, async () => {
  const program = s.sample('mlp');
  const want = nativeJson(program, '--json=display_names,spec,derivative,plan');
  const page = await open('spec', program);
  for (const tab of ['spec', 'derivative', 'plan']) {
    await page.click(`#tab-${tab}`);
    await ready(page);
    assert.equal(await page.textContent(`[data-reading="${tab}"]`), want[tab], `${tab}: the text is the engine's`);
    const lines = await page.$$eval(`[data-reading="${tab}"] > span`, (spans) => spans.map((sp) => ({
      name: sp.dataset.name,
      node: sp.querySelector('.ir-line')?.dataset.node ?? null,
      shown: getComputedStyle(sp, '::before').content,
    })));
    assert.ok(lines.length > 10);
    let named = 0;
    for (const l of lines) {
      const name = l.node === null ? '' : (want.display_names[Number(l.node)] ?? '');
      assert.equal(l.name, name.length > 16 ? [...name].slice(0, 15).join('') + '…' : name, `${tab}: node ${l.node}`);
      if (name) {
        named++;
        assert.equal(l.shown, JSON.stringify(l.name), `${tab}: node ${l.node}'s name is drawn`);
      }
    }
    assert.ok(named >= 5, `${tab}: the statements are named`);
  }
  await page.click('#tab-spec');
  await page.screenshot({ path: join(s.shots, 'model-names.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Apply (issue 24): the parameters after the step looked at, written into
// the program by the engine (tp_train_apply), go into the editor as one
// edit; the readings are then the new program's (XOR's predictions), and
// Ctrl+Z takes the edit back whole.
test('apply to the program: the trained XOR written in by the engine, read again; Ctrl+Z takes it back', { skip }, async () => {
  const program = s.sample('xor');
  const page = await open('train', program);
  await page.click('#train-run');
  await page.waitForSelector('#train-curve svg', { timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('#train-parameters').textContent !== '');
  await page.click('#train-apply');
  await page.waitForFunction(() => document.querySelector('#train-status').textContent.startsWith('the parameters after '));
  const applied = await editorText(page);
  assert.notEqual(applied, program, 'the program changed');
  assert.match(await page.textContent('#train-status'), /^the parameters after 1000 steps are in the program: Ctrl\+Z takes them back$/);
  await ready(page);
  await page.click('#tab-values');
  await ready(page);
  const values = execFileSync(topos, ['--reading', 'values', '-'], { input: applied, encoding: 'utf8' });
  assert.equal(await page.textContent('[data-reading="values"]'), values, 'the values are the applied program\'s');
  // XOR learned: the predictions round to 0, 1, 1, 0
  const prediction = nativeJson(applied, '--json=tensors').tensors.prediction.data;
  assert.deepEqual(prediction.map((v) => Math.round(v)), [0, 1, 1, 0], 'XOR: 0, 1, 1, 0');
  await page.click('#tab-train');
  await page.screenshot({ path: join(s.shots, 'model-apply.png') });
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+z');
  assert.equal(await editorText(page), program, 'Ctrl+Z: the program as it was');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the live region says the engine\'s announcement: the summary\'s first line, or the first diagnostic with its place', { skip }, async () => {
  const good = 'x = input [2]\nw = parameter [2]\nloss = sum(tanh(x * w))\n';
  const page = await open('spec', good);
  await page.waitForFunction(() => document.querySelector('#announce').textContent !== '', null, { timeout: 10000 });
  assert.equal(await page.textContent('#announce'), nativeJson(good, '--json=announcement').announcement,
               'what a reading program says');
  // A refused program: topos exits 1, its JSON still on standard output.
  const bad = 'x = input [2]\ny = (\n';
  let out;
  try {
    out = execFileSync(topos, ['--json=announcement', '-'], { input: bad, encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] });
  } catch (e) {
    out = e.stdout;
  }
  const announcement = JSON.parse(out).announcement;
  assert.match(announcement, /^line 2, column \d+: /);
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(bad);
  assert.equal(await editorText(page), bad);
  await ready(page);
  await page.waitForFunction((text) => document.querySelector('#announce').textContent === text, announcement, { timeout: 10000 });
  await page.context().close();
});
