// Benchmark of the web build; prints figures, asserts nothing.
//
//   node tests/web/bench-web.mjs [--save FILE] [--before FILE] WASM_BUILD [NATIVE_BUILD]
//
// --save writes the page's figures (sections 3 to 5) as JSON; --before
// reads such a file from an earlier run (another commit, built side by
// side) and prints each figure beside it with the ratio before / after.
//
// 1. Shipped sizes: every file of WASM_BUILD/web/site, raw and gzip -9.
// 2. Engine time, wasm against native, on the samples (resources/samples):
//    tests/web/bench-session.c built natively (NATIVE_BUILD/tests/web) and
//    with emcc (WASM_BUILD/web, run by node), compile + JSON per read; the
//    ratio of the totals.
// 3. The page in headless Chromium: navigation to the first text readings
//    and to all six (picture included), and one compile in the worker;
//    the median of five loads.
// 4. Typing into the page: last key to "ready" (median, p90) and the
//    main-thread tasks over 50 ms (the Long Tasks API), on the README sample
//    and on a 300-line program, in one tab and in "all six".
// 5. Pasting (one insertText) a 5,000-line program, a 100,000-character
//    line and a [1024, 1024] tensor (its 12.7 MB values line): the
//    main-thread tasks over 50 ms until "ready", count, median, p90 and
//    longest.  Then the JS heap of the page (CDP Runtime.getHeapUsage after
//    a garbage collection): on the README sample, after the 5,000-line
//    program, back on the README sample, and back again after a second
//    5,000-line round.
// 6. The main thread's time to put one reading's result on the page
//    (window.toposPlayground.showMs: every pane, the teaching tabs'
//    facts included), typing into the README sample and the 300-line
//    program with the spec, check, memory (stepping) and train tabs open.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

import { openBrowser, ready } from './browser.mjs';

const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  return i < 0 ? null : resolve(argv.splice(i, 2)[1]);
};
const saveTo = option('--save'), beforeFrom = option('--before');
const [wasmBuild, nativeBuild] = argv.map((p) => p && resolve(p));
// The page's figures by name (ms, or bytes for the heap), for --save and --before.
const figures = {};
const figure = (name, value) => { figures[name] = value; return value; };
if (!wasmBuild) {
  console.error('usage: bench-web.mjs [--save FILE] [--before FILE] WASM_BUILD [NATIVE_BUILD]');
  process.exit(2);
}
const web = join(wasmBuild, 'web');
const site = join(web, 'site');
const samplesDir = resolve(new URL('../../resources/samples', import.meta.url).pathname);
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

// 1. sizes
console.log('shipped files (raw / gzip -9):');
let raw = 0, gz = 0;
for (const f of readdirSync(site).sort()) {
  const bytes = readFileSync(join(site, f));
  const z = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += z;
  console.log(`  ${f.padEnd(20)} ${kb(bytes.length).padStart(11)} / ${kb(z).padStart(10)}`);
}
console.log(`  ${'total'.padEnd(20)} ${kb(raw).padStart(11)} / ${kb(gz).padStart(10)}`);

// 2. wasm against native: the same C file (tests/web/bench-session.c) built
// both ways, one read = compile + JSON, as the page does it.
const files = readdirSync(samplesDir).filter((f) => f.endsWith('.tape')).sort().map((f) => join(samplesDir, f));
function session(cmd, args) {
  const r = spawnSync(cmd, [...args, ...files], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  const out = {};
  for (const line of r.stdout.trim().split('\n')) {
    const [name, compile, json, total] = line.split('\t');
    out[name] = { compile: Number(compile), json: Number(json), total: Number(total) };
  }
  return out;
}
const wasmBench = join(web, 'bench-session.js');
const nativeBench = nativeBuild && join(nativeBuild, 'tests', 'web', 'bench-session');
const wasmUs = session(process.execPath, ['--no-experimental-fetch', wasmBench]);
if (nativeBench && existsSync(nativeBench)) {
  const nativeUs = session(nativeBench, []);
  let tw = 0, tn = 0;
  console.log('one read (compile + JSON), median wall-clock microseconds:');
  for (const name of Object.keys(nativeUs)) {
    const w = wasmUs[name].total, n = nativeUs[name].total;
    tw += w;
    tn += n;
    console.log(`  ${name.padEnd(24)} wasm ${w.toFixed(0).padStart(6)}   native ${n.toFixed(0).padStart(6)}   ratio ${(w / n).toFixed(2)}`);
  }
  console.log(`  ${'all samples'.padEnd(24)} wasm ${tw.toFixed(0).padStart(6)}   native ${tn.toFixed(0).padStart(6)}   ratio ${(tw / tn).toFixed(2)}`);
} else {
  console.log('one read (compile + JSON) in wasm, median microseconds (give NATIVE_BUILD for the ratio):');
  for (const [name, v] of Object.entries(wasmUs)) console.log(`  ${name.padEnd(24)} ${v.total.toFixed(0)}`);
}

// 3. the page
if (existsSync(join(site, 'index.html'))) {
  const b = await openBrowser(site, join(web, 'npm'));
  const text = [], all = [], worker = [];
  for (let i = 0; i < 5; i++) {
    const page = await b.page();
    await page.goto(b.base);
    await ready(page);
    const s = await page.evaluate(() => window.toposPlayground);
    text.push(s.firstTextMs);
    all.push(s.firstReadingsMs);
    worker.push(s.engineMs[0]);
    await page.context().close();
  }
  figure('load: first text readings', median(text));
  figure('load: all six', median(all));
  console.log(`page (median of 5 loads): first text readings ${median(text).toFixed(0)} ms after navigation, `
              + `all six with the picture ${median(all).toFixed(0)} ms; one README compile in the worker ${median(worker).toFixed(1)} ms`);

  // 4. typing: main-thread long tasks (the Long Tasks API) and last key to
  // "ready", over bursts of keys, on the README sample (one tab) and on a
  // 300-line program (one tab, and "all six").
  const readme = readFileSync(join(samplesDir, 'readme.tape'), 'utf8');
  const long300 = ['# 300 lines', 'w = parameter [4, 4]', 'h0 = input [2, 4]',
    ...Array.from({ length: 297 }, (_, i) => `h${i + 1} = tanh(h${i} @ w)`), 'loss = sum(h297 * h297)', ''].join('\n');
  for (const [what, program, tab] of [['README sample, spec', readme, 'spec'], ['300 lines, spec', long300, 'spec'], ['300 lines, all six', long300, 'tiled']]) {
    const page = await b.page({ viewport: { width: 1440, height: 900 } });
    await page.goto(b.base + `#tab=${tab}&program=` + encodeURIComponent(program));
    await ready(page, 60000);
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
      addEventListener('keydown', () => { window.__lastKey = performance.now(); }, true);
      new MutationObserver(() => { if (document.body.dataset.state === 'ready') window.__readyAt = performance.now(); })
        .observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
    });
    await page.click('#editor .cm-content');
    await page.keyboard.press('Control+End');
    const toReady = [];
    for (let burst = 0; burst < 8; burst++) {
      await page.keyboard.type(`# a comment typed ${burst}\n`, { delay: 35 });
      await ready(page, 60000);
      toReady.push(await page.evaluate(() => window.__readyAt - window.__lastKey));
    }
    const long = await page.evaluate(() => window.__long);
    figure(`typing, ${what}: last key to ready, median`, median(toReady));
    figure(`typing, ${what}: last key to ready, p90`, p90(toReady));
    figure(`typing, ${what}: longest task`, long.length ? Math.max(...long) : 0);
    console.log(`typing, ${what}: last key to ready median ${median(toReady).toFixed(0)} ms, p90 ${p90(toReady).toFixed(0)} ms; `
                + `main-thread tasks over 50 ms: ${long.length}${long.length ? `, longest ${Math.max(...long).toFixed(0)} ms, p90 ${p90(long).toFixed(0)} ms` : ''}`);
    await page.context().close();
  }

  // 5. pastes and the heap
  const long5000 = ['# 5000 lines', 'w = parameter [4, 4]', 'h0 = input [2, 4]',
    ...Array.from({ length: 4997 }, (_, i) => `h${i + 1} = tanh(h${i} @ w)`), 'loss = sum(h4997 * h4997)', ''].join('\n');
  const wide = `x = parameter [2, 2]\nloss = sum(${'x * '.repeat(25000)}x)\n`;
  const tensor = 'x = parameter [1024, 1024]\ny = sum(tanh(x))\n';
  const tasks = (what, long) => (figure(`paste, ${what}: longest task`, long.length ? Math.max(...long) : 0),
    figure(`paste, ${what}: to ready`, pasteMs),
    figure(`paste, ${what}: tasks over 50 ms`, long.length), long.length
    ? `ready after ${pasteMs} ms; ${long.length} tasks over 50 ms, median ${median(long).toFixed(0)} ms, p90 ${p90(long).toFixed(0)} ms, longest ${Math.max(...long).toFixed(0)} ms`
    : `ready after ${pasteMs} ms; no task over 50 ms`);
  // 6. per reading arrival, on the main thread
  for (const [what, program] of [['README sample', readme], ['300 lines', long300]]) {
    const cells = [];
    for (const tab of ['spec', 'check', 'memory', 'train']) {
      const page = await b.page({ viewport: { width: 1440, height: 900 } });
      await page.goto(b.base + `#tab=${tab}&program=` + encodeURIComponent(program));
      await ready(page, 60000);
      if (tab === 'memory') await page.click('#steps-toggle');
      await page.evaluate(() => { window.toposPlayground.showMs.length = 0; });
      await page.click('#editor .cm-content');
      await page.keyboard.press('Control+End');
      for (let burst = 0; burst < 8; burst++) {
        await page.keyboard.type(`# typed ${burst}\n`, { delay: 35 });
        await ready(page, 60000);
      }
      const ms = await page.evaluate(() => window.toposPlayground.showMs);
      cells.push(`${tab}${tab === 'memory' ? ' (stepping)' : ''} median ${median(ms).toFixed(1)} ms, p90 ${p90(ms).toFixed(1)} ms (${ms.length})`);
      await page.context().close();
    }
    console.log(`main thread per reading arrival, ${what}: ${cells.join('; ')}`);
  }

  const page = await b.page({ viewport: { width: 1440, height: 900 } });
  await page.goto(b.base + '#tab=spec');
  await ready(page, 60000);
  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
  });
  let pasteMs = 0;   // the last paste to "ready", as the test sees it
  const paste = async (program, tab) => {
    await page.click(`.tabs [data-tab="${tab}"]`);
    await page.click('#editor .cm-content');
    await page.keyboard.press('Control+a');
    await page.evaluate(() => { window.__long = []; });
    const t0 = Date.now();
    await page.keyboard.insertText(program);
    await ready(page, 120000);
    pasteMs = Date.now() - t0;
    await page.waitForTimeout(300);   // a task still running when ready was set
    return page.evaluate(() => window.__long);
  };
  const heapStart = await heap();
  console.log(`paste, 5,000 lines, spec: ${tasks('5,000 lines, spec', await paste(long5000, 'spec'))}`);
  const heapBig = await heap();
  console.log(`paste, 5,000 lines, all six: ${tasks('5,000 lines, all six', await paste(long5000 + '# again\n', 'tiled'))}`);
  console.log(`paste, a 100,000-character line, spec: ${tasks('a 100,000-character line', await paste(wide, 'spec'))}`);
  console.log(`paste, a [1024, 1024] tensor, values: ${tasks('a [1024, 1024] tensor', await paste(tensor, 'values'))}`);
  await paste(readme, 'spec');
  const heapBack = await heap();
  // A second round: what a round keeps for good, against what the first
  // one kept once (the automation's script, compiled code).
  await paste(long5000, 'spec');
  await paste(readme, 'spec');
  const heapAgain = await heap();
  figure('heap: README sample', heapStart);
  figure('heap: after 5,000 lines', heapBig);
  figure('heap: back on the README sample', heapBack);
  figure('heap: back after a second 5,000-line round', heapAgain);
  console.log(`JS heap of the page: README sample ${mb(heapStart)}, after 5,000 lines ${mb(heapBig)}, `
              + `back on the README sample ${mb(heapBack)} (${((heapBack / heapStart - 1) * 100).toFixed(0)}% from the start); `
              + `back after a second 5,000-line round ${mb(heapAgain)} (${((heapAgain / heapBack - 1) * 100).toFixed(0)}% from the first return)`);
  await page.context().close();
  await b.close();
}
const wasmSize = statSync(join(site, 'tp-engine.wasm')).size;
console.log(`engine wasm: ${kb(wasmSize)}, ${kb(gzipSync(readFileSync(join(site, 'tp-engine.wasm')), { level: 9 }).length)} gzipped`);

if (saveTo) writeFileSync(saveTo, JSON.stringify(figures, null, 1) + '\n');
if (beforeFrom) {
  const before = JSON.parse(readFileSync(beforeFrom, 'utf8'));
  console.log('against the earlier run (before -> now, ratio before / now; ms, the heap in MB):');
  for (const [name, now] of Object.entries(figures)) {
    if (!(name in before)) continue;
    const heapish = name.startsWith('heap');
    const f = (v) => (heapish ? (v / 1048576).toFixed(1) : v.toFixed(0));
    const ratio = now > 0 ? `${(before[name] / now).toFixed(2)}x` : before[name] > 0 ? 'all gone' : '-';
    console.log(`  ${name.padEnd(58)} ${f(before[name]).padStart(7)} -> ${f(now).padStart(7)}   ${ratio}`);
  }
}
