// The page end to end in headless Chromium: it loads from a local server,
// shows every reading exactly as the engine writes it, re-reads as one
// types, reports a bad line at its line and column, keeps its state in the
// URL hash and the drafts, downloads the picture, highlights a node
// across readings, stays responsive on heavy programs, and never makes a
// request outside its origin.  Screenshots go to TP_WEB_ARTIFACTS
// (default BUILD/web/screenshots).
//
// Environment: TP_WEB_BUILD (the wasm build's web/ folder, holding site/,
// npm/ and the engine), TP_SAMPLES, TP_CHROMIUM (default
// /usr/lib/chromium/chromium).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { READINGS, editorText, pageSuite, readings, ready } from './browser.mjs';
import { loadEngine } from './engine.mjs';
import { readSamples } from '../../web/samples-manifest.mjs';

const s = pageSuite();   // the browser, opened before the tests and closed after them
const { build, site, shots, samplesDir, skip } = s;

const README = readFileSync(join(samplesDir, 'readme.tape'), 'utf8');
const TEXT = ['spec', 'derivative', 'plan', 'stablehlo', 'values', 'summary'];

let b, engine;
before(async () => {
  if (skip) return;
  b = await s.open();
  engine = await loadEngine(build);
});

// What the engine says for a program: the page must show exactly this.
function expected(program, choices = {}) {
  return JSON.parse(engine.read(program, choices).json);
}

function assertShows(shown, want, what) {
  for (const r of TEXT) assert.equal(shown[r], want[r], `${what}: the ${r} reading`);
  const dotNodes = (want.dot.match(/^\s*n\d+\s*\[/gm) || []).length;
  assert.equal(shown.pictureNodes, dotNodes, `${what}: the picture has the DOT's nodes`);
  assert.equal(shown.diagnostics, want.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`).join('\n'), `${what}: diagnostics`);
}

function assertLocal(page) {
  const origin = new URL(b.base).origin;
  const outside = page.requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
  assert.deepEqual(outside, [], 'no request leaves the origin');
  assert.deepEqual(page.errors, [], 'no errors, failed requests or 404s');
}

// Moves the cursor to the end of the program and types.
async function typeAtEnd(page, text) {
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text, { delay: 5 });
}

async function selectAll(page) {
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+a');
}

test('the page loads, shows the README sample and is self-contained', { skip }, async (t) => {
  const page = await b.page();
  const t0 = Date.now();
  await page.goto(b.base);
  await ready(page);
  const loadMs = Date.now() - t0;
  const stats = await page.evaluate(() => window.toposPlayground);
  t.diagnostic(`first text readings ${Math.round(stats.firstTextMs)} ms, all six ${Math.round(stats.firstReadingsMs)} ms after navigation (${loadMs} ms to ready as seen by the test); `
              + `engine ${stats.engineMs[0].toFixed(1)} ms in the worker; graphviz ${stats.graphMs[0]?.toFixed(0)} ms`);
  assert.equal(await editorText(page), README);
  // The README sample opens with the choices the original page gives it.
  assert.equal(await page.inputValue('#target'), 'loss');
  assert.equal(await page.inputValue('#observe'), 'error');
  assertShows(await readings(page), expected(README, { target: 'loss', observe: ['error'] }), 'README');
  for (const r of [...READINGS, 'summary', 'diagnostics'])
    assert.equal(await page.locator(`[data-reading="${r}"]`).count(), 1, `one [data-reading="${r}"]`);
  // Placeholders, and which names each control lists.
  const options = (sel) => page.$$eval(`${sel} option`, (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(await options('#target'), [['', 'the last scalar'], ['w', 'w'], ['x', 'x'], ['y', 'y'], ['error', 'error'], ['loss', 'loss']]);
  assert.deepEqual((await options('#observe'))[0], ['', 'nothing extra']);
  await page.screenshot({ path: join(shots, 'readme-spec.png') });
  assertLocal(page);
});

test('typing re-reads every tab; a bad line is a diagnostic at its line and column', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  const before = await readings(page);

  await typeAtEnd(page, 'z = loss * 2.0\n');
  await ready(page);
  let program = README + 'z = loss * 2.0\n';
  assert.equal(await editorText(page), program);
  const after1 = await readings(page);
  assertShows(after1, expected(program, { target: 'loss', observe: ['error'] }), 'after typing');
  for (const r of READINGS) assert.notEqual(after1[r], before[r], `the ${r} reading changed`);
  assert.match(after1.values, /^z +\[\] +32$/m);
  // Every tab shows its reading when chosen.
  for (const r of READINGS) {
    await page.click(`.tabs [data-tab="${r}"]`);
    assert.ok(await page.isVisible(`[data-reading="${r}"]`), `${r} is visible in its tab`);
    assert.ok(new URL(page.url()).hash.includes(r === 'spec' ? 'program=' : `tab=${r}`), `the hash names the ${r} tab`);
  }

  // A bad line: the diagnostic names its line and column, the editor marks it.
  await typeAtEnd(page, 'bad = z + [3]');
  await ready(page);
  program += 'bad = z + [3]';
  const want = expected(program, { target: 'loss', observe: ['error'] });
  assert.equal(want.diagnostics[0].line, 8);
  const shown = await readings(page);
  assertShows(shown, want, 'a bad line');
  assert.match(shown.diagnostics, /^8:11: expected a value, found the shape \[3\]$/);
  await page.waitForSelector('#editor .cm-lintRange-error, #editor .cm-lintPoint-error');
  const marked = await page.textContent('#editor .cm-lintRange-error');
  assert.equal(marked, '[');
  // The last readings that worked stay visible, dimmed, beside the empty ones.
  assert.ok(await page.isVisible('[data-pane="values"] .stale') || await page.isVisible('[data-pane="picture"] .stale'));
  await page.click('.tabs [data-tab="tiled"]');
  await page.screenshot({ path: join(shots, 'diagnostic-tiled.png') });

  // Clicking the diagnostic puts the cursor there; fixing the line clears it.
  await page.click('[data-reading="diagnostics"]');
  await page.keyboard.press('Shift+End');
  await page.keyboard.type('z');
  await ready(page);
  program = program.replace('[3]', 'z');
  assert.equal(await editorText(page), program);
  assertShows(await readings(page), expected(program, { target: 'loss', observe: ['error'] }), 'fixed');
  assert.equal(await page.textContent('[data-reading="diagnostics"]'), '');
  assert.equal(await page.locator('.pane.refused').count(), 0);
  assertLocal(page);
});

test('a hidden pane holds the exact text, and gets its markup when shown', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base + '#target=loss&observe=error&program=' + encodeURIComponent(README));
  await ready(page);
  await typeAtEnd(page, 'z = loss * 2.0\n');
  await ready(page);
  const program = README + 'z = loss * 2.0\n';
  const want = expected(program, { target: 'loss', observe: ['error'] });
  assertShows(await readings(page), want, 'spec shown, the others hidden');
  // Hidden: plain text, no markup yet (the main thread did not build it).
  assert.equal(await page.locator('[data-reading="plan"] [data-node]').count(), 0, 'the hidden plan has no markup');
  assert.ok(await page.locator('[data-reading="spec"] [data-node]').count() > 0, 'the shown spec has its markup');
  await page.click('.tabs [data-tab="plan"]');
  assert.equal(await page.textContent('[data-reading="plan"]'), want.plan, 'the same text once shown');
  assert.ok(await page.locator('[data-reading="plan"] [data-node="5"]').count() > 0, 'and its markup');
  await page.click('[data-reading="plan"] [data-node="5"]');
  assert.equal(await page.locator('[data-reading="plan"] .sel').count(), 1, 'a line of it selects');
  await page.click('.tabs [data-tab="values"]');
  assert.ok(await page.locator('[data-reading="values"] .sel').count() > 0, 'the selection reaches a pane shown later');
});

test('target, observe and exact change the readings and the hash; a shared link reopens the state', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  await page.selectOption('#target', 'error');
  await ready(page);
  await page.selectOption('#observe', 'x');
  await ready(page);
  await page.check('#exact');
  await ready(page);
  await page.click('.tabs [data-tab="plan"]');
  const want = expected(README, { target: 'error', observe: ['x'], exact: true });
  assertShows(await readings(page), want, 'target error, observe x, exact');
  assert.match(want.summary, /differentiating error, observing x/);
  const url = page.url();
  const params = new URLSearchParams(new URL(url).hash.slice(1));
  assert.equal(params.get('program'), README);
  assert.equal(params.get('target'), 'error');
  assert.equal(params.get('observe'), 'x');
  assert.equal(params.get('exact'), '1');
  assert.equal(params.get('tab'), 'plan');

  // The link in a fresh browser context (no localStorage) opens the same state.
  const other = await b.page();
  await other.goto(url);
  await ready(other);
  assert.equal(await editorText(other), README);
  assert.equal(await other.inputValue('#target'), 'error');
  assert.equal(await other.inputValue('#observe'), 'x');
  assert.ok(await other.isChecked('#exact'));
  assert.equal(await other.getAttribute('.tabs [data-tab="plan"]', 'aria-selected'), 'true');
  assert.deepEqual(await readings(other), await readings(page));

  // Back to the defaults: the hash drops the keys.
  await page.selectOption('#target', '');
  await page.selectOption('#observe', '');
  await page.uncheck('#exact');
  await page.click('.tabs [data-tab="spec"]');
  await ready(page);
  assert.deepEqual([...new URLSearchParams(new URL(page.url()).hash.slice(1)).keys()], ['program']);
  assertShows(await readings(page), expected(README), 'defaults');
  assertLocal(page);
  assertLocal(other);
});

test('a hash written by the original playground opens with the same program', { skip }, async () => {
  const program = '# dense\nweights = parameter [2, 2]\nx = input [1, 2]\nhidden = tanh(x @ weights)\nloss = sum(hidden * hidden)\n';
  // The original wrote URLSearchParams; older links spell spaces %20, and
  // name the tabs hlo and graph.
  const hashes = [
    '#' + new URLSearchParams({ program, target: 'loss', observe: 'hidden', exact: '1', tab: 'graph' }).toString(),
    `#program=${encodeURIComponent(program)}&target=loss&observe=hidden&exact=1&tab=graph`,
  ];
  for (const hash of hashes) {
    const page = await b.page();
    await page.goto(b.base + hash);
    await ready(page);
    assert.equal(await editorText(page), program);
    assert.equal(await page.inputValue('#target'), 'loss');
    assert.equal(await page.inputValue('#observe'), 'hidden');
    assert.ok(await page.isChecked('#exact'));
    assert.ok(await page.isVisible('[data-reading="picture"] svg'), 'tab=graph opens the picture');
    assertShows(await readings(page), expected(program, { target: 'loss', observe: ['hidden'], exact: true }), hash.slice(0, 30));
    assertLocal(page);
  }
  const page = await b.page();
  await page.goto(b.base + '#program=w%20%3D%20parameter%201.5&tab=hlo');
  await ready(page);
  assert.equal(await page.getAttribute('.tabs [data-tab="stablehlo"]', 'aria-selected'), 'true');
});

test('the last program comes back from localStorage', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  await selectAll(page);
  await page.keyboard.type('a = parameter [3]\nb = sum(exp(a))\n', { delay: 2 });
  await ready(page);
  await page.goto(b.base + 'index.html');   // no hash
  await ready(page);
  assert.equal(await editorText(page), 'a = parameter [3]\nb = sum(exp(a))\n');
  assertShows(await readings(page), expected('a = parameter [3]\nb = sum(exp(a))\n'), 'restored');
});

test('every sample loads from the menu and reads', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  const ids = await page.$$eval('#sample option', (os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(ids.length >= 8, 'five reference samples and the teaching ones');
  const manifest = readSamples(samplesDir);
  const teaching = await page.$$eval('#sample optgroup[label="Teaching samples"] option', (os) => os.map((o) => o.value));
  assert.deepEqual(teaching, manifest.filter((s) => s.teaching).map((s) => s.id), 'the teaching group');
  for (const s of manifest) {
    await page.selectOption('#sample', s.id);
    await ready(page);
    const program = readFileSync(join(samplesDir, s.file), 'utf8');
    assert.equal(await editorText(page), program, s.id);
    assert.equal(await page.inputValue('#target'), s.target, `${s.id}: target`);
    assert.equal(await page.inputValue('#observe'), s.observe, `${s.id}: observe`);
    const choices = { target: s.target, observe: s.observe ? [s.observe] : [] };
    const want = expected(program, choices);
    assert.deepEqual(want.diagnostics, [], `${s.id} reads`);
    assertShows(await readings(page), want, s.id);
    if (['mlp', 'attention', 'linear-regression'].includes(s.id)) {
      await page.click('.tabs [data-tab="tiled"]');
      await page.screenshot({ path: join(shots, `sample-${s.id}-tiled.png`) });
      await page.click('.tabs [data-tab="picture"]');
      await page.screenshot({ path: join(shots, `sample-${s.id}-picture.png`) });
      await page.click('.tabs [data-tab="spec"]');
    }
  }
  assertLocal(page);
});

test('selecting a node highlights it in every reading', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base + '#tab=tiled&target=loss&observe=error&program=' + encodeURIComponent(README));
  await ready(page);
  await page.click('[data-reading="spec"] [data-node="4"]');
  const lit = await page.$$eval('.sel', (els) => els.map((e) => e.closest('[data-reading]').dataset.reading));
  for (const r of ['spec', 'derivative', 'plan', 'stablehlo', 'values', 'picture'])
    assert.ok(lit.includes(r), `node 4 is lit in ${r}`);
  assert.ok(await page.locator('[data-reading="stablehlo"] .sel-ref').count() > 0, '%v4 is lit where it is used');
  await page.screenshot({ path: join(shots, 'highlight-tiled.png') });
  // A node of the picture selects too; Escape clears.
  await page.click('[data-reading="picture"] g.node[data-node="5"]');
  assert.ok(await page.locator('[data-reading="spec"] [data-node="5"].sel').count() === 1);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.sel').count(), 0);
});

// Every span of a reading's markup, as [line, from, to, class, ref] in
// UTF-16 units of the line, and every line's data-node, read off the DOM.
// A tensor laid out as a grid (grid.js) counts as the one number token it
// lays out (its rows and cells are layout, not tokens); grids: how many.
function markupOf(page, reading) {
  return page.$eval(`[data-reading="${reading}"]`, (root) => {
    const spans = [], nodes = new Map();
    let line = 0, col = 0, grids = 0;
    const walk = (el, layout = false) => {
      for (const child of el.childNodes) {
        if (child.nodeType === 3) {
          for (const ch of child.data) {
            if (ch === '\n') { line++; col = 0; } else col++;
          }
        } else if (child.nodeType === 1) {
          const at = [line, col];
          if (child.dataset.node !== undefined) nodes.set(line, [Number(child.dataset.node), child.className.replace(/ grid-line$/, '')]);
          const grid = child.classList.contains('grid');
          if (grid) grids++;
          walk(child, layout || grid);
          if (grid) spans.push([at[0], at[1], col, 'v-value', null]);
          else if (!layout && child.dataset.node === undefined && child.className && child.className !== 'grid-nl')
            spans.push([at[0], at[1], col, child.className, child.dataset.ref === undefined ? null : Number(child.dataset.ref)]);
        }
      }
    };
    walk(root);
    return { spans, nodes: [...nodes], grids };
  });
}

test('the markup is the engine\'s map: line nodes, roles, token spans and references', { skip }, async () => {
  const { TOKEN_CLASSES } = await import(join(process.env.TP_WEB_SOURCE, 'src', 'readings.js'));
  const page = await b.page();
  for (const sample of ['readme', 'mlp']) {
    const program = readFileSync(join(samplesDir, `${sample}.tape`), 'utf8');
    await page.goto(b.base + '#tab=tiled&program=' + encodeURIComponent(program));
    await ready(page);
    const want = expected(program);
    for (const [reading, kind] of [['spec', 'listing'], ['derivative', 'listing'], ['plan', 'listing'], ['stablehlo', 'stablehlo'], ['values', 'values']]) {
      const { spans, nodes, grids } = await markupOf(page, reading);
      if (reading === 'values') assert.equal(grids > 0, sample === 'mlp', `${sample} values: its matrices are grids`);
      const map = want.map[reading];
      const lines = want[reading].split('\n');
      // a line stands for the map's node, derived as its role says
      const wantNodes = map.lines.map((l, i) => [i, l]).filter(([, l]) => l.node !== null);
      assert.deepEqual(nodes.map(([i, [n]]) => [i, n]), wantNodes.map(([i, l]) => [i, l.node]), `${sample} ${reading}: line nodes`);
      for (const [i, [n, cls]] of nodes) {
        const role = map.lines[i].role;
        const derived = role === 'derived' || role === 'gradient' || (reading === 'plan' && n >= want.spec_nodes);
        assert.equal(cls.split(' ').includes('ir-derived'), derived, `${sample} ${reading} line ${i}: derived`);
      }
      // on a node's line (and everywhere in StableHLO) every token the page
      // colours is a token of the map, with its class and its node
      const byte = (line, b) => new TextDecoder().decode(new TextEncoder().encode(line).subarray(0, b)).length;
      const wantSpans = [];
      for (const [i, start, end, klass, node] of map.refs) {
        const onNode = map.lines[i].node !== null;
        const table = kind === 'stablehlo' && !onNode ? TOKEN_CLASSES.stablehloFrame : TOKEN_CLASSES[kind];
        const cls = onNode || kind === 'stablehlo' ? table[klass] : (klass === 'operand' || klass === 'ssa' ? 'ir-ref' : undefined);
        if (!cls) continue;
        wantSpans.push([i, byte(lines[i], start), byte(lines[i], end), cls, klass === 'operand' || klass === 'ssa' ? node : null]);
      }
      const shown = spans.filter(([, , , cls]) => cls !== 'ir-divider' && cls !== 'ir-summary');
      shown.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      assert.deepEqual(shown, wantSpans, `${sample} ${reading}: token spans`);
      // divider, footer and note lines keep their own colour
      for (const [i, , , cls] of spans.filter(([, , , c]) => c === 'ir-divider' || c === 'ir-summary')) {
        const role = map.lines[i].role;
        assert.equal(cls, role === 'divider' ? 'ir-divider' : 'ir-summary', `${sample} ${reading} line ${i}`);
        assert.ok(['divider', 'footer', 'note'].includes(role));
      }
    }
  }
});

test('selecting an unnamed node marks its expression in the editor', { skip }, async () => {
  const page = await b.page();
  const program = 'x = input [2, 3]\nw = parameter [3, 4]\ny = relu(x @ w)\nloss = sum(y * y)\n';
  await page.goto(b.base + '#tab=tiled&program=' + encodeURIComponent(program));
  await ready(page);
  const want = expected(program);
  const matmul = want.spec.split('\n').findIndex((l) => l.includes('MatMul'));
  const node = want.map.spec.lines[matmul].node;
  assert.deepEqual(want.sources[node], [3, 10, 14]);
  await page.click(`[data-reading="spec"] [data-node="${node}"]`, { position: { x: 4, y: 4 } });
  assert.equal(await page.locator('#editor .tp-source-span').textContent(), 'x @ w');
  await page.screenshot({ path: join(shots, 'source-span.png') });
  // a named node: its whole expression
  const loss = want.names.find((n) => n.name === 'loss').node;
  await page.click(`[data-reading="values"] [data-node="${loss}"]`, { position: { x: 4, y: 4 } });
  assert.equal(await page.locator('#editor .tp-source-span').textContent(), 'sum(y * y)');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#editor .tp-source-span').count(), 0);
});

test('the picture downloads as SVG', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base + '#tab=picture&program=' + encodeURIComponent(README));
  await ready(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-svg')]);
  assert.equal(download.suggestedFilename(), 'the-readme-sample.svg', 'named after the program');
  const path = await download.path();
  const svg = readFileSync(path, 'utf8');
  assert.match(svg, /<svg[\s\S]*<\/svg>\s*$/);
  assert.match(svg, /<title>n5<\/title>/);
  await page.screenshot({ path: join(shots, 'readme-picture.png') });
  assertLocal(page);
});

test('heavy programs never freeze the page, and stale results are dropped', { skip }, async (t) => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  // Measure the longest gap between animation frames while the engine works.
  await page.evaluate(() => {
    window.__gaps = { max: 0, last: performance.now(), on: true };
    const tick = (t) => {
      const g = window.__gaps;
      g.max = Math.max(g.max, t - g.last);
      g.last = t;
      if (g.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await selectAll(page);
  // Two 700^3 matmuls, no parameter so no gradient: within the engine's
  // limits, heavy enough that a compile takes a while; every keystroke is
  // another program to read.
  await page.keyboard.type('a = input [700, 700]\nb = tanh(a @ a)\nc = b @ b\nloss = sum(c * c)\n', { delay: 1 });
  await page.keyboard.type('# and a comment typed while it works', { delay: 1 });
  await ready(page, 60000);
  const gaps = await page.evaluate(() => { window.__gaps.on = false; return window.__gaps.max; });
  const program = 'a = input [700, 700]\nb = tanh(a @ a)\nc = b @ b\nloss = sum(c * c)\n# and a comment typed while it works';
  assert.equal(await editorText(page), program);
  assertShows(await readings(page), expected(program), 'the last program, not a stale one');
  const st = await page.evaluate(() => window.toposPlayground);
  t.diagnostic(`longest frame gap while typing a heavy program: ${gaps.toFixed(0)} ms; `
              + `${st.engineMs.length} reads shown, engine worker restarted ${st.engineRestarts} times, `
              + `slowest read in the worker ${Math.max(...st.engineMs).toFixed(0)} ms`);
  assert.ok(gaps < 1000, `the page kept drawing (longest frame gap ${gaps.toFixed(0)} ms)`);

  // Past the engine's limits: refused at once with a diagnostic.
  await selectAll(page);
  await page.keyboard.type('w = parameter [100000, 100000]', { delay: 1 });
  await ready(page);
  assert.match(await page.textContent('[data-reading="diagnostics"]'), /^1:\d+: .*elements/);
  assertLocal(page);
});

test('an edit in the middle of a 300-line program keeps the lines before and after it', { skip }, async () => {
  const page = await b.page();
  const lines = ['w = parameter [4, 4]', 'h0 = input [2, 4]',
    ...Array.from({ length: 297 }, (_, i) => `h${i + 1} = tanh(h${i} @ w)`), 'loss = sum(h297 * h297)'];
  const program = lines.join('\n');
  await page.goto(b.base + '#tab=tiled&program=' + encodeURIComponent(program));
  await ready(page, 60000);
  assertShows(await readings(page), expected(program), '300 lines');
  // Tag every line element of the spec, then change line 150.
  const count = await page.$eval('[data-reading="spec"]', (el) => {
    for (const c of el.children) c.__old = true;
    return el.children.length;
  });
  assert.ok(count > 300, `one element a line (${count})`);
  const edited = program.replace('h150 = tanh(h149 @ w)', 'h150 = exp(h149 @ w)');
  await selectAll(page);
  await page.keyboard.insertText(edited);
  await ready(page, 60000);
  assertShows(await readings(page), expected(edited), 'the edited program');
  const kept = await page.$eval('[data-reading="spec"]', (el) => {
    const c = [...el.children];
    let head = 0, tail = 0;
    while (head < c.length && c[head].__old) head++;
    while (tail < c.length && c[c.length - 1 - tail].__old) tail++;
    return { head, tail, total: c.length, changed: c.filter((x) => !x.__old).map((x) => x.textContent) };
  });
  assert.ok(kept.head > 100 && kept.tail > 100, `the shared lines are kept (${kept.head} at the start, ${kept.tail} at the end)`);
  assert.ok(kept.changed.length >= 1 && kept.changed.length < 10, `only the middle is new (${kept.changed.length} lines)`);
  assert.ok(kept.changed.some((t) => t.includes('Exp')), 'the new line is the edited one');
  await page.screenshot({ path: join(shots, 'program-300-tiled.png') });
  assertLocal(page);
});

test('a [1024, 1024] tensor is folded, shown in full on request, and copied exactly', { skip }, async () => {
  const page = await b.page();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(b.base).origin });
  await page.goto(b.base);
  await ready(page);
  await page.click('.tabs [data-tab="values"]');
  const program = 'x = parameter [1024, 1024]\ny = sum(tanh(x))';
  await selectAll(page);
  await page.keyboard.insertText(program);
  await ready(page, 60000);
  const want = expected(program);
  assert.ok(want.values.split('\n')[0].length > 1e6, 'the line is a long one');
  // The reading's text is the engine's, character for character.
  assertShows(await readings(page), want, 'a folded reading');
  const fold = await page.evaluate(() => {
    const line = document.querySelector('[data-reading="values"] [data-node="0"]');
    const f = line?.querySelector('.fold');
    const box = (el) => el.getBoundingClientRect();
    return f && {
      label: f.dataset.fold,
      lineWidth: box(line).width, lineHeight: box(line).height,
      foldWidth: box(f).width,
      foldInView: box(f).right <= box(line.closest('.scroll')).right && box(f).left >= box(line.closest('.scroll')).left,
      restShown: line.querySelector('.fold-rest').getClientRects().length > 0,
      visible: getComputedStyle(f, '::after').content,
      folds: document.querySelectorAll('[data-reading="values"] .fold').length,
    };
  });
  assert.ok(fold, 'the long line has a fold');
  assert.equal(fold.label, '1,048,576 elements');
  assert.equal(fold.folds, 1, 'only the long line is folded');
  assert.equal(fold.restShown, false, 'the middle is not laid out');
  assert.ok(fold.lineWidth > 100 && fold.lineWidth < 100000, `the folded line is drawn, one screen wide or so (${fold.lineWidth} px)`);
  assert.ok(fold.foldWidth > 0, 'the show all control is drawn');
  assert.ok(fold.foldInView, 'the show all control is in view: the folded line wraps');
  assert.match(fold.visible, /1,048,576 elements · show all/);
  await page.screenshot({ path: join(shots, 'folded-line.png') });

  // The page answers: a tab click is handled, and back.
  await page.click('.tabs [data-tab="spec"]');
  assert.equal(await page.getAttribute('.tabs [data-tab="spec"]', 'aria-selected'), 'true');
  await page.click('.tabs [data-tab="values"]');

  // Copy gives the exact text, fold or not.
  await page.evaluate(() => navigator.clipboard.writeText('-'));
  await page.click('button[data-copy="values"]');
  await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t !== '-'), null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), want.values, 'copy gives the whole reading');

  // "show all" shows the line whole, wrapped.
  await page.click('[data-reading="values"] [data-node="0"] .fold');
  const shown = await page.evaluate(() => {
    const line = document.querySelector('[data-reading="values"] [data-node="0"]');
    return {
      folds: document.querySelectorAll('[data-reading="values"] .fold').length,
      unfolded: line.classList.contains('unfolded'),
      restShown: line.querySelector('.fold-rest').getClientRects().length > 0,
      height: line.getBoundingClientRect().height,
    };
  });
  assert.deepEqual({ ...shown, height: undefined }, { folds: 0, unfolded: true, restShown: true, height: undefined });
  assert.ok(shown.height > fold.lineHeight * 10, 'the whole line is laid out, wrapped over many rows');
  await page.screenshot({ path: join(shots, 'unfolded-line.png') });
  assert.equal((await readings(page)).values, want.values, 'the text is unchanged by show all');
  assertLocal(page);
});

test('a phone-sized screen and a dark theme', { skip }, async () => {
  const page = await b.page({ viewport: { width: 420, height: 860 }, colorScheme: 'dark' });
  const mlp = readFileSync(join(samplesDir, 'mlp.tape'), 'utf8');
  await page.goto(b.base + '#tab=values&target=loss&program=' + encodeURIComponent(mlp));
  await ready(page);
  await page.screenshot({ path: join(shots, 'phone-dark.png'), fullPage: true });
  assertShows(await readings(page), expected(mlp, { target: 'loss' }), 'phone');
  assert.ok(readdirSync(shots).length >= 5, 'screenshots are saved');
});
