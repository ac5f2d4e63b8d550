// Accessibility, in headless Chromium: axe-core
// (an npm test dependency, from the build's npm folder) finds no serious or
// critical violation in every state: the README sample, a refused program,
// "all six", dark with the error tooltip open, a phone, the drafts list,
// the shortcuts list, the Lessons panel (a question answered, a phone,
// the solution's confirmation), the check, memory (stepping) and train tabs in light
// and dark, and the storage warning.  Tabs and panels name each
// other.  Screenshots go to TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { pageSuite, ready } from './browser.mjs';

const s = pageSuite();   // the browser, opened before the tests and closed after them
const { build, site, shots, samplesDir, skip } = s;
const axePath = join(build || '.', 'npm', 'node_modules', 'axe-core', 'axe.min.js');

let b, axe;
before(async () => {
  if (skip) return;
  b = await s.open();
  axe = readFileSync(axePath, 'utf8');   // a missing axe-core fails the test, it is not skipped
});

const README = () => readFileSync(join(samplesDir, 'readme.tape'), 'utf8');
const NAN = () => readFileSync(join(samplesDir, 'where-does-the-nan-come-from.tape'), 'utf8');

// Runs axe in the page (evaluated through the devtools protocol: the page's
// CSP rightly refuses an injected script) and returns the serious and
// critical violations, each with a few of its elements.
async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`).join('; ')}`);
  });
}

const STATES = [
  ['the README sample', {}, (p) => p.goto(b.base)],
  ['a refused program', {}, (p) => p.goto(b.base + '#program=' + encodeURIComponent(README() + 'bad = (\n'))],
  ['all six', {}, (p) => p.goto(b.base + '#tab=tiled&target=loss&observe=error&program=' + encodeURIComponent(README()))],
  ['dark, the error tooltip open', { colorScheme: 'dark' }, async (p) => {
    await p.goto(b.base + '#program=' + encodeURIComponent(README() + 'bad = loss + [3]\n'));
    await ready(p);
    await p.hover('#editor .cm-lintRange-error');
    await p.waitForSelector('#editor .cm-tooltip-lint');
  }],
  ['dark, all six', { colorScheme: 'dark' }, (p) => p.goto(b.base + '#tab=tiled&program=' + encodeURIComponent(README()))],
  ['a phone', { viewport: { width: 390, height: 844 } }, (p) => p.goto(b.base + '#tab=values&program=' + encodeURIComponent(README()))],
  ['the drafts list open', {}, async (p) => { await p.goto(b.base); await ready(p); await p.click('#drafts-toggle'); }],
  ['the shortcuts list open', {}, async (p) => { await p.goto(b.base); await ready(p); await p.click('#keys-open'); }],
  ...['light', 'dark'].flatMap((scheme) => [
    [`${scheme}, the check tab of a NaN`, { colorScheme: scheme }, (p) => p.goto(b.base + '#tab=check&program=' + encodeURIComponent(NAN()))],
    [`${scheme}, the memory chart, stepping`, { colorScheme: scheme }, async (p) => {
      await p.goto(b.base + '#tab=memory&target=loss&observe=error&program=' + encodeURIComponent(README()));
      await ready(p);
      await p.click('#steps-toggle');
      for (let i = 0; i < 10; i++) await p.keyboard.press('ArrowRight');
    }],
    [`${scheme}, the picture, stepping`, { colorScheme: scheme }, async (p) => {
      await p.goto(b.base + '#tab=picture&target=loss&observe=error&program=' + encodeURIComponent(README()));
      await ready(p);
      await p.click('#steps-toggle');
      for (let i = 0; i < 10; i++) await p.keyboard.press('ArrowRight');
    }],
    [`${scheme}, the train tab after a run`, { colorScheme: scheme }, async (p) => {
      await p.goto(b.base + '#tab=train&program=' + encodeURIComponent(README()));
      await ready(p);
      await p.click('#train-run');
      await p.waitForSelector('#train-curve svg');
      await p.waitForFunction(() => document.querySelector('#train-parameters').textContent !== '');
    }],
    [`${scheme}, a refused training`, { colorScheme: scheme }, async (p) => {
      await p.goto(b.base + '#tab=train&program=' + encodeURIComponent(README()));
      await ready(p);
      await p.fill('#train-steps', '20000');
      await p.click('#train-run');
      await p.waitForSelector('#train-error:not([hidden])');
    }],
  ]),
  ['the Lessons panel open, a question answered', {}, async (p) => {
    await p.goto(b.base);
    await ready(p);
    await p.click('#lessons-toggle');
    await p.waitForSelector('#lesson-goals li[data-state="unmet"]');
    await p.check('#lesson-goals input[type="radio"] >> nth=2');
    await p.click('#lesson-hint');
  }],
  ['dark, the Lessons panel on a phone', { colorScheme: 'dark', viewport: { width: 390, height: 844 } }, async (p) => {
    await p.goto(b.base);
    await ready(p);
    await p.click('#lessons-toggle');
    await p.waitForSelector('#lesson-goals li[data-state="unmet"]');
  }],
  ['the solution confirmation open', {}, async (p) => {
    await p.goto(b.base);
    await ready(p);
    await p.click('#lessons-toggle');
    await p.waitForSelector('#lesson-goals li[data-state="unmet"]');
    await p.click('#lesson-solution');
  }],
  ['the language reference', {}, (p) => p.goto(b.base + 'reference.html')],
  ['dark, the language reference on a phone', { colorScheme: 'dark', viewport: { width: 390, height: 844 } }, (p) => p.goto(b.base + 'reference.html')],
  ['the storage warning', {}, async (p) => {
    await p.addInitScript(() => Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('no', 'SecurityError'); } }));
    await p.goto(b.base);
  }],
];

for (const [what, options, open] of STATES) {
  test(`axe: no serious or critical violation: ${what}`, { skip }, async () => {
    const page = await b.page(options);
    await open(page);
    await ready(page);
    const found = await violations(page);
    await page.screenshot({ path: join(shots, `a11y-${what.replace(/[^a-z0-9]+/gi, '-')}.png`) });
    assert.deepEqual(found, [], what);
    await page.context().close();
  });
}

test('tabs and panels name each other; one tab stop, arrows move between tabs', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  const pairs = await page.$$eval('.tabs [role="tab"]:not(.tiled-tab)', (tabs) => tabs.map((t) => {
    const panel = document.getElementById(t.getAttribute('aria-controls'));
    return [t.id, panel?.getAttribute('role'), panel?.getAttribute('aria-labelledby')];
  }));
  for (const [id, role, labelledBy] of pairs) {
    assert.equal(role, 'tabpanel', `${id} controls a tab panel`);
    assert.equal(labelledBy, id, `that panel is named by ${id}`);
  }
  assert.equal(pairs.length, 12, 'the six readings, check, memory, train, optimised, fusion and forward');
  assert.deepEqual(await page.$$eval('.tabs [role="tab"]', (ts) => ts.filter((t) => t.tabIndex === 0).map((t) => t.dataset.tab)), ['spec']);
  await page.focus('#tab-spec');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-derivative');
  assert.deepEqual(await page.$$eval('.tabs [role="tab"]', (ts) => ts.filter((t) => t.tabIndex === 0).map((t) => t.dataset.tab)), ['derivative']);
  // Then the pane's copy button, then its reading's scroll box.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'copy the derivative reading');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'the derivative reading, scrollable');
});

test('the picture has a text alternative: its nodes and edges as a list', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base + '#tab=picture&target=loss&observe=error&program=' + encodeURIComponent(README()));
  await ready(page);
  const dot = await page.evaluate(() => document.querySelectorAll('[data-reading="picture"] g.node[data-node]').length);
  const edges = await page.evaluate(() => [...document.querySelectorAll('[data-reading="picture"] g.edge')]
    .filter((g) => /^e\d+_\d+$/.test(g.id)).length);
  assert.ok(dot > 5 && edges > 5, 'the picture is drawn');
  assert.equal(await page.textContent('#picture-alt summary'), `the picture as text: ${dot} nodes, ${edges} operand edges`);
  assert.equal(await page.getAttribute('[data-reading="picture"] svg', 'aria-label'),
    `the recorded graph: ${dot} nodes, ${edges} operand edges; listed as text below the picture`);
  await page.click('#picture-alt summary');
  const items = await page.$$eval('#picture-alt-list li', (lis) => lis.map((li) => [li.dataset.altNode, li.textContent]));
  assert.equal(items.length, dot);
  assert.deepEqual(items.map(([n]) => Number(n)), [...items.map(([n]) => Number(n))].sort((x, y) => x - y), 'in node order');
  // What the engine's JSON says of each node: its op, name, shape, value
  // and operands (the derivative reading's map), not the picture's text.
  assert.deepEqual(items.find(([n]) => n === '0'), ['0', '0 Parameter w, shape [], value 0']);
  assert.deepEqual(items.find(([n]) => n === '3'), ['3', '3 Mul, shape [], value 0; operands: node 0, node 1'], 'the spec says 3 Mul 0, 1');
  assert.deepEqual(items.find(([n]) => n === '6'), ['6', '6 Leaf, shape [], value 1'], 'the seed has no operands (its gradient edges are drawn backwards)');
  assert.deepEqual(items.find(([n]) => n === '4'), ['4', '4 Sub error, shape [], value -4; operands: node 3, node 2'], 'the spec says 4 Sub 3, 2');
  // Each node of the picture is named by the words it shows, then the same.
  const name = await page.getAttribute('[data-reading="picture"] g.node[data-node="4"]', 'aria-label');
  assert.ok(name.startsWith('4 Sub error') && name.endsWith(': 4 Sub error, shape [], value -4; operands: node 3, node 2'), name);
  await page.locator('#picture-alt').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'a11y-picture-as-text.png') });
  assert.deepEqual(await violations(page), [], 'axe, with the list open');
});
