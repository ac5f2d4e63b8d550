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
// 4. Typing into the page: last key to the readings shown (the engine's
//    result on the page, window.toposPlayground.shownAt) and to "ready"
//    (the picture's layout and the teaching facts in too; median, p90), and
//    the main-thread tasks over 50 ms (the Long Tasks API), on the README sample
//    and on a 300-line program, in one tab and in "all six".
// 5. Pasting (one insertText) a 5,000-line program (five times), a
//    100,000-character line and a [1024, 1024] tensor (its 12.7 MB values
//    line): the main-thread tasks over 50 ms until "ready" and the paste's
//    own handling.  Then the JS heap of the page (CDP Runtime.getHeapUsage
//    after a garbage collection), and V8's compiled code in it: on the
//    README sample, after the 5,000-line program (whose paste, right after
//    a forced collection, is the cold case), back on the README sample by
//    the samples menu and by pasting it over, and after a second round.
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
    const toReady = [], toShown = [];
    for (let burst = 0; burst < 8; burst++) {
      await page.keyboard.type(`# a comment typed ${burst}\n`, { delay: 35 });
      await ready(page, 60000);
      toReady.push(await page.evaluate(() => window.__readyAt - window.__lastKey));
      // the readings on screen (the engine's result shown), before the
      // picture's layout and the teaching facts that follow it
      toShown.push(await page.evaluate(() => window.toposPlayground.shownAt - window.__lastKey));
    }
    const long = await page.evaluate(() => window.__long);
    figure(`typing, ${what}: last key to the readings shown, median`, median(toShown));
    figure(`typing, ${what}: last key to ready, median`, median(toReady));
    figure(`typing, ${what}: last key to ready, p90`, p90(toReady));
    figure(`typing, ${what}: longest task`, long.length ? Math.max(...long) : 0);
    console.log(`typing, ${what}: last key to the readings shown median ${median(toShown).toFixed(0)} ms; `
                + `to ready (picture and teaching facts too) median ${median(toReady).toFixed(0)} ms, p90 ${p90(toReady).toFixed(0)} ms; `
                + `main-thread tasks over 50 ms: ${long.length}${long.length ? `, longest ${Math.max(...long).toFixed(0)} ms, p90 ${p90(long).toFixed(0)} ms` : ''}`);
    await page.context().close();
  }

  // 5. Pasting, on a page where nothing forced a garbage collection (a
  // forced one, as the heap's figures need, throws away compiled code and
  // what it learnt, so the next paste runs cold: that case is apart below).
  // Per paste: the main-thread tasks over 50 ms until "ready", and the
  // paste's own handling (its input event, capture to bubble, on window).
  const long5000 = ['# 5000 lines', 'w = parameter [4, 4]', 'h0 = input [2, 4]',
    ...Array.from({ length: 4997 }, (_, i) => `h${i + 1} = tanh(h${i} @ w)`), 'loss = sum(h4997 * h4997)', ''].join('\n');
  const wide = `x = parameter [2, 2]\nloss = sum(${'x * '.repeat(25000)}x)\n`;
  const tensor = 'x = parameter [1024, 1024]\ny = sum(tanh(x))\n';
  const pastePage = async () => {
    const page = await b.page({ viewport: { width: 1440, height: 900 } });
    await page.goto(b.base + '#tab=spec');
    await ready(page, 60000);
    // A second for the start-up's last work on the other threads (raster,
    // the compiler's background jobs): on two cores a paste in the first
    // quarter second after "ready" shares its core with them (its handling
    // then ran to 62-68 ms in some runs, against 41-44 ms at most a second
    // later).  A reader does not paste that fast after the page opens.
    await page.waitForTimeout(1000);
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
      let t0 = 0;
      addEventListener('beforeinput', () => { t0 = performance.now(); }, true);
      addEventListener('beforeinput', () => { window.__handled = performance.now() - t0; });
    });
    return page;
  };
  const paste = async (page, program, tab) => {
    await page.click(`.tabs [data-tab="${tab}"]`);
    await page.click('#editor .cm-content');
    await page.keyboard.press('Control+a');
    await page.evaluate(() => { window.__long = []; });
    const t0 = Date.now();
    await page.keyboard.insertText(program);
    await ready(page, 120000);
    const ms = Date.now() - t0;
    await page.waitForTimeout(300);   // a task still running when ready was set
    const [long, handled] = await page.evaluate(() => [window.__long, window.__handled]);
    return { long, ms, handled };
  };
  const tasks = (what, runs) => {
    const long = runs.flatMap((r) => r.long), longest = runs.map((r) => (r.long.length ? Math.max(...r.long) : 0));
    const handled = runs.map((r) => r.handled), toReady = runs.map((r) => r.ms);
    figure(`paste, ${what}: longest task`, Math.max(...longest));
    figure(`paste, ${what}: tasks over 50 ms`, long.length);
    figure(`paste, ${what}: to ready`, median(toReady));
    figure(`paste, ${what}: the paste's handling, median`, median(handled));
    const of = runs.length > 1 ? ` (${runs.length} pastes)` : '';
    return `ready after ${median(toReady)} ms${runs.length > 1 ? ' (median)' : ''}; the paste's handling ${runs.length > 1 ? `median ${median(handled).toFixed(0)} ms, longest ` : ''}`
      + `${Math.max(...handled).toFixed(0)} ms; ${long.length ? `${long.length} tasks over 50 ms${of}, longest ${Math.max(...long).toFixed(0)} ms` : `no task over 50 ms${of}`}`;
  };
  {
    const page = await pastePage();
    const runs = [];
    for (let i = 0; i < 5; i++) {
      runs.push(await paste(page, long5000 + `# paste ${i}\n`, 'spec'));
      await paste(page, readme, 'spec');
    }
    console.log(`paste, 5,000 lines, spec: ${tasks('5,000 lines, spec', runs)}`);
    console.log(`paste, 5,000 lines, all six: ${tasks('5,000 lines, all six', [await paste(page, long5000, 'tiled')])}`);
    console.log(`paste, a 100,000-character line, spec: ${tasks('a 100,000-character line', [await paste(page, wide, 'spec')])}`);
    console.log(`paste, a [1024, 1024] tensor, values: ${tasks('a [1024, 1024] tensor', [await paste(page, tensor, 'values')])}`);
    await page.context().close();
  }

  // The JS heap of a page (CDP Runtime.getHeapUsage after a garbage
  // collection), and the part of it that is V8's compiled code (a heap
  // snapshot's "code" nodes): its start on the README sample, after the
  // automation's first click (which puts its own script, about 0.9 MB, in
  // the page); after the 5,000-line program; back on the README sample by
  // the samples menu (as a reader goes back: the program stays a draft);
  // back by pasting the sample over the program (the editor's undo history
  // keeps the pasted texts, for Ctrl+Z); and after a second round.  The
  // first paste here comes right after a forced collection: the cold case.
  const page = await pastePage();
  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  const codeBytes = async () => {
    const chunks = [];
    const take = (e) => chunks.push(e.chunk);
    cdp.on('HeapProfiler.addHeapSnapshotChunk', take);
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    cdp.off('HeapProfiler.addHeapSnapshotChunk', take);
    const snap = JSON.parse(chunks.join(''));
    const fields = snap.snapshot.meta.node_fields, types = snap.snapshot.meta.node_types[0];
    const n = fields.length, type = fields.indexOf('type'), size = fields.indexOf('self_size');
    let code = 0;
    for (let i = 0; i < snap.nodes.length; i += n) if (types[snap.nodes[i + type]] === 'code') code += snap.nodes[i + size];
    return code;
  };
  const menu = async () => {
    await page.selectOption('#sample', 'readme');
    await ready(page, 60000);
    await page.waitForTimeout(300);
  };
  const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
  await page.click('.tabs [data-tab="spec"]');
  const heapStart = await heap(), codeStart = await codeBytes();
  console.log(`paste, 5,000 lines, spec, right after a forced garbage collection: ${tasks('5,000 lines, spec, cold', [await paste(page, long5000, 'spec')])}`);
  const heapBig = await heap();
  await paste(page, long5000 + '# again\n', 'tiled');
  await paste(page, wide, 'spec');
  await paste(page, tensor, 'values');
  await page.click('.tabs [data-tab="spec"]');
  await menu();
  const heapBack = await heap(), codeBack = await codeBytes();
  await paste(page, long5000, 'spec');
  await paste(page, readme, 'spec');
  const heapPasted = await heap();
  await paste(page, long5000, 'spec');
  await menu();
  const heapAgain = await heap(), codeAgain = await codeBytes();
  figure('heap: README sample', heapStart);
  figure('heap: after 5,000 lines', heapBig);
  figure('heap: back on the README sample', heapBack);
  figure('heap: back, without compiled code', heapBack - codeBack);
  figure('heap: back by pasting it over', heapPasted);
  figure('heap: back after a second 5,000-line round', heapAgain);
  const from = (x, y) => `${((x / y - 1) * 100).toFixed(0)}%`;
  console.log(`JS heap of the page: README sample ${mb(heapStart)} (compiled code ${mb(codeStart)}), after 5,000 lines ${mb(heapBig)}, `
              + `back on the README sample by the samples menu ${mb(heapBack)} (${from(heapBack, heapStart)} from the start; compiled code ${mb(codeBack)}, `
              + `the rest ${mb(heapBack - codeBack)} against ${mb(heapStart - codeStart)}: ${from(heapBack - codeBack, heapStart - codeStart)}); `
              + `back by pasting the sample over ${mb(heapPasted)} (${from(heapPasted, heapStart)}); `
              + `back after a second round ${mb(heapAgain)} (${from(heapAgain, heapBack)} from the first return; compiled code ${mb(codeAgain)}, `
              + `the rest ${mb(heapAgain - codeAgain)}: ${from(heapAgain - codeAgain, heapBack - codeBack)})`);
  await page.context().close();
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
