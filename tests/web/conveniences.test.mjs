// The expected conveniences, in headless Chromium:
// Ctrl+Enter reads now, `?` lists every shortcut (not while typing), a copy
// button on each reading copies its exact text, and "download all" gives
// the engine's whole JSON, the object `topos --json` prints.  (Ctrl+S and
// Ctrl+O are in drafts.test.mjs.)  Screenshots go to TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs; TP_NATIVE_TOPOS, when set, is the native
// `topos` the JSON is also compared with.
import { readSamples } from '../../web/samples-manifest.mjs';
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { READINGS, editorText, pageSuite, ready } from './browser.mjs';
import { loadEngine } from './engine.mjs';

const s = pageSuite();   // the browser, opened before the tests and closed after them
const { build, site, shots, samplesDir, skip } = s;
// The linear-regression sample's choice, from the one manifest.
const lrObserve = readSamples(samplesDir).find((x) => x.id === 'linear-regression').observe;

let b, engine;
before(async () => {
  if (skip) return;
  b = await s.open();
  engine = await loadEngine(build);
});

const README = () => readFileSync(join(samplesDir, 'readme.tape'), 'utf8');

test('Ctrl+Enter reads now; ? lists every shortcut, but types ? in the editor', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('z = loss * 3.0');
  await page.keyboard.press('Control+Enter');
  await ready(page);
  assert.equal(await page.evaluate(() => window.toposPlayground.readsNow), 1, 'Ctrl+Enter asked for a reading');
  const program = README() + 'z = loss * 3.0';
  assert.equal(await editorText(page), program, 'Ctrl+Enter added no line');
  assert.equal(await page.textContent('[data-reading="spec"]'), JSON.parse(engine.read(program, { target: 'loss', observe: ['error'] }).json).spec);

  // In the editor, ? is a character.
  await page.keyboard.type(' # ?');
  await ready(page);
  assert.ok(await page.isHidden('#keys'), 'no list while typing');
  assert.ok((await editorText(page)).endsWith('# ?'));

  // Outside it, ? opens the list; Escape closes it and focus comes back.
  await page.focus('#share');
  await page.keyboard.press('?');
  assert.ok(await page.isVisible('#keys'));
  const listed = await page.textContent('#keys dl');
  for (const k of ['Ctrl+Enter', 'Ctrl+S', 'Ctrl+O', 'Ctrl+Z', 'Ctrl+Shift+Z', '?', 'Esc', '← →'])
    assert.ok(listed.replace(/\s*\+\s*/g, '+').includes(k), `the list names ${k}`);
  await page.screenshot({ path: join(shots, 'keys-dialog.png') });
  await page.keyboard.press('Escape');
  assert.ok(await page.isHidden('#keys'));
  assert.equal(await page.evaluate(() => document.activeElement.id), 'share', 'focus is back where it was');
  // The keys button opens it too.
  await page.click('#keys-open');
  assert.ok(await page.isVisible('#keys'));
  await page.click('#keys-close');
  assert.ok(await page.isHidden('#keys'));
});

test('each reading has a copy button that copies its exact text', { skip }, async () => {
  const page = await b.page();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(b.base).origin });
  const mlp = readFileSync(join(samplesDir, 'mlp.tape'), 'utf8');
  await page.goto(b.base + '#tab=tiled&target=loss&observe=hidden&program=' + encodeURIComponent(mlp));
  await ready(page);
  const want = JSON.parse(engine.read(mlp, { target: 'loss', observe: ['hidden'] }).json);
  for (const r of READINGS) {
    const button = page.locator(`button[data-copy="${r}"]`);
    assert.equal(await button.count(), 1, `one copy button for ${r}`);
    assert.match(await button.getAttribute('aria-label'), /^copy the /);
    await page.evaluate(() => navigator.clipboard.writeText('-'));
    await button.click();
    await page.waitForFunction(() => /^copied the /.test(document.querySelector('#notice').textContent));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    if (r === 'picture') assert.match(copied, /^(<\?xml[\s\S]*?)?<svg[\s\S]*<\/svg>\s*$/, 'the picture copies as SVG');
    else assert.equal(copied, want[r], `the ${r} reading is copied exactly`);
    await page.evaluate(() => { document.querySelector('#notice').textContent = ''; });
  }
  // A program that does not read: nothing current to copy, and why.
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('oops = (');
  await ready(page);
  assert.ok(await page.isDisabled('button[data-copy="spec"]'));
  assert.equal(await page.textContent('button[data-copy="spec"] + .why'), '(no current reading: the program does not read)');
  await page.screenshot({ path: join(shots, 'copy-refused.png') });
});

test('download all gives the engine’s whole JSON, as topos --json prints it', { skip }, async (t) => {
  const page = await b.page();
  const lr = readFileSync(join(samplesDir, 'linear-regression.tape'), 'utf8');
  await page.goto(b.base);
  await ready(page);
  await page.selectOption('#sample', 'linear-regression');
  await ready(page);
  await page.check('#exact');
  await ready(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
  assert.equal(download.suggestedFilename(), 'linear-regression.json');
  const text = readFileSync(await download.path(), 'utf8');
  const wasm = engine.read(lr, { target: 'loss', observe: [lrObserve], exact: true }).json;
  assert.equal(text, wasm, 'the engine’s JSON text, byte for byte');
  const parsed = JSON.parse(text);
  for (const k of ['spec', 'derivative', 'plan', 'stablehlo', 'values', 'dot', 'summary', 'tensors', 'names'])
    assert.ok(k in parsed, `the JSON has ${k}`);
  if (process.env.TP_NATIVE_TOPOS) {
    const dir = mkdtempSync(join(tmpdir(), 'tp-json-'));
    writeFileSync(join(dir, 'p.tape'), lr);
    const native = execFileSync(process.env.TP_NATIVE_TOPOS,
      ['--json', '--target', 'loss', '--observe', lrObserve, '--exact', join(dir, 'p.tape')], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(parsed, JSON.parse(native), 'the same object as the native topos --json');
  } else {
    t.diagnostic('TP_NATIVE_TOPOS is not set: compared with the wasm engine only');
  }
  // Not while the program does not read.
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('bad = ');
  await ready(page);
  assert.ok(await page.isDisabled('#download-json'));
  assert.equal(await page.textContent('#download-json + .why'), '(no current reading: the program does not read)');
});

test('the picture: Ctrl+wheel zooms, a drag pans, a double click, 0 and fit show it whole, + − on the focused picture', { skip }, async () => {
  const page = await b.page({ viewport: { width: 1280, height: 800 } });
  const mlp = readFileSync(join(samplesDir, 'mlp.tape'), 'utf8');
  await page.goto(b.base + '#tab=picture&target=loss&program=' + encodeURIComponent(mlp));
  await ready(page);
  const scale = () => page.$eval('[data-reading="picture"]', (e) => Number(e.dataset.scale));
  const scroll = () => page.$eval('.picture-scroll', (e) => [e.scrollLeft, e.scrollTop]);
  const fit = await scale();
  assert.ok(fit > 0, 'the picture opens fitted');
  const box = await page.locator('.picture-scroll').boundingBox();
  const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

  // Ctrl+wheel up zooms in; a plain wheel does not zoom.
  await page.mouse.move(mid.x, mid.y);
  await page.mouse.wheel(0, -100);
  assert.equal(await scale(), fit, 'a plain wheel scrolls, it does not zoom');
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await page.waitForFunction((f) => Number(document.querySelector('[data-reading="picture"]').dataset.scale) > f, fit);
  const zoomed = await scale();
  assert.ok(Math.abs(zoomed - Math.min(4, fit * 1.15 * 1.15)) < 0.01, `two steps of 1.15 (${fit} -> ${zoomed})`);

  // A drag pans and selects nothing.
  const [l0, t0] = await scroll();
  await page.mouse.move(mid.x, mid.y);
  await page.mouse.down();
  await page.mouse.move(mid.x - 120, mid.y - 80, { steps: 6 });
  await page.mouse.up();
  const [l1, t1] = await scroll();
  assert.ok(l1 > l0 || t1 > t0, `the drag moved the picture (${l0},${t0} -> ${l1},${t1})`);
  assert.equal(await page.locator('.sel').count(), 0, 'a drag is not a click');
  await page.screenshot({ path: join(shots, 'picture-zoomed-panned.png') });

  // A double click shows the whole picture: it fits in its box.
  const whole = () => page.evaluate(() => {
    const box = document.querySelector('.picture-scroll').getBoundingClientRect();
    const svg = document.querySelector('[data-reading="picture"] svg').getBoundingClientRect();
    return svg.left >= box.left && svg.right <= box.right && svg.top >= box.top && svg.bottom <= box.bottom;
  });
  assert.ok(!(await whole()), 'zoomed in, the picture is bigger than its box');
  await page.mouse.dblclick(mid.x, mid.y);
  const all = await scale();
  assert.ok(all < fit, `the whole MLP picture is smaller than its readable opening (${all} < ${fit})`);
  assert.equal(await page.$eval('[data-reading="picture"]', (e) => e.dataset.zoom), 'fit');
  assert.ok(await whole(), 'a double click shows the whole picture');

  // Keys on the focused picture.
  await page.focus('.picture-scroll');
  await page.keyboard.press('+');
  assert.ok(Math.abs((await scale()) - all * 1.25) < 0.01, '+ zooms in');
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  assert.ok(Math.abs((await scale()) - all / 1.25) < 0.01, '− zooms out');
  await page.keyboard.press('0');
  assert.equal(await scale(), all, '0 shows the whole picture');
  assert.ok(await whole());
  // The fit button too, after a zoom.
  await page.keyboard.press('+');
  await page.click('#zoom-fit');
  assert.equal(await scale(), all, 'fit shows the whole picture');
});
