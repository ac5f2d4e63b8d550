// The compiler's passes and forward mode on the page, in headless
// Chromium with real clicks and keys, each against the native engine's
// own output (TP_NATIVE_TOPOS): the optimise choice's plan, the fusion
// pane and its saving, a fusion line selecting its node, the picture's
// kernels as clusters, the tangent band, a remat toggle and auto, the forward pane along a
// picked direction with its tangent nodes lit apart, "copy as JAX" and
// its .py download; the pass readings are asked for only when their tab
// is shown; axe-core on every new pane and control, at 1280x720 and on a
// 390x844 phone.  Screenshots go to TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs, and TP_NATIVE_TOPOS (the native topos).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { pageSuite, ready } from './browser.mjs';
import { unmet } from './prereq.mjs';

const s = pageSuite();
const topos = process.env.TP_NATIVE_TOPOS;
const skip = s.skip || unmet(!topos || !existsSync(topos) ? 'TP_NATIVE_TOPOS does not name the native topos' : false);
const axePath = join(s.build || '.', 'npm', 'node_modules', 'axe-core', 'axe.min.js');

let b;
before(async () => { if (!skip) b = await s.open(); });

const DESKTOP = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

// The native engine's output for a sample and its flags.
function native(sample, ...args) {
  return execFileSync(topos, [...args, join(s.samplesDir, `${sample}.tape`)], { encoding: 'utf8', maxBuffer: 1 << 26 });
}
const nativeJson = (sample, members, ...args) => JSON.parse(native(sample, `--json=${members}`, ...args));

async function open(hash, sample, viewport = DESKTOP) {
  const page = await b.page({ viewport });
  await page.goto(b.base + hash + '&program=' + encodeURIComponent(s.sample(sample)));
  await ready(page);
  return page;
}
const text = (page, reading) => page.textContent(`[data-reading="${reading}"]`);
// The node selected across the readings ('' for none), as the page
// announces it ("node 4 Sub (error): ...").
const selected = (page) => page.textContent('#explain-announce').then((t) => /^(\d+) /.exec(t)?.[1] ?? '');
// The node lit in reading pane `tab`, shown for it (a hidden pane has its
// markup only once shown).
async function litIn(page, tab) {
  await page.click(`#tab-${tab}`);
  await ready(page);
  return page.$$eval(`[data-reading="${tab}"] .ir-line.sel`, (ls) => ls.map((l) => Number(l.dataset.node)));
}

async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(axePath, 'utf8'));
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
  });
}

test('optimise: a click on the choice turns the plan into --optimize\'s; the spec and derivative stay; off again, back', { skip }, async () => {
  const page = await open('#tab=plan&target=loss&observe=error', 'readme');
  const args = ['--target', 'loss', '--observe', 'error'];
  const plain = await text(page, 'plan');
  assert.equal(plain, native('readme', ...args, '--reading', 'plan'));
  const derivative = await text(page, 'derivative');
  await page.click('#optimize');
  await ready(page);
  const optimised = native('readme', ...args, '--optimize', '--reading', 'plan');
  assert.notEqual(optimised, plain, 'the optimised plan differs (the sample has rewrites)');
  assert.equal(await text(page, 'plan'), optimised);
  assert.equal(await text(page, 'stablehlo'), native('readme', ...args, '--optimize', '--reading', 'stablehlo'));
  assert.equal(await text(page, 'derivative'), derivative, 'the derivative stays the recorded tape');
  assert.match(page.url(), /optimize=1/, 'the link keeps it');
  // By keyboard: Space on the focused checkbox.
  await page.focus('#optimize');
  await page.keyboard.press('Space');
  await ready(page);
  assert.equal(await text(page, 'plan'), plain);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the pass readings are made only when their tab is shown; the optimised pane is the engine\'s', { skip }, async () => {
  const page = await open('#tab=spec&target=loss&observe=error', 'readme');
  for (const r of ['optimized', 'fusion', 'forward']) assert.equal(await text(page, r), '', `${r} is not asked for on the spec tab`);
  await page.click('#tab-optimized');
  await ready(page);
  assert.equal(await text(page, 'optimized'), native('readme', '--target', 'loss', '--observe', 'error', '--reading', 'optimized'));
  assert.equal(await text(page, 'fusion'), '', 'the fusion reading is still not made');
  // An edit: the shown pane follows it.
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('z = loss * 1.0\n');
  await ready(page);
  assert.match(await text(page, 'optimized'), /1 \* x|x \* 1/, 'the new statement\'s rewrite is read');
  await page.context().close();
});

test('fusion: the pane is --reading fusion, the saving is the engine\'s sentence; a kernel\'s line selects its node everywhere', { skip }, async () => {
  const page = await open('#tab=fusion&target=loss&observe=error', 'readme');
  const args = ['--target', 'loss', '--observe', 'error'];
  assert.equal(await text(page, 'fusion'), native('readme', ...args, '--reading', 'fusion'));
  const fusion = nativeJson('readme', 'fusion', ...args).fusion;
  assert.equal(await text(page, 'fusion-saving'), fusion.sentence);
  assert.match(fusion.sentence, /less/);
  // Kernel 3 (nodes 3, 4): its line stands for its last node.
  const line = page.locator('[data-reading="fusion"] .ir-line[data-node="4"]');
  await line.click({ position: { x: 5, y: 5 } });
  assert.equal(await page.getAttribute('[data-reading="fusion"] .ir-line[data-node="4"]', 'class').then((c) => c.includes('sel')), true);
  assert.equal(await selected(page), '4');
  assert.deepEqual(await litIn(page, 'plan'), [4], 'the plan lights node 4');
  assert.deepEqual(await litIn(page, 'spec'), [4], 'the spec lights node 4');
  await page.click('#tab-fusion');
  await ready(page);
  // A node operand token of another kernel's line selects that node.
  await page.click('[data-reading="fusion"] [data-ref="13"]');
  assert.equal(await selected(page), '13');
  // By keyboard: Tab from the scroll box to the reading's line, Down to
  // the next kernel's line, Enter selects its node.
  await page.focus('[aria-label="the fusion reading, scrollable"]');
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => document.activeElement.dataset.node);
  await page.keyboard.press('ArrowDown');
  const next = await page.evaluate(() => document.activeElement.dataset.node);
  assert.ok(first !== undefined && next !== undefined && next !== first, `Down moves from ${first} to ${next}`);
  await page.keyboard.press('Enter');
  assert.equal(await selected(page), next);
  assert.ok(await page.$(`[data-reading="fusion"] .ir-line.sel[data-node="${next}"]`));
  await page.screenshot({ path: join(s.shots, 'passes-fusion.png') });
  assert.deepEqual(await violations(page), [], 'axe: the fusion pane');
  await page.context().close();
});

test('kernels as clusters: the toggle draws the engine\'s dot_kernels, a dashed box per kernel of several nodes', { skip }, async () => {
  const page = await open('#tab=picture', 'dense-layer');
  const clusters = () => page.$$eval('[data-reading="picture"] svg g.cluster[id^="kernel"]', (gs) => gs.map((g) => g.id));
  assert.deepEqual(await clusters(), [], 'the plain picture has no kernel boxes');
  await page.click('#kernels-toggle');
  await ready(page);
  assert.equal(await page.getAttribute('#kernels-toggle', 'aria-pressed'), 'true');
  // The fusion reading's kernels of several nodes, by their numbers (each
  // kernel numbered by its first step).
  const several = native('dense-layer', '--reading', 'fusion').split('\n')
    .map((l) => /^\s+(\d+)\s+[a-z]+\s+\d+\s+\d+\s+\d+, /.exec(l)).filter(Boolean).map((m) => `kernel${m[1]}`);
  assert.ok(several.length >= 2);
  assert.deepEqual((await clusters()).sort(), several.sort());
  // Each box is labelled with its kernel, and the picture still draws every node.
  assert.deepEqual((await page.$$eval('[data-reading="picture"] svg g.cluster[id^="kernel"] > text', (ts) => ts.map((t) => t.textContent))).sort(),
    several.map((k) => k.replace('kernel', 'kernel ')).sort());
  await page.screenshot({ path: join(s.shots, 'passes-clusters.png') });
  assert.deepEqual(await violations(page), [], 'axe: the picture with clusters');
  await page.click('#kernels-toggle');
  await ready(page);
  assert.deepEqual(await clusters(), []);
  await page.context().close();
});

test('tangent band: the toggle draws the engine\'s dot_tangent, forward mode\'s tangent nodes as a third band; it and the kernels take turns', { skip }, async () => {
  const page = await open('#tab=picture', 'readme');
  const fwd = nativeJson('readme', 'forward').forward;
  const band = () => page.$$eval('[data-reading="picture"] svg g.cluster#tangent', (gs) => gs.length);
  const tangents = () => page.$$eval('[data-reading="picture"] svg g.node[id^="t"]', (gs) => gs.map((g) => g.id).sort());
  assert.equal(await band(), 0, 'the plain picture has no tangent band');
  await page.click('#tangents-toggle');
  await ready(page);
  await page.waitForSelector('[data-reading="picture"] svg g.cluster#tangent');
  assert.equal(await page.getAttribute('#tangents-toggle', 'aria-pressed'), 'true');
  const wanted = [];
  for (let i = fwd.nodes[0]; i < fwd.nodes[1]; i++) wanted.push(`t${i}`);
  assert.deepEqual(await tangents(), wanted.sort(), 'one node per tangent node, numbered as the forward reading');
  assert.ok(await page.$(`[data-reading="picture"] svg g.node#t${fwd.tangent_node}.tangent-target`));
  assert.match(await page.textContent('[data-reading="picture"] svg g.cluster#tangent'), /tangent: recorded by forward mode/);
  assert.ok(await page.$('[data-reading="picture"] svg g.cluster#gradient'), 'the gradient band stays');
  assert.match(page.url(), /tangents=1/);
  await page.screenshot({ path: join(s.shots, 'passes-tangent-band.png') });
  assert.deepEqual(await violations(page), [], 'axe: the picture with the tangent band');
  // The kernels' picture instead: one of the two at a time.
  await page.click('#kernels-toggle');
  await ready(page);
  await page.waitForFunction(() => !document.querySelector('[data-reading="picture"] svg g.cluster#tangent'));
  assert.equal(await page.getAttribute('#tangents-toggle', 'aria-pressed'), 'false');
  assert.equal(await page.getAttribute('#kernels-toggle', 'aria-pressed'), 'true');
  await page.click('#kernels-toggle');
  await ready(page);
  assert.equal(await band(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rematerialisation: a statement\'s toggle gives --remat NAME\'s plan, chart and StableHLO; auto gives --remat auto\'s', { skip }, async () => {
  const page = await open('#tab=memory', 'two-layers');
  const remat = nativeJson('two-layers', 'remat,names').remat;
  assert.ok(remat.candidates.length >= 2);
  const names = await page.$$eval('#remat-list [data-remat]', (bs) => bs.map((x) => x.dataset.remat));
  assert.equal(names.length, remat.candidates.length, 'one toggle per candidate');
  const name = names[0];
  const plainChart = await page.innerHTML('[data-reading="memory"]');
  await page.screenshot({ path: join(s.shots, 'passes-memory-plain.png') });
  await page.click(`#remat-list [data-remat="${name}"]`);
  await ready(page);
  assert.equal(await page.getAttribute(`#remat-list [data-remat="${name}"]`, 'aria-pressed'), 'true');
  assert.equal(await text(page, 'plan'), native('two-layers', '--remat', name, '--reading', 'plan'));
  assert.match(await text(page, 'plan'), /recomputed/);
  assert.equal(await text(page, 'stablehlo'), native('two-layers', '--remat', name, '--reading', 'stablehlo'));
  assert.equal(await text(page, 'remat-sentence'), nativeJson('two-layers', 'remat', '--remat', name).remat.sentence);
  assert.notEqual(await page.innerHTML('[data-reading="memory"]'), plainChart, 'the chart has the recomputation');
  await page.screenshot({ path: join(s.shots, 'passes-memory-remat.png') });
  // The step-through walks the recomputation too.
  const steps = nativeJson('two-layers', 'steps', '--remat', name).steps;
  assert.ok(steps.some((x) => / computed again for the gradient /.test(x.text)), 'a step computes a node again');
  await page.click('#steps-toggle');
  await page.keyboard.press('End');
  assert.equal(await page.textContent('#step-text'), steps.at(-1).text, 'the engine\'s sentence of the last step');
  await page.keyboard.press('Home');
  for (let k = 1; k < steps.length && !/ computed again /.test(steps[k - 1].text); k++) await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#step-text'), / computed again for the gradient /, 'and of the step that computes it again');
  await page.click('#steps-toggle');
  // Auto, by keyboard.
  await page.focus('#remat-auto');
  await page.keyboard.press('Enter');
  await ready(page);
  assert.equal(await page.getAttribute('#remat-auto', 'aria-pressed'), 'true');
  assert.equal(await text(page, 'plan'), native('two-layers', '--remat', 'auto', '--reading', 'plan'));
  assert.equal(await text(page, 'remat-sentence'), nativeJson('two-layers', 'remat', '--remat', 'auto').remat.sentence);
  assert.deepEqual(await violations(page), [], 'axe: the memory pane with remat');
  await page.click('#remat-auto');
  await ready(page);
  assert.equal(await text(page, 'plan'), native('two-layers', '--reading', 'plan'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('forward: the pane is --reading forward, seeded or along a picked element; tangent nodes light apart', { skip }, async () => {
  const page = await open('#tab=forward', 'classifier');
  assert.equal(await text(page, 'forward'), native('classifier', '--reading', 'forward'));
  const params = await page.$$eval('#direction-parameter option', (os) => os.map((o) => o.value));
  assert.deepEqual(params, ['', ...Object.keys(nativeJson('classifier', 'forward').forward.direction)]);
  await page.selectOption('#direction-parameter', 'w');
  await ready(page);
  assert.equal(await text(page, 'forward'), native('classifier', '--reading', 'forward', '--direction', 'w'));
  // Element [0, 1]: the second axis's picker, by keyboard.
  const axis1 = '#direction-index select[data-axis="1"]';
  assert.equal(await page.$$eval('#direction-index select', (ss) => ss.length), 2, 'one index picker per axis of w [5, 3]');
  await page.focus(axis1);
  await page.keyboard.press('ArrowDown');   // 0 -> 1 (a closed select changes on arrows)
  await ready(page);
  const wanted = native('classifier', '--reading', 'forward', '--direction', 'w[0, 1]');
  assert.equal(await text(page, 'forward'), wanted);
  assert.match(page.url(), /direction=w%5B0%2C(\+|%20)1%5D/);
  // A tangent node: lit in this pane only, with its tangent step.
  const fwd = nativeJson('classifier', 'forward', '--direction', 'w[0, 1]').forward;
  const node = fwd.tangent_node;
  await page.click(`[data-reading="forward"] .ir-line[data-tnode="${node}"]`, { position: { x: 5, y: 5 } });
  assert.ok(await page.$(`[data-reading="forward"] .ir-line.tsel[data-tnode="${node}"]`));
  assert.equal(await page.textContent('#tangent-step'), fwd.steps.find((x) => x.node === node).text);
  assert.equal(await selected(page), '', 'nothing is selected elsewhere: that number is another node there');
  // By keyboard: Tab from the scroll box to the reading's lines, Down to
  // the first tangent node's line, Enter lights it.
  await page.focus('[aria-label="the forward reading, scrollable"]');
  await page.keyboard.press('Tab');
  let at = null;
  for (let k = 0; k < 40 && at === null; k++) {
    await page.keyboard.press('ArrowDown');
    at = await page.evaluate(() => document.activeElement.dataset.tnode ?? null);
  }
  assert.equal(Number(at), fwd.nodes[0], 'Down reaches the first tangent node');
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent('#tangent-step'), fwd.steps[0].text);
  // A program node selects everywhere.
  await page.click('[data-reading="forward"] .ir-line[data-node="3"]', { position: { x: 5, y: 5 } });
  assert.equal(await selected(page), '3');
  assert.ok(await page.$('[data-reading="forward"] .ir-line.sel[data-node="3"]'));
  await page.screenshot({ path: join(s.shots, 'passes-forward.png') });
  assert.deepEqual(await violations(page), [], 'axe: the forward pane');
  // Back to the seeded direction.
  await page.selectOption('#direction-parameter', '');
  await ready(page);
  assert.equal(await text(page, 'forward'), native('classifier', '--reading', 'forward'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the tangent step-through: first, next, previous and last walk forward.steps, each lit with the engine\'s sentence', { skip }, async () => {
  const page = await open('#tab=forward', 'readme');
  const steps = nativeJson('readme', 'forward').forward.steps;
  assert.ok(steps.length >= 3, 'the README program has tangent steps');
  const shown = async () => ({
    text: await page.textContent('#tangent-step'),
    // the tangent node's line (and the direction's line of its leaf, for a seed)
    lit: await page.$$eval('[data-reading="forward"] .ir-line.tsel', (ls) => [...new Set(ls.map((l) => Number(l.dataset.tnode)))]),
  });
  assert.ok(await page.isVisible('#tangent-walk'));
  assert.ok(await page.isDisabled('#tangent-prev'), 'nothing to go back to before the first step');
  for (let k = 0; k < steps.length; k++) {
    await page.click('#tangent-next');
    assert.deepEqual(await shown(), { text: steps[k].text, lit: [steps[k].node] }, `step ${k + 1}`);
  }
  assert.ok(await page.isDisabled('#tangent-next'), 'the last step has no next');
  await page.click('#tangent-prev');
  assert.deepEqual(await shown(), { text: steps[steps.length - 2].text, lit: [steps[steps.length - 2].node] });
  // By keyboard: the focus on previous, Enter twice more.
  await page.focus('#tangent-prev');
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent('#tangent-step'), steps[steps.length - 3].text);
  await page.click('#tangent-first');
  assert.deepEqual(await shown(), { text: steps[0].text, lit: [steps[0].node] });
  // A click on a tangent node's line walks on from there.
  await page.click(`[data-reading="forward"] .ir-line[data-tnode="${steps[1].node}"]`, { position: { x: 5, y: 5 } });
  await page.click('#tangent-next');
  assert.equal(await page.textContent('#tangent-step'), steps[2].text);
  assert.deepEqual(await violations(page), [], 'axe: the tangent step-through');
  await page.screenshot({ path: join(s.shots, 'passes-tangent-steps.png') });
  await page.context().close();
});

test('the tangent step-through past the JSON\'s sentences: the engine makes the late step\'s', { skip }, async () => {
  // 8,999 tangent steps: the JSON writes the first 8,192 sentences.
  const lines = ['a0 = parameter [2]'];
  for (let i = 1; i < 3000; i++) lines.push(`a${i} = a${i - 1} * a${i - 1}`);
  lines.push('loss = sum(a2999)');
  const page = await b.page({ viewport: DESKTOP });
  await page.goto(b.base + '#tab=forward&program=' + encodeURIComponent(lines.join('\n') + '\n'));
  await ready(page);
  await page.waitForSelector('#tangent-walk:not([hidden])');
  await page.click('#tangent-last');
  await page.waitForFunction(() => document.querySelector('#tangent-step').textContent !== '');
  assert.match(await page.textContent('#tangent-step'),
    /^tangent step 8999 of 8999: node 11999 Sum, the tangent rule of node 3000 Sum \(loss\): /);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('copy as JAX puts the jax reading on the clipboard; download .py gives it as a file', { skip }, async () => {
  const page = await open('#tab=spec&target=loss&observe=error', 'readme');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(b.base).origin });
  const jax = native('readme', '--target', 'loss', '--observe', 'error', '--reading', 'jax');
  assert.match(jax, /import jax/);
  await page.click('#copy-jax');
  await page.waitForFunction(() => /copied the program in JAX/.test(document.querySelector('#notice').textContent));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), jax);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#download-jax')]);
  assert.match(dl.suggestedFilename(), /\.py$/);
  assert.equal(readFileSync(await dl.path(), 'utf8'), jax);
  await page.context().close();
});

test('a phone: the new tabs, the picker and the toggles are reachable and clean', { skip }, async () => {
  const page = await open('#tab=forward&direction=w', 'classifier', PHONE);
  assert.equal(await text(page, 'forward'), native('classifier', '--reading', 'forward', '--direction', 'w'));
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
  assert.ok(fits, 'nothing wider than the phone');
  await page.locator('.tabs').evaluate((t) => window.scrollBy(0, t.getBoundingClientRect().top - 8));
  await page.screenshot({ path: join(s.shots, 'passes-phone-forward.png') });
  assert.deepEqual(await violations(page), [], 'axe: the forward pane on a phone');
  await page.click('#tab-fusion');
  await ready(page);
  assert.match(await text(page, 'fusion-saving'), /less/);
  await page.locator('.tabs').evaluate((t) => window.scrollBy(0, t.getBoundingClientRect().top - 8));
  await page.screenshot({ path: join(s.shots, 'passes-phone-fusion.png') });
  assert.deepEqual(await violations(page), [], 'axe: the fusion pane on a phone');
  await page.click('#tab-memory');
  await ready(page);
  await page.locator('.tabs').evaluate((t) => window.scrollBy(0, t.getBoundingClientRect().top - 8));
  await page.screenshot({ path: join(s.shots, 'passes-phone-memory.png') });
  assert.deepEqual(await violations(page), [], 'axe: the memory pane on a phone');
  await page.context().close();
});

test('dark: the optimised, fusion and forward panes, the remat row and the clusters toggle are clean', { skip }, async () => {
  const page = await b.page({ viewport: DESKTOP, colorScheme: 'dark' });
  await page.goto(b.base + '#tab=optimized&optimize=1&kernels=1&remat=h&program=' + encodeURIComponent(s.sample('two-layers')));
  await ready(page);
  assert.equal(await text(page, 'optimized'), native('two-layers', '--optimize', '--remat', 'h', '--reading', 'optimized'));
  for (const tab of ['optimized', 'fusion', 'forward', 'memory', 'picture']) {
    await page.click(`#tab-${tab}`);
    await ready(page);
    await page.screenshot({ path: join(s.shots, `passes-dark-${tab}.png`) });
    assert.deepEqual(await violations(page), [], `axe: dark, ${tab}`);
  }
  assert.equal(await page.getAttribute('#remat-list [data-remat="h"]', 'aria-pressed'), 'true', 'the link\'s remat choice');
  assert.equal(await page.$$eval('[data-reading="picture"] svg g.cluster[id^="kernel"]', (gs) => gs.length) > 0, true, 'the link\'s kernels choice');
  await page.context().close();
});
