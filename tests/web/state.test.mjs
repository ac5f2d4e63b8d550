// Honest state, in headless Chromium: a chosen target or
// observe name the engine did not use is said, with what it used (from the
// engine's JSON); downloads are off, with the reason shown, when there is
// no current reading, and are named after the draft; the summary keeps its
// last good text, marked, while a line is half typed; a missing or broken
// engine or graphviz file gives a plain message; a program read ahead of
// the debounce is never shown before it ends, nor when a key came after
// it, and the readings shown are the typed program's.  Screenshots go to
// TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs.
import { readSamples } from '../../web/samples-manifest.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { editorText, pageSuite, readings, ready } from './browser.mjs';
import { loadEngine } from './engine.mjs';
import { serve } from '../../web/tools/serve.mjs';

const s = pageSuite();   // the browser, opened before the tests and closed after them
const { build, site, shots, samplesDir, skip } = s;
// The linear-regression sample's choice, from the one manifest.
const lrObserve = readSamples(samplesDir).find((x) => x.id === 'linear-regression').observe;

let b, engine;
const cleanup = [];
before(async () => {
  if (skip) return;
  b = await s.open();
  engine = await loadEngine(build);
});
after(() => { for (const f of cleanup) f(); });

const README = () => readFileSync(join(samplesDir, 'readme.tape'), 'utf8');
const expected = (program, choices = {}) => JSON.parse(engine.read(program, choices).json);

async function replaceProgram(page, text) {
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  await ready(page);
}

test('a read ahead of the debounce is shown only when typing pauses, and never for a text typed past', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base + '#program=' + encodeURIComponent('x = 1.0\ny = x * 2\n'));
  await ready(page);
  // Every values text the page ever shows, from here on.
  await page.evaluate(() => {
    window.__values = [];
    const el = document.querySelector('[data-reading="values"]');
    new MutationObserver(() => window.__values.push(el.textContent)).observe(el, { childList: true, subtree: true, characterData: true });
  });
  await page.click('#editor .cm-line:nth-child(2)');
  await page.keyboard.press('End');
  // Pauses longer than the read ahead's (40 ms), shorter than the
  // debounce (120 ms): each intermediate program is read ahead, and none
  // may be shown.
  for (const digit of ['5', '0', '7']) {
    await page.keyboard.type(digit);
    await page.waitForTimeout(75);
  }
  await ready(page);
  const want = expected('x = 1.0\ny = x * 2507\n');
  assert.equal((await readings(page)).values, want.values, 'the typed program’s values');
  const seen = await page.evaluate(() => window.__values);
  for (const v of seen)
    assert.ok(!/\b(25|250)\b/.test(v), `an intermediate program's values were shown: ${v.slice(0, 120)}`);
  assert.equal(await page.evaluate(() => window.toposPlayground.engineRestarts), 0);
});

test('a chosen target or observe the program lost says what is used instead', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);   // the README sample: target loss, observe error
  await ready(page);
  assert.equal(await page.textContent('#choice-note'), '', 'no note while the choices are used');
  const program = '# renamed\nw = parameter 2.0\nz = w * w\n';
  await replaceProgram(page, program);
  const want = expected(program, { target: 'loss', observe: ['error'] });
  assert.equal(want.target, 'z', 'the engine used z');
  assert.deepEqual(want.observe, []);
  assert.equal(await page.textContent('[data-reading="summary"]'), want.summary, 'the summary is the engine’s');
  assert.equal(await page.textContent('#choice-note'),
    'target loss is not in the program: differentiating z instead; observe error is not in the program: observing nothing extra');
  assert.equal(await page.inputValue('#target'), 'loss', 'the choice is kept for when the name comes back');
  assert.equal(await page.$eval('#target option:checked', (o) => o.textContent), 'loss (not in the program; using z)');
  assert.equal(await page.$eval('#observe option:checked', (o) => o.textContent), 'error (not in the program; observing nothing)');
  await page.screenshot({ path: join(shots, 'state-choice-fallback.png') });

  // Observing the target itself: the engine observes nothing extra.
  await page.selectOption('#observe', 'z');
  await ready(page);
  assert.deepEqual(expected(program, { target: 'loss', observe: ['z'] }).observe, []);
  assert.match(await page.textContent('#choice-note'), /observe z is the target itself: observing nothing extra$/);

  // The names come back: the note goes.
  await replaceProgram(page, README());
  await page.selectOption('#observe', 'error');
  await ready(page);
  assert.equal(await page.textContent('#choice-note'), '');
  assert.equal(await page.$eval('#target option:checked', (o) => o.textContent), 'loss');
});

test('downloads are named after the draft, and off with a reason when the program does not read', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  await page.click('.tabs [data-tab="tiled"]');
  let [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-mlir')]);
  assert.equal(download.suggestedFilename(), 'the-readme-sample.mlir');
  assert.equal(readFileSync(await download.path(), 'utf8'), expected(README(), { target: 'loss', observe: ['error'] }).stablehlo);
  await page.selectOption('#sample', 'linear-regression');
  await ready(page);
  [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-svg')]);
  assert.equal(download.suggestedFilename(), 'linear-regression.svg');
  assert.match(readFileSync(await download.path(), 'utf8'), /<svg[\s\S]*<\/svg>\s*$/);

  // A half-typed line: no current reading, so no download, and why.
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('z = loss +');
  await ready(page);
  assert.notDeepEqual(expected(await editorText(page)).diagnostics, [], 'the program does not read');
  for (const id of ['download-mlir', 'download-svg']) {
    assert.ok(await page.isDisabled(`#${id}`), `${id} is off`);
    assert.equal(await page.textContent(`#${id} + .why`), '(no current reading: the program does not read)');
  }
  // The summary keeps its last good text, marked stale.
  const lastGood = expected(readFileSync(join(samplesDir, 'linear-regression.tape'), 'utf8'), { target: 'loss', observe: [lrObserve] }).summary;
  assert.equal(await page.textContent('[data-reading="summary"]'), expected(await editorText(page), { target: 'loss', observe: [lrObserve] }).summary);
  assert.equal(await page.textContent('#summary-stale'), lastGood);
  assert.ok(await page.isVisible('#summary-stale'));
  await page.screenshot({ path: join(shots, 'state-half-typed.png') });
  await page.keyboard.type(' 1.0');
  await ready(page);
  assert.equal(await page.textContent('#summary-stale'), '');
  assert.ok(await page.isEnabled('#download-mlir'));
  assert.equal(await page.textContent('#download-mlir + .why'), '');
});

// A copy of the site with one file missing or broken, served on its own port.
async function brokenSite(change) {
  const dir = mkdtempSync(join(tmpdir(), 'tp-site-'));
  cpSync(site, dir, { recursive: true });
  change(dir);
  const server = await serve(dir, 0);
  cleanup.push(() => { server.close(); rmSync(dir, { recursive: true, force: true }); });
  return `http://127.0.0.1:${server.address().port}/`;
}

test('a missing or broken engine file gives a plain message, and the program is kept', { skip }, async () => {
  const cases = [
    ['tp-engine.wasm missing', (d) => rmSync(join(d, 'tp-engine.wasm')), /^the engine could not be loaded: tp-engine\.wasm could not be fetched \(HTTP 404\)$/],
    ['tp-engine.wasm broken', (d) => writeFileSync(join(d, 'tp-engine.wasm'), 'not wasm'), /^the engine could not be loaded: tp-engine\.wasm is not a working engine \(.+\)$/],
    ['tp-engine.js missing', (d) => rmSync(join(d, 'tp-engine.js')), /^the engine could not be loaded: tp-engine\.js could not be loaded \(.+\)$/],
    ['engine-worker.js missing', (d) => rmSync(join(d, 'engine-worker.js')), /^the engine could not be loaded: .+$/],
  ];
  for (const [what, change, message] of cases) {
    const base = await brokenSite(change);
    const page = await b.page();
    const program = '# kept\nw = parameter 1.0\n';
    await page.goto(base + '#program=' + encodeURIComponent(program));
    await ready(page);
    const shown = await page.textContent('[data-reading="diagnostics"]');
    assert.match(shown, message, what);
    assert.doesNotMatch(shown, /Aborted|RuntimeError: abort/, `${what}: no emscripten abort text`);
    assert.ok(await page.isVisible('#page-problem'), `${what}: the problem is shown at the top`);
    assert.equal(await editorText(page), program, `${what}: the program is kept`);
    assert.ok(await page.isDisabled('#download-mlir'), `${what}: nothing to download`);
    if (what === 'tp-engine.wasm missing') await page.screenshot({ path: join(shots, 'state-engine-missing.png') });
    await page.context().close();
  }
});

test('a missing graphviz file says the picture cannot be drawn, and the text readings still come', { skip }, async () => {
  const base = await brokenSite((d) => rmSync(join(d, 'graph-worker.js')));
  const page = await b.page();
  await page.goto(base + '#tab=picture&program=' + encodeURIComponent(README()));
  await ready(page);
  const shown = await readings(page);
  assert.equal(shown.spec, expected(README()).spec);
  assert.match(await page.textContent('#picture-note'), /^The picture could not be drawn: graphviz could not be loaded \(.+\)$/);
  assert.ok(await page.isDisabled('#download-svg'));
  assert.equal(await page.textContent('#download-svg + .why'), '(the picture could not be drawn)');
  await page.screenshot({ path: join(shots, 'state-graphviz-missing.png') });
  // Another program fails the same way at once, not after a layout's patience.
  await replaceProgram(page, '# other\nv = parameter 2.0\nloss = v * v\n');
  assert.match(await page.textContent('#picture-note'), /graphviz could not be loaded/);
  assert.equal(await page.evaluate(() => window.toposPlayground.graphRestarts), 0);
});
