// Reaching everything, in headless Chromium: the cross-reading highlight
// by keyboard alone (a reading's lines and the picture's nodes), the hover
// card, the live region that speaks once typing pauses, the picture's
// opening zoom, the downloaded SVG on its own (rsvg-convert and a fresh
// page, every label inside its box), a long reading's blocks kept across
// an edit that leaves its text alone, and the memory a 5,000-line program
// leaves behind.  Screenshots go to TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { pageSuite, ready } from './browser.mjs';
import { underCi } from './prereq.mjs';

const s = pageSuite();
const { skip } = s;
const README = () => s.sample('readme');
const chain = (n) => ['w = parameter [4, 4]', 'h0 = input [2, 4]',
  ...Array.from({ length: n - 3 }, (_, i) => `h${i + 1} = tanh(h${i} @ w)`), `loss = sum(h${n - 3} * h${n - 3})`, ''].join('\n');
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return { node: el?.dataset.node ?? null, reading: el?.closest('[data-reading]')?.dataset.reading ?? null, text: el?.textContent ?? '' };
});
const lit = (page) => page.$$eval('.sel', (els) => els.map((e) => [e.closest('[data-reading]').dataset.reading, e.dataset.node]));

test('keyboard only: a reading\'s lines and the picture\'s nodes are reached and selected, and light up everywhere', { skip }, async () => {
  const page = await s.b.page();
  await page.goto(s.b.base + '#tab=tiled&target=loss&observe=error&program=' + encodeURIComponent(README()));
  await ready(page);
  // From the spec's scroll box, Tab goes to its lines (one tab stop).
  await page.focus('#pane-spec .scroll');
  await page.keyboard.press('Tab');
  assert.deepEqual(await focused(page), { node: '0', reading: 'spec', text: (await focused(page)).text });
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  assert.equal((await focused(page)).node, '4', 'Down moves line by line');
  await page.keyboard.press('Enter');
  const sel = await lit(page);
  for (const r of ['spec', 'derivative', 'plan', 'stablehlo', 'values', 'picture'])
    assert.ok(sel.some(([reading, n]) => reading === r && n === '4'), `node 4 is lit in ${r}`);
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  assert.equal((await focused(page)).node, '0', 'Home: the first line');
  // Every node line of every reading is reached with Down.
  for (const r of ['spec', 'derivative', 'plan', 'stablehlo', 'values']) {
    const want = await page.$$eval(`[data-reading="${r}"] .ir-line[data-node]`, (ls) => ls.length);
    await page.focus(`#pane-${r} .scroll`);
    await page.keyboard.press('Tab');
    const seen = new Set();
    for (let i = 0; i < want + 2; i++) {
      const f = await focused(page);
      assert.equal(f.reading, r);
      seen.add(f.text);
      await page.keyboard.press('ArrowDown');
    }
    assert.equal(seen.size, want, `every line of ${r} is reached`);
  }
  await page.keyboard.press('Escape');

  // The picture: Tab from its box goes to a node; arrows reach every node.
  await page.focus('#pane-picture .scroll');
  await page.keyboard.press('Tab');
  const first = await focused(page);
  assert.equal(first.reading, 'picture');
  assert.ok(await page.isVisible('#picture-card'), 'a focused node shows its card');
  const all = await page.$$eval('[data-reading="picture"] g.node[data-node]', (gs) => gs.map((g) => g.dataset.node));
  const reached = new Set([first.node]);
  // A walk over the arrows from every node reached so far.
  const queue = [first.node];
  while (queue.length) {
    const from = queue.shift();
    for (const key of ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']) {
      await page.focus(`[data-reading="picture"] g.node[data-node="${from}"]`);
      await page.keyboard.press(key);
      const to = (await focused(page)).node;
      if (to !== null && !reached.has(to)) { reached.add(to); queue.push(to); }
    }
  }
  assert.deepEqual([...reached].sort(), [...all].sort(), 'the arrows reach every node of the picture');
  await page.focus('[data-reading="picture"] g.node[data-node="5"]');
  assert.match(await page.textContent('#picture-card'), /^5 Mul loss/);
  assert.match(await page.textContent('#picture-card'), /value: 16/);
  await page.keyboard.press('Enter');
  assert.ok((await lit(page)).some(([r, n]) => r === 'spec' && n === '5'), 'Enter on a node selects it in the spec');
  await page.screenshot({ path: join(s.shots, 'keyboard-picture-node.png') });
});

test('hovering a node shows its op, shape, name and value', { skip }, async () => {
  const page = await s.b.page();
  await page.goto(s.b.base + '#tab=picture&target=loss&observe=error&program=' + encodeURIComponent(README()));
  await ready(page);
  await page.hover('[data-reading="picture"] g.node[data-node="4"]');
  const card = await page.textContent('#picture-card');
  assert.match(card, /^4 Sub error/);
  assert.match(card, /shape: \[\]/);
  assert.match(card, /value: -4/);
  assert.match(card, /operands: node 3, node 2/);
  await page.mouse.move(2, 2);
  assert.equal(await page.isVisible('#picture-card'), false, 'it goes away with the pointer');
});

test('the live region speaks once typing pauses, not on every key', { skip }, async () => {
  const page = await s.b.page();
  await page.goto(s.b.base + '#program=' + encodeURIComponent(README()));
  await ready(page);
  await page.waitForTimeout(1500);   // the opening announcement
  await page.evaluate(() => {
    window.__said = [];
    new MutationObserver(() => window.__said.push(document.querySelector('#announce').textContent))
      .observe(document.querySelector('#announce'), { childList: true, characterData: true, subtree: true });
  });
  assert.equal(await page.getAttribute('#announce', 'aria-live'), 'polite');
  assert.equal(await page.getAttribute('#diagnostics', 'aria-live'), null, 'the diagnostics are not a live region of their own');
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  // Slow keys: each one is read (a pause over the read delay), none is said.
  for (const key of 'z = (') await page.keyboard.type(key, { delay: 0 }).then(() => page.waitForTimeout(300));
  assert.deepEqual(await page.evaluate(() => window.__said), [], 'nothing is said while typing');
  await ready(page);
  await page.waitForFunction(() => window.__said.length > 0, null, { timeout: 5000 });
  await page.waitForTimeout(1500);
  const said = await page.evaluate(() => window.__said);
  assert.equal(said.length, 1, `said once: ${JSON.stringify(said)}`);
  assert.match(said[0], /^line 7, column \d+: /);
  // Fixed: said once more, that it reads.
  await page.keyboard.type('1)');
  await page.waitForFunction(() => window.__said.length > 1, null, { timeout: 5000 });
  assert.match((await page.evaluate(() => window.__said))[1], /^the program reads: /);
});

test('a large picture opens readable around its target; fit and zoom keep working', { skip }, async () => {
  const page = await s.b.page({ viewport: { width: 1280, height: 800 } });
  await page.goto(s.b.base + '#tab=picture&program=' + encodeURIComponent(chain(20)));
  await ready(page, 60000);
  const view = await page.evaluate(() => {
    const box = document.querySelector('.picture-scroll').getBoundingClientRect();
    // (the nodes' labels: the legend has a box of its own)
    const labels = [...document.querySelectorAll('[data-reading="picture"] g.node[data-node] text')].map((t) => t.getBoundingClientRect().height);
    const target = document.querySelector('[data-reading="picture"] g.node.target, [data-reading="picture"] g.node[data-node="37"]').getBoundingClientRect();
    return { nodes: document.querySelectorAll('[data-reading="picture"] g.node').length, smallest: Math.min(...labels),
      inside: target.left >= box.left && target.right <= box.right && target.top >= box.top && target.bottom <= box.bottom };
  });
  assert.ok(view.nodes > 200, `a large picture (${view.nodes} nodes)`);
  assert.ok(view.smallest >= 9, `every label is at least 9 px tall (${view.smallest.toFixed(1)})`);
  assert.ok(view.inside, 'the target is on screen');
  await page.screenshot({ path: join(s.shots, 'picture-large-opening.png') });
});

test('the downloaded SVG draws on its own, every label inside its box', { skip }, async () => {
  const page = await s.b.page();
  await page.goto(s.b.base + '#tab=picture&target=loss&observe=error&program=' + encodeURIComponent(s.sample('mlp')));
  await ready(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-svg')]);
  const svg = readFileSync(await download.path(), 'utf8');
  // rsvg-convert (librsvg2-bin) renders it.
  const rsvg = ['/usr/bin/rsvg-convert', '/usr/local/bin/rsvg-convert'].find(existsSync);
  if (rsvg) {
    const dir = mkdtempSync(join(tmpdir(), 'tp-svg-'));
    try {
      execFileSync(rsvg, ['-o', join(dir, 'p.png'), await download.path()]);
      assert.ok(statSync(join(dir, 'p.png')).size > 2000, 'rsvg-convert drew it');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else if (underCi()) {
    assert.fail('cannot run under CI: rsvg-convert is missing (tools/install-deps.sh installs librsvg2-bin)');
  }
  // A fresh page with nothing but the SVG.
  const other = await s.b.page();
  await other.setContent(svg.replace(/^[\s\S]*?(?=<svg)/, ''));
  const outside = await other.evaluate(() => [...document.querySelectorAll('g.node')].flatMap((g) => {
    const shape = g.querySelector('polygon, path, ellipse');
    if (!shape) return [];
    const b = shape.getBoundingClientRect();
    return [...g.querySelectorAll('text')].map((t) => [g.id, t.textContent, t.getBoundingClientRect(), b])
      .filter(([, , r]) => r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5)
      .map(([id, text]) => `${id}: ${text}`);
  }));
  assert.ok(await other.$$eval('g.node', (gs) => gs.length) > 10, 'the nodes are drawn');
  assert.deepEqual(outside, [], 'every label lies inside its node');
  await other.screenshot({ path: join(s.shots, 'picture-svg-alone.png') });
});

test('a long reading keeps its blocks and their markup across an edit that leaves its text alone', { skip }, async () => {
  const page = await s.b.page({ viewport: { width: 1280, height: 800 } });
  const program = chain(600);   // its plan is over 1,500 lines: blocks of plain text, marked up near the screen
  await page.goto(s.b.base + '#tab=plan&program=' + encodeURIComponent(program));
  await ready(page, 60000);
  const plan = '[data-reading="plan"]';
  const marked = `${plan} .chunk[data-marked="yes"]`;
  await page.waitForSelector(marked);
  assert.ok(await page.$eval(plan, (el) => el.classList.contains('long')), 'the plan is a long reading');
  const planText = await page.textContent(plan);
  await page.$eval(`${plan} .chunk`, (c) => { c.__kept = true; });
  // A comment at the end: the plan's text is the same.
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('# a comment\n');
  await ready(page, 60000);
  assert.equal(await page.textContent(plan), planText, 'the same plan');
  assert.ok(await page.$eval(`${plan} .chunk`, (c) => c.__kept === true && c.dataset.marked === 'yes'),
    'the first block is the same element, its markup kept');
  // A block further down still gets its markup, asked of the new read.
  await page.$eval(plan, (el) => { const box = el.closest('.scroll'); box.scrollTop = box.scrollHeight / 2; });
  await page.waitForFunction((sel) => {
    const box = document.querySelector(sel).closest('.scroll');
    const mid = box.getBoundingClientRect().top + box.clientHeight / 2;
    const hit = [...document.querySelectorAll(`${sel} .chunk`)].find((c) => { const r = c.getBoundingClientRect(); return r.top <= mid && r.bottom >= mid; });
    return hit?.dataset.marked === 'yes' && hit.querySelector('[data-ref], [data-node]') !== null;
  }, plan, { timeout: 20000 });
  // A statement added at the top: every node moves, the plan's text
  // changes, and its blocks are new.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type('\nscale = 2.0');
  await ready(page, 60000);
  assert.equal(await page.textContent('[data-reading="diagnostics"]'), '', 'the program reads');
  assert.notEqual(await page.textContent(plan), planText, 'a new plan');
  assert.equal(await page.$$eval(`${plan} .chunk`, (cs) => cs.some((c) => c.__kept)), false, 'its blocks were made anew');
  await page.context().close();
});

test('memory comes back after a 5,000-line program', { skip }, async (t) => {
  const page = await s.b.page();
  await page.goto(s.b.base + '#tab=spec&program=' + encodeURIComponent(README()));
  await ready(page);
  const cdp = await page.context().newCDPSession(page);
  const measure = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const { nodes } = await cdp.send('Memory.getDOMCounters');
    return { heap: usedSize, nodes };
  };
  const paste = async (program) => {
    await page.click('#editor .cm-content');
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(program);
    await ready(page, 120000);
  };
  const long = ['# 5000 lines', ...chain(5000).split('\n').slice(0)].join('\n');
  // One round first, so that what the engine's first big program compiles
  // into the page (V8's code for the hot functions) is counted at the start.
  await paste(long);
  await paste(README());
  const start = await measure();
  await paste(long);
  const big = await measure();
  await page.click('.tabs [data-tab="tiled"]');
  await paste(long + '# again\n');
  await page.click('.tabs [data-tab="spec"]');
  await paste(README());
  const back = await measure();
  t.diagnostic(`JS heap ${(start.heap / 1048576).toFixed(1)} MB, with 5,000 lines ${(big.heap / 1048576).toFixed(1)} MB, back ${(back.heap / 1048576).toFixed(1)} MB; `
    + `DOM nodes ${start.nodes}, ${big.nodes}, ${back.nodes}`);
  assert.ok(back.heap <= start.heap * 1.2, `the JS heap comes back within 20% (${start.heap} -> ${back.heap})`);
  assert.ok(back.nodes <= start.nodes * 1.2, `the DOM comes back within 20% (${start.nodes} -> ${back.nodes} nodes)`);
});
