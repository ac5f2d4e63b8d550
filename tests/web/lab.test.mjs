// The page as a student used it in a lab, in headless Chromium, with real
// clicks and keys: the error marker goes with the error; the drafts list
// gets out of the way; the selection and the notices follow the program;
// the editor's cursor selects its statement's node; two tabs on one draft
// never merge their keys.  Every wait is for a state, never a duration.
// Screenshots go to TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { editorText, pageSuite, ready } from './browser.mjs';
import { loadEngine } from './engine.mjs';

const s = pageSuite();
const { build, shots, samplesDir, skip } = s;
const README = () => readFileSync(join(samplesDir, 'readme.tape'), 'utf8');

let b, engine;
before(async () => {
  if (skip) return;
  b = await s.open();
  engine = await loadEngine(build);
});
const expected = (program, choices = {}) => JSON.parse(engine.read(program, choices).json);

const LAPTOP = { width: 1366, height: 768 };

// The lint gutter's markers and what hovering the first one says.
async function gutterMarks(page) {
  return page.locator('#editor .cm-gutter-lint .cm-lint-marker').count();
}

test('the error marker goes when the error does (a line replaced at typing speed)', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP });
  await page.goto(b.base);
  await ready(page);
  await page.click('#drafts-toggle');
  await page.click('#draft-new');
  await ready(page);
  await page.click('#editor .cm-content');
  await page.keyboard.type('x = input [4, 1]\nerr = x\nloss = mean(err * err)', { delay: 80 });
  await ready(page);
  assert.equal(await page.textContent('[data-reading="diagnostics"]'),
    '3:8: `mean` is not defined yet; for the mean of all N elements write `sum(x) / N`, and `mean_along(x, axis)` for the mean along one axis');
  assert.equal(await gutterMarks(page), 1, 'the gutter marks line 3');
  await page.hover('#editor .cm-gutter-lint .cm-lint-marker');
  await page.waitForSelector('.cm-tooltip-lint');
  assert.match(await page.textContent('.cm-tooltip-lint'), /`mean` is not defined yet/);
  await page.mouse.move(0, 0);
  // The last line replaced, key by key.
  await page.click('#editor .cm-line:nth-child(3)');
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.type('loss = sum(err * err) / 4.0', { delay: 80 });
  await ready(page);
  assert.equal(await page.textContent('[data-reading="diagnostics"]'), '', 'the program reads');
  assert.equal(await gutterMarks(page), 0, 'no marker is left in the gutter');
  assert.equal(await page.locator('#editor .cm-lintRange').count(), 0, 'no mark is left in the text');
  await page.screenshot({ path: join(shots, 'lab-error-marker-gone.png') });
});

test('the drafts list closes after a new draft, on Escape and on a click outside, and covers nothing', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP });
  await page.goto(b.base);
  await ready(page);
  const boxes = () => page.evaluate(() => Object.fromEntries(['#observe', '.summary', '.tabs', '#diagnostics', '#drafts']
    .map((sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return [sel, [r.left, r.top, r.right, r.bottom]]; })));
  const overlap = (a, c) => a[0] < c[2] && c[0] < a[2] && a[1] < c[3] && c[1] < a[3];

  await page.click('#drafts-toggle');
  assert.ok(await page.isVisible('#drafts'));
  const open = await boxes();
  for (const sel of ['#observe', '.summary', '.tabs', '#diagnostics'])
    assert.ok(!overlap(open['#drafts'], open[sel]), `the open list does not cover ${sel}`);
  for (const sel of ['#observe', '[data-tab="plan"]']) {
    const hit = await page.$eval(sel, (el) => { const r = el.getBoundingClientRect(); return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); });
    assert.ok(hit, `a click meant for ${sel} reaches it with the list open`);
  }
  await page.screenshot({ path: join(shots, 'lab-drafts-open.png') });
  await page.click('#draft-new');
  assert.ok(await page.isHidden('#drafts'), 'new draft closes the list');
  assert.equal(await page.getAttribute('#drafts-toggle', 'aria-expanded'), 'false');

  await page.click('#drafts-toggle');
  await page.focus('#draft-new');
  await page.keyboard.press('Escape');
  assert.ok(await page.isHidden('#drafts'), 'Escape closes the list');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'drafts-toggle', 'focus goes back to its button');

  await page.click('#drafts-toggle');
  await page.click('[data-tab="plan"]');
  assert.ok(await page.isHidden('#drafts'), 'a click outside closes the list');
  assert.equal(await page.getAttribute('[data-tab="plan"]', 'aria-selected'), 'true', 'and the click did what it was meant for');
});

test('the selection is cleared when another program opens; the new-draft notice goes at the first key', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP });
  await page.goto(b.base + '#program=' + encodeURIComponent(README()));
  await ready(page);
  await page.click('[data-reading="spec"] [data-node="4"]');
  await page.waitForFunction(() => document.querySelector('#explain-line').dataset.explains === '4');
  await page.mouse.move(0, 0);   // no node hovered: the line says the selection's
  await page.selectOption('#sample', 'mlp');
  await ready(page);
  assert.equal(await page.locator('.sel').count(), 0, 'nothing of the new program is lit');
  assert.equal(await page.textContent('#explain-line'), '', 'the explain line describes no node of the last program');
  assert.equal(await page.locator('#editor .tp-source-span').count(), 0);

  await page.click('#drafts-toggle');
  await page.click('#draft-new');
  assert.match(await page.textContent('#notice'), /^a new, empty draft/);
  await page.keyboard.type('w');
  await page.waitForFunction(() => document.querySelector('#notice').textContent === '');
  await ready(page);
});

test('target and observe choices a pasted program lacks go, with no note; rename keeps the list order', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(b.base);   // the README sample: observe error
  await ready(page);
  assert.equal(await page.inputValue('#observe'), 'error');
  assert.equal(await page.inputValue('#target'), 'loss');
  const program = '# pasted\nw = parameter 2.0\nz = w * w\n';
  await page.evaluate((t) => navigator.clipboard.writeText(t), program);
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Control+v');
  await ready(page);
  assert.equal(await editorText(page), program);
  assert.equal(await page.inputValue('#observe'), '', 'observe is back to nothing');
  assert.equal(await page.inputValue('#target'), '', 'target is back to the last scalar');
  assert.equal(await page.textContent('#choice-note'), '', 'no red note');
  assert.doesNotMatch(await page.evaluate(() => location.hash), /observe=|target=/);
  assert.equal(await page.textContent('[data-reading="summary"]'), expected(program).summary);

  // Two drafts; renaming the older one leaves it second.
  await page.selectOption('#sample', 'xor');
  await ready(page);
  await page.click('#drafts-toggle');
  const titles = () => page.$$eval('#drafts-list .draft-title', (els) => els.map((e) => e.textContent));
  const before = await titles();
  assert.equal(before[1], '# pasted');
  await page.locator('#drafts-list li', { hasText: '# pasted' }).getByRole('button', { name: /^rename/ }).click();
  await page.locator('#drafts-list input.draft-rename').fill('my square');
  await page.keyboard.press('Enter');
  assert.deepEqual(await titles(), [before[0], 'my square']);
});

test('the editor\'s cursor selects its statement\'s node in every pane', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP });
  const program = 'x = input [2, 3]\nw = parameter [3, 4]\ny = relu(x @ w)\nloss = sum(y * y)\n';
  await page.goto(b.base + '#tab=tiled&program=' + encodeURIComponent(program));
  await ready(page);
  const want = expected(program);
  const node = (name) => want.names.find((n) => n.name === name).node;
  const lit = () => page.$$eval('.readings .sel', (els) => [...new Set(els.map((e) => `${e.closest('[data-reading]').dataset.reading}:${e.dataset.node}`))].sort());
  const everywhere = (n) => ['derivative', 'picture', 'plan', 'spec', 'stablehlo', 'values'].map((r) => `${r}:${n}`);

  await page.click('#editor .cm-line:nth-child(3)');   // a click on `y = relu(x @ w)`
  await ready(page);
  assert.deepEqual(await lit(), everywhere(node('y')), 'the click selects y everywhere');
  assert.equal(await page.locator('#editor .tp-source-span').textContent(), 'relu(x @ w)');
  await page.keyboard.press('ArrowDown');   // the cursor moves to `loss = ...`
  await page.waitForFunction((n) => document.querySelector('#explain-line').dataset.explains === String(n), node('loss'));
  assert.deepEqual(await lit(), everywhere(node('loss')), 'the cursor selects loss everywhere');
  await page.screenshot({ path: join(shots, 'lab-cursor-selects.png') });
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction((n) => document.querySelector('#explain-line').dataset.explains === String(n), node('w'));
  // A line with no statement selects nothing.
  await page.keyboard.press('Control+End');
  await page.waitForFunction(() => document.querySelectorAll('.readings .sel').length === 0);
});

test('two tabs on one draft: keys typed in both at once never merge; the second tab is read-only, with a note', { skip }, async () => {
  const one = await b.page({ viewport: LAPTOP });
  const A = '# one draft\nw = parameter 2.0\nloss = w * w\n';
  await one.goto(b.base + '#program=' + encodeURIComponent(A));
  await ready(one);
  const two = await one.context().newPage();
  await two.setViewportSize(LAPTOP);
  await two.goto(b.base + 'index.html');   // no hash: the same current draft
  await ready(two);
  assert.equal(await editorText(two), A);
  const drafts = (p) => p.evaluate(() => JSON.parse(localStorage.getItem('topos-playground:drafts')).drafts.map((d) => localStorage.getItem(`topos-playground:draft:${d.id}`)));
  const follows = (p, text) => p.waitForFunction((t) => [...document.querySelectorAll('#editor .cm-line')].map((l) => l.textContent).join('\n') === t, text);

  // Both type at once, key for key.
  await one.click('#editor .cm-content');
  await one.keyboard.press('Control+End');
  await two.click('#editor .cm-content');
  await two.keyboard.press('Control+End');
  // (Keys typed within the same few milliseconds, before either tab hears
  // of the other's, fork the draft instead: each tab keeps its text as a
  // draft of its own, drafts.test.mjs.)
  await one.keyboard.type('#');
  await follows(two, A + '#');
  for (const [a, c] of [[' ', 'y'], ['o', 'z'], ['n', 'q'], ['e', 'r']]) {
    await one.keyboard.type(a);
    await two.keyboard.type(c);
  }
  await ready(one);
  await follows(two, A + '# one');
  assert.equal(await editorText(one), A + '# one', 'the first tab has its own keys only');
  assert.ok(await two.isVisible('#follow-note'), 'the second tab says why it does not take keys');
  assert.match(await two.textContent('#follow-text'), /^Another tab of the page is changing “# one draft”: it is read-only here/);
  assert.equal(await two.getAttribute('#editor .cm-content', 'aria-readonly'), 'true');
  assert.deepEqual(await drafts(one), [A + '# one'], 'one draft, with no key of the second tab in it');
  await two.screenshot({ path: join(shots, 'lab-two-tabs-read-only.png') });

  // "edit it here" takes it over: now the first tab follows, read-only.
  await two.click('#edit-here');
  assert.ok(await two.isHidden('#follow-note'));
  await two.keyboard.press('Control+End');
  await two.keyboard.type(' two');
  await follows(one, A + '# one two');
  await one.waitForSelector('#follow-note', { state: 'visible' });
  await one.keyboard.type('lost');
  await ready(two);
  assert.equal(await editorText(two), A + '# one two');
  assert.deepEqual(await drafts(two), [A + '# one two']);

  // "edit a copy": a draft of its own, editable at once.
  await one.click('#edit-copy');
  await one.keyboard.press('Control+End');
  await one.keyboard.type('!');
  await ready(one);
  assert.equal(await editorText(one), A + '# one two!');
  assert.equal(await editorText(two), A + '# one two', 'the copy is not the other tab’s draft');
  assert.deepEqual((await drafts(one)).sort(), [A + '# one two', A + '# one two!'].sort());

  // The tab that edits leaves: the one that followed it may edit again.
  await one.click('#drafts-toggle');
  await one.locator('#drafts-list .draft-open', { has: one.locator('.draft-title', { hasText: /^# one draft$/ }) }).click();
  await ready(one);
  await two.keyboard.type('+');   // two edits the original again: one follows, read-only
  await one.waitForSelector('#follow-note', { state: 'visible' });
  await two.close();
  await one.waitForSelector('#follow-note', { state: 'hidden' });
  assert.match(await one.textContent('#notice'), /^the other tab left “# one draft”: you can edit it here/);
  await one.click('#editor .cm-content');
  await one.keyboard.press('Control+End');
  await one.keyboard.type('#');
  await ready(one);
  assert.equal(await editorText(one), A + '# one two+#');
});

test('offline after the load: training runs, and the page reloads and trains again', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP });
  await page.goto(b.base);   // the README sample
  await ready(page);
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated');
  await page.context().setOffline(true);
  const train = async () => {
    await page.click('#tab-train');
    await page.click('#train-run');
    await page.waitForSelector('#train-curve svg');
    assert.match(await page.textContent('#train-status'), /^trained \d+ steps: loss /, 'the status has the engine\'s sentence, nothing pending');
    assert.ok(await page.isHidden('#train-error'));
    assert.notEqual(await page.textContent('#train-parameters'), '');
  };
  await train();
  await page.reload();
  await ready(page);
  assert.equal(await page.textContent('[data-reading="spec"]'), expected(README(), { target: 'loss', observe: ['error'] }).spec,
    'the page reloaded offline reads the program');
  await train();
  await page.screenshot({ path: join(shots, 'lab-offline-train.png') });
  await page.context().setOffline(false);
});

test('a training worker that cannot load says so, and Run works again once it can', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP, serviceWorkers: 'block' });
  let fetched = 0;
  let failing = true;
  await page.route('**/engine-worker.js', (route) => (++fetched > 1 && failing ? route.abort('internetdisconnected') : route.continue()));
  await page.goto(b.base);
  await ready(page);
  await page.click('#tab-train');
  await page.click('#train-run');
  await page.waitForSelector('#train-error:not([hidden])');
  assert.match(await page.textContent('#train-error'), /^the training engine could not be loaded \(.+\); if the page is offline, run it again once it is back online$/);
  assert.equal(await page.textContent('#train-status'), '', 'not "training…" forever');
  assert.ok(await page.isEnabled('#train-run'));
  await page.screenshot({ path: join(shots, 'lab-train-cannot-load.png') });
  failing = false;
  await page.click('#train-run');
  await page.waitForSelector('#train-curve svg');
  assert.ok(await page.isHidden('#train-error'));
});

// No sideways scrolling: the page, and the scroll box of `sel`.
async function noSideways(page, sel, what) {
  const [doc, win, box, boxWidth] = await page.$eval(sel, (el) => [document.documentElement.scrollWidth, innerWidth, el.scrollWidth, el.clientWidth]);
  assert.ok(doc <= win, `${what}: the page is ${doc} px wide in a ${win} px window`);
  assert.ok(box <= boxWidth, `${what}: ${sel} scrolls sideways (${box} px in ${boxWidth} px)`);
}

const MATRIX = '# an 8 x 8 matrix\nw = parameter [8, 8]\nb = parameter [8]\nx = input [8, 8]\ny = w @ x\nloss = sum(y * y)\n';
const PHONE = { width: 390, height: 844 };
const PROJECTOR = { width: 1280, height: 720 };

// On the laptop a row of the matrix is one line; narrower (a projector's
// 1280 px, a phone) a row wraps, column for column.
for (const [name, viewport] of [['a 1366x768 laptop', LAPTOP], ['a 390x844 phone', PHONE], ['a 1280x720 projector', PROJECTOR]]) {
  test(`an [8, 8] value is an aligned grid with no sideways scrolling on ${name}: values, the step, the trained parameters`, { skip }, async () => {
    const want = expected(MATRIX);
    const page = await b.page({ viewport });
    await page.goto(b.base + '#tab=values&program=' + encodeURIComponent(MATRIX));
    await ready(page);
    assert.equal(await page.textContent('[data-reading="values"]'), want.values, 'the reading\'s text is the engine\'s');
    const w = want.names.find((n) => n.name === 'w').node;
    const grid = `[data-reading="values"] [data-node="${w}"] .grid`;
    assert.equal(await page.locator(`${grid} .grid-row`).count(), 8, 'w: one row of the grid a row of the matrix');
    const cells = await page.$$eval(`${grid} .grid-cell > span:first-child`, (els) => els.map((e) => e.textContent));
    assert.deepEqual(cells, want.nodes[w].data.map(String), 'each cell is the engine\'s text of its element');
    // Columns line up: every row's j-th number ends at the same x.
    const rights = await page.$$eval(`${grid} .grid-row`, (rows) => rows.map((r) => [...r.querySelectorAll('.grid-cell > span:first-child')].map((c) => Math.round(c.getBoundingClientRect().right))));
    for (const r of rights) assert.deepEqual(r, rights[0], 'the columns are aligned');
    if (viewport === LAPTOP) {
      const tops = await page.$$eval(`${grid} .grid-row`, (rows) => rows.map((r) => new Set([...r.querySelectorAll('.grid-cell')].map((c) => Math.round(c.getBoundingClientRect().top))).size));
      assert.deepEqual(tops, Array(8).fill(1), 'each row of the matrix is one line');
    }
    await noSideways(page, '[data-pane="values"] .scroll', 'values');
    await page.screenshot({ path: join(shots, `lab-grid-values-${viewport.width}x${viewport.height}.png`), fullPage: viewport === PHONE });

    // The step at w's node: its value as a grid.
    await page.click('#steps-toggle');
    await page.focus('#step-range');
    await page.keyboard.press('Home');
    const at = want.memory.steps.indexOf(w);
    assert.ok(at >= 0, 'w is a step of the plan');
    for (let k = 0; k < at; k++) await page.keyboard.press('ArrowRight');
    await page.waitForSelector(`#step-value[data-grid="${w}"]`);
    assert.equal(await page.textContent('#step-value'), `value: ${want.values.split('\n')[0].slice(24)}`, 'the step\'s value, as the values reading writes w');
    await noSideways(page, '#stepper', 'the step');
    await page.click('#steps-toggle');

    // The trained parameters.
    engine.read(MATRIX, {});
    const trained = engine.train(3, '0.01');
    await page.click('#tab-train');
    await page.fill('#train-steps', '3');
    await page.fill('#train-rate', '0.01');
    await page.click('#train-run');
    await page.waitForSelector('#train-parameters .grid');
    assert.equal(await page.textContent('#train-parameters'), trained.shown, 'the parameters\' text is the engine\'s, in the short format');
    assert.equal(await page.locator('#train-parameters .grid').count(), 2, 'w and b are grids');
    await noSideways(page, '#train-parameters', 'the trained parameters');
    await noSideways(page, '#pane-train .scroll', 'the train tab');
    await page.screenshot({ path: join(shots, `lab-grid-train-${viewport.width}x${viewport.height}.png`), fullPage: viewport === PHONE });
  });
}

test('a grid\'s numbers are the engine\'s own texts: -0, -inf, 0.0000001 and 100000000000000000000000', { skip }, async () => {
  const program = 'a = input [[0.0000001, 100000000000000000000000.0], [1.0, 2.5]]\nb = a * 0.0\nc = -b\nd = ln(b)\nw = parameter 1.0\nloss = w * sum(a) + sum(c)\n';
  const want = expected(program);
  const page = await b.page({ viewport: LAPTOP });
  await page.goto(b.base + '#tab=values&program=' + encodeURIComponent(program));
  await ready(page);
  assert.equal(await page.textContent('[data-reading="values"]'), want.values);
  const cells = (node) => page.$$eval(`[data-reading="values"] [data-node="${node}"] .grid-cell > span:first-child`, (els) => els.map((e) => e.textContent));
  const node = (n) => want.names.find((x) => x.name === n).node;
  assert.deepEqual(await cells(node('a')), ['0.0000001', '100000000000000000000000', '1', '2.5']);
  assert.deepEqual(await cells(node('c')), ['-0', '-0', '-0', '-0']);
  assert.deepEqual(await cells(node('d')), ['-inf', '-inf', '-inf', '-inf']);
  await page.click('#steps-toggle');
  await page.focus('#step-range');
  await page.keyboard.press('Home');
  const at = want.memory.steps.indexOf(node('c'));
  assert.ok(at >= 0, 'c is a step of the plan');
  for (let k = 0; k < at; k++) await page.keyboard.press('ArrowRight');
  await page.waitForSelector(`#step-value[data-grid="${node('c')}"]`);
  assert.equal(await page.textContent('#step-value'), 'value: [[-0, -0], [-0, -0]]');
});

// The picture's nodes the box shows only in part.
function cutNodes(page) {
  return page.evaluate(() => {
    const box = document.querySelector('.picture-scroll');
    const b = box.getBoundingClientRect();
    const top = b.top + box.clientTop, left = b.left + box.clientLeft, bottom = top + box.clientHeight, right = left + box.clientWidth;
    const out = [];
    for (const g of document.querySelectorAll('[data-reading="picture"] g.node[data-node]')) {
      const r = g.getBoundingClientRect();
      const seen = r.right > left && r.left < right && r.bottom > top && r.top < bottom;
      const whole = r.left >= left && r.right <= right && r.top >= top && r.bottom <= bottom;
      if (seen && !whole) out.push(Number(g.dataset.node));
    }
    return out;
  });
}

for (const [id, viewport] of [['readme', LAPTOP], ['mlp', LAPTOP], ['xor', LAPTOP], ['mlp', PROJECTOR], ['xor', PROJECTOR]]) {
  test(`the ${id} picture at ${viewport.width}x${viewport.height} opens with no node cut at the pane's edges; fit shows it whole; the legend is whole`, { skip }, async () => {
    const page = await b.page({ viewport });
    await page.goto(b.base + '#tab=picture&program=' + encodeURIComponent(s.sample(id)));
    await ready(page);
    assert.deepEqual(await cutNodes(page), [], 'no node is cut at the opening');
    const opening = Number(await page.$eval('[data-reading="picture"]', (e) => e.dataset.scale));
    await page.click('#zoom-fit');
    const inBox = await page.evaluate(() => {
      const box = document.querySelector('.picture-scroll').getBoundingClientRect();
      const svg = document.querySelector('[data-reading="picture"] svg').getBoundingClientRect();
      return svg.left >= box.left && svg.right <= box.right && svg.top >= box.top && svg.bottom <= box.bottom;
    });
    assert.ok(inBox, 'fit shows the whole picture');
    if (id !== 'readme') assert.ok(Number(await page.$eval('[data-reading="picture"]', (e) => e.dataset.scale)) < opening, 'fit changed the view');
    // The legend: not in the picture, whole in its own box.
    assert.equal(await page.$eval('[data-reading="picture"] svg g#legend', (g) => getComputedStyle(g).display), 'none');
    await page.click('#legend-toggle');
    const legend = await page.$eval('#picture-legend', (el) => {
      const r = el.getBoundingClientRect(), s = el.querySelector('svg').getBoundingClientRect(), pane = el.closest('.pane').getBoundingClientRect();
      const texts = [...el.querySelectorAll('text')].map((t) => t.getBoundingClientRect());
      return { inPane: r.left >= pane.left && r.right <= pane.right && r.top >= pane.top && r.bottom <= pane.bottom,
        scrolls: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
        textsIn: texts.every((t) => t.left >= s.left - 1 && t.right <= s.right + 1 && t.top >= s.top - 1 && t.bottom <= s.bottom + 1),
        words: el.textContent };
    });
    assert.ok(legend.inPane && !legend.scrolls && legend.textsIn, `the legend is whole: ${JSON.stringify(legend)}`);
    assert.match(legend.words, /appended by differentiate/);
    if (id === 'mlp') await page.screenshot({ path: join(shots, `lab-picture-fit-legend-${viewport.width}.png`) });
    await page.keyboard.press('Escape');
    assert.ok(await page.isHidden('#picture-legend'), 'Escape closes the legend');
  });
}

test('ArrowDown on a picture node goes to a node below it, not beside it', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP });
  await page.goto(b.base + '#tab=picture&program=' + encodeURIComponent(README()));
  await ready(page);
  await page.click('#zoom-fit');
  const at = () => page.evaluate(() => { const r = document.activeElement.getBoundingClientRect(); return { node: document.activeElement.dataset.node, x: r.left + r.width / 2, y: r.top + r.height / 2 }; });
  await page.focus('[data-reading="picture"] g.node[tabindex="0"]');
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft']) {
    const from = await at();
    await page.keyboard.press(key);
    const to = await at();
    assert.notEqual(to.node, from.node, `${key} from node ${from.node} moved`);
    const [along, across] = key === 'ArrowDown' ? [to.y - from.y, to.x - from.x] : key === 'ArrowUp' ? [from.y - to.y, to.x - from.x]
      : key === 'ArrowRight' ? [to.x - from.x, to.y - from.y] : [from.x - to.x, to.y - from.y];
    assert.ok(along > 0 && Math.abs(across) <= along, `${key} from node ${from.node} to node ${to.node}: ${along.toFixed(0)} px that way, ${across.toFixed(0)} px across`);
  }
});

test('the memory tab: the chart fits its pane, its bars are reached by keyboard and named by statement, and it follows the step-through', { skip }, async () => {
  const program = s.sample('mlp');
  const want = expected(program);
  const page = await b.page({ viewport: LAPTOP });
  await page.goto(b.base + '#tab=memory&program=' + encodeURIComponent(program));
  await ready(page);
  await page.waitForSelector('[data-reading="memory"] svg');
  await noSideways(page, '.memory-scroll', 'the memory chart');
  // The first bar takes the tab stop after the chart's box; arrows move.
  await page.focus('.memory-scroll');
  await page.keyboard.press('Tab');
  const bar = () => page.evaluate(() => ({ node: document.activeElement.closest('g.buffer').dataset.node, label: document.activeElement.getAttribute('aria-label') }));
  const first = await bar();
  const buffers = want.memory.buffers;
  assert.equal(first.node, String(buffers[0].node), 'Tab reaches the first bar');
  const nameOf = (n) => want.names.find((x) => x.node === n)?.name;   // the first statement naming it (D9)
  // Its label: its statement's name (when one names it), the engine's title.
  const label = (n) => [nameOf(n), new RegExp(`<g id="n${n}" class="buffer[^"]*"><title>([^<]*)</title>`).exec(want.memory_svg)[1]].filter(Boolean).join(': ');
  assert.equal(first.label, label(buffers[0].node), 'a bar is named by its statement and the engine\'s title');
  assert.match(first.label, new RegExp(`^${nameOf(buffers[0].node)}: node ${buffers[0].node} `));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const third = await bar();
  assert.equal(third.node, String(buffers[2].node));
  await page.keyboard.press('End');
  const last = await bar();
  assert.equal(last.node, String(buffers.at(-1).node));
  assert.equal(last.label, label(buffers.at(-1).node));
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelector('#explain-line').dataset.explains === n, last.node);
  assert.ok(await page.locator(`[data-reading="memory"] g.buffer.sel[data-node="${last.node}"]`).count() === 1, 'Enter selects its node');

  // The step-through: the chart marks the step's bar and keeps it in view.
  await page.click('#steps-toggle');
  const k = 40;
  for (let i = 0; i < k; i++) await page.keyboard.press('ArrowRight');
  const node = want.memory.steps[k];
  const marked = await page.$eval('[data-reading="memory"]', (el, n) => {
    const g = el.querySelector('g.buffer.step-current');
    const box = el.closest('.scroll').getBoundingClientRect(), r = g?.getBoundingClientRect();
    return { node: g?.dataset.node, cursor: !!el.querySelector('.step-cursor'), inView: !!r && r.top >= box.top && r.bottom <= box.bottom };
  }, node);
  assert.deepEqual(marked, { node: String(node), cursor: true, inView: true }, 'the step\'s bar is marked, with the cursor, in view');
  await page.screenshot({ path: join(shots, 'lab-memory-stepping.png') });
  // Another tab during the step-through: its line of the step is in view.
  await page.click('#tab-plan');
  const inView = await page.$eval('[data-pane="plan"] .scroll', (box, n) => {
    const line = box.querySelector(`.ir-line[data-node="${n}"]`);
    const b = box.getBoundingClientRect(), r = line.getBoundingClientRect();
    return r.top >= b.top && r.bottom <= b.bottom;
  }, node);
  assert.ok(inView, 'the plan shows the step\'s line');
});

test('start here: open on a first visit, it links to the language reference, made of docs/language.md', { skip }, async () => {
  const page = await b.page({ viewport: LAPTOP });
  await page.goto(b.base);
  await ready(page);
  assert.ok(await page.$eval('#start-here', (d) => d.open), 'open on a first visit');
  const md = readFileSync(join(process.env.TP_WEB_SOURCE, '..', 'docs', 'language.md'), 'utf8');
  const part = md.slice(md.indexOf('\n## The language\n'), md.indexOf('\n## The readings\n'));
  const headings = [...part.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
  assert.ok(headings.length >= 7);
  await page.click('#start-here a[href="reference.html"]');
  await page.waitForSelector('body.reference');
  assert.deepEqual(await page.$$eval('article h2', (hs) => hs.map((h) => h.textContent)), headings, 'every section of the language part');
  assert.deepEqual(await page.$$eval('nav a', (as) => as.map((a) => a.textContent)), headings, 'and its contents');
  // Its tables and code are the document's: one row of the functions table, one diagnostic.
  assert.ok(await page.locator('table td code', { hasText: 'mean_along(a, k)' }).count() === 1);
  assert.match(await page.textContent('article'), /`ww` is not defined yet; did you mean `w`\?/);
  await page.screenshot({ path: join(shots, 'lab-reference.png') });
  await page.click('a[href="./"]');
  await ready(page);
  // Closed once, it stays closed.
  await page.click('#start-here summary');
  assert.ok(!(await page.$eval('#start-here', (d) => d.open)));
  await page.reload();
  await ready(page);
  assert.ok(!(await page.$eval('#start-here', (d) => d.open)), 'closed by the reader, it stays closed');
  assert.equal(await page.getAttribute('.top-tools a.button-link', 'href'), 'reference.html', 'the header links to it too');
});
