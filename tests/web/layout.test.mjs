// Layout and print, in headless Chromium: "the language
// in brief" never overlaps anything, nor is overlapped, at 1280x720 and
// 1280x800 at every text size the A-/A+ buttons give, and at 390x844; the
// summary and the tabs stay apart; on a phone nothing is wider than the
// window and every target is at least 44 px; printing gives the program
// and all six readings in full, with no controls.  Screenshots and the PDF
// go to TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs; pdftotext (poppler-utils) reads the PDF.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { READINGS, pageSuite, ready } from './browser.mjs';
import { loadEngine } from './engine.mjs';

const s = pageSuite();   // the browser, opened before the tests and closed after them
const { build, site, shots, samplesDir, skip } = s;
const SIZES = { min: 11, max: 26 };   // main.js's setFontSize bounds

let b, engine;
before(async () => {
  if (skip) return;
  b = await s.open();
  engine = await loadEngine(build);
});

// What overlaps what, in the page as drawn now.  The cheatsheet's parts
// count only where they are visible (its column scrolls when too tall).
function measure(page) {
  return page.evaluate(() => {
    const box = (el) => { const r = el.getBoundingClientRect(); return { t: r.top, b: r.bottom, l: r.left, r: r.right }; };
    const q = (s) => document.querySelector(s);
    const meet = (a, c) => a.l < c.r - 0.5 && c.l < a.r - 0.5 && a.t < c.b - 0.5 && c.t < a.b - 0.5;
    const source = box(q('.source'));
    const clips = getComputedStyle(q('.source')).overflowY !== 'visible';
    const clip = (a) => !clips ? a : ({ t: Math.max(a.t, source.t), b: Math.min(a.b, source.b), l: Math.max(a.l, source.l), r: Math.min(a.r, source.r) });
    const sheet = [...q('.cheatsheet').querySelectorAll('summary, dt, dd, p')].map((e) => clip(box(e))).filter((a) => a.b > a.t);
    const others = { footer: box(q('footer')), header: box(q('header.top')), readings: box(q('.readings')), editor: box(q('#editor')), diagnostics: box(q('.diagnostics-box')) };
    const hits = [];
    for (const [name, o] of Object.entries(others)) if (sheet.some((a) => meet(a, o))) hits.push(`cheatsheet/${name}`);
    for (const col of ['.source', '.readings']) for (const n of ['footer', 'header']) if (meet(box(q(col)), others[n])) hits.push(`${col}/${n}`);
    if (meet(box(q('.summary')), box(q('.tabs')))) hits.push('summary/tabs');
    if (meet(box(q('.choices')), box(q('.summary')))) hits.push('choices/summary');
    return { hits, sheetVisible: sheet.length, fs: getComputedStyle(document.documentElement).getPropertyValue('--fs').trim(),
      overflow: document.documentElement.scrollWidth - window.innerWidth };
  });
}

async function toSize(page, px) {
  for (let i = 0; i < 20; i++) await page.click('#smaller');
  for (let fs = SIZES.min; fs < px; fs++) await page.click('#larger');
}

for (const viewport of [{ width: 1280, height: 720 }, { width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`the cheatsheet overlaps nothing at ${viewport.width}x${viewport.height}, at every text size`, { skip }, async () => {
    const page = await b.page({ viewport });
    await page.goto(b.base);
    await ready(page);
    await page.click('.cheatsheet summary');
    assert.ok(await page.isVisible('.cheatsheet dl'), 'the cheatsheet is open');
    await toSize(page, SIZES.min);
    for (let fs = SIZES.min; ; fs++) {
      // As a reader would: scroll the open cheatsheet into view.
      await page.locator('.cheatsheet dl').scrollIntoViewIfNeeded();
      const m = await measure(page);
      assert.equal(m.fs, `${fs}px`, 'the text size the buttons gave');
      assert.deepEqual(m.hits, [], `${viewport.width}x${viewport.height} at ${fs} px: nothing overlaps`);
      assert.ok(m.sheetVisible > 0, 'some of the cheatsheet is on screen');
      if (viewport.width < 900) assert.equal(m.overflow, 0, `${fs} px: the page is no wider than the window`);
      if (fs === 14 || fs === SIZES.max) await page.screenshot({ path: join(shots, `layout-${viewport.width}x${viewport.height}-${fs}px.png`) });
      if (fs === SIZES.max) break;
      await page.click('#larger');
    }
  });
}

test('on a phone every target is at least 44 px and nothing is wider than the window', { skip }, async () => {
  const page = await b.page({ viewport: { width: 390, height: 844 } });
  const mlp = readFileSync(join(samplesDir, 'mlp.tape'), 'utf8');
  await page.goto(b.base + '#tab=tiled&target=loss&program=' + encodeURIComponent(mlp));
  await ready(page);
  await page.click('#drafts-toggle');   // the drafts list's buttons too
  const small = await page.evaluate(() => [...document.querySelectorAll('button, select, summary, .check, a[href]')]
    .filter((e) => e.offsetParent !== null || e.closest('dialog[open]'))
    .map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.dataset.copy || e.dataset.tab || e.textContent.trim().slice(0, 20), Math.round(r.width), Math.round(r.height)]; })
    .filter(([, w, h]) => w < 44 || h < 44));
  assert.deepEqual(small, [], 'no target smaller than 44x44 px');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'no horizontal overflow');
  await page.screenshot({ path: join(shots, 'layout-phone-tiled.png'), fullPage: true });
});

// The text of a PDF, with all white space dropped: the page's wrapping of
// long lines must not matter, its losing text must.
function pdfText(pdf) {
  const path = join(shots, 'print.pdf');
  writeFileSync(path, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
}
const squeeze = (s) => s.replace(/\s+/g, '');

test('printing gives the program and all six readings in full, with no controls', { skip }, async () => {
  const page = await b.page({ viewport: { width: 1280, height: 800 } });
  const program = readFileSync(join(samplesDir, 'attention.tape'), 'utf8');
  await page.goto(b.base + '#target=loss&observe=weights&program=' + encodeURIComponent(program));   // one tab shown
  await ready(page);
  const want = JSON.parse(engine.read(program, { target: 'loss', observe: ['weights'] }).json);
  const labels = await page.$$eval('[data-reading="picture"] svg text', (ts) => ts.map((t) => t.textContent));
  assert.ok(labels.length > 10, 'the picture is drawn');

  await page.emulateMedia({ media: 'print' });
  const clipped = await page.evaluate(() => [...document.querySelectorAll('pre.ir[data-reading], .print-program')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().height === 0)
    .map((e) => e.dataset.reading || e.className));
  assert.deepEqual(clipped, [], 'in print every reading is laid out in full width');
  const text = pdfText(await page.pdf({ format: 'A4', printBackground: false }));
  const flat = squeeze(text);
  assert.ok(flat.includes(squeeze(program)), 'the whole program is printed');
  for (const r of ['spec', 'derivative', 'plan', 'stablehlo', 'values', 'summary'])
    assert.ok(flat.includes(squeeze(want[r])), `the whole ${r} reading is printed`);
  for (const l of labels) assert.ok(flat.includes(squeeze(l)), `the picture's label ${JSON.stringify(l)} is printed`);
  for (const control of ['copy link', 'download', 'all six', 'drafts (', 'the language in brief'])
    assert.ok(!text.includes(control), `no ${control} control is printed`);
  await page.screenshot({ path: join(shots, 'print-preview.png'), fullPage: true });
});

test('on a phone the readings are one tap away, and a diagnostic shows beside them', { skip }, async () => {
  const page = await b.page({ viewport: { width: 390, height: 844 } });
  await page.goto(b.base);
  await ready(page);
  const inView = (sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; });
  assert.equal(await inView('.tabs'), false, 'the tabs start below the editor');
  await page.click('#to-readings');
  assert.ok(await inView('.tabs'), 'one tap brings the tabs into view');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.tab), 'spec', 'focus is on the tab being read');

  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('bad = loss + [3]');
  await ready(page);
  const first = (await page.textContent('[data-reading="diagnostics"]')).split('\n')[0];
  const m = /^(\d+):(\d+): (.*)$/.exec(first);
  assert.ok(m, 'there is a diagnostic');
  await page.click('#to-readings');
  assert.ok(await page.isVisible('#diagnostic-near'));
  assert.equal(await page.textContent('#diagnostic-near'), `line ${m[1]}, column ${m[2]}: ${m[3]}`);
  assert.ok(await inView('#diagnostic-near'), 'the diagnostic is on screen with the readings');
  await page.screenshot({ path: join(shots, 'layout-phone-diagnostic.png') });
  // It goes to the line.
  await page.click('#diagnostic-near');
  assert.ok(await page.evaluate(() => document.activeElement.closest('.cm-editor') !== null), 'the editor has the focus');
  assert.ok(await inView('#editor .cm-activeLine'), 'the line is on screen');
  assert.equal(await page.textContent('#editor .cm-activeLine'), 'bad = loss + [3]');

  // On a wide screen the editor is beside the readings: no copy, no button.
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.ok(await page.isHidden('#diagnostic-near'));
  assert.ok(await page.isHidden('#to-readings'));
});
