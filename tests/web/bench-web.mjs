// Benchmark of the web build; prints figures, asserts nothing.
//
//   node tests/web/bench-web.mjs WASM_BUILD [NATIVE_BUILD]
//
// 1. Shipped sizes: every file of WASM_BUILD/web/site, raw and gzip -9.
// 2. Engine time, wasm against native, on the samples (resources/samples):
//    tests/web/bench-session.c built natively (NATIVE_BUILD/tests/web) and
//    with emcc (WASM_BUILD/web, run by node), compile + JSON per read; the
//    ratio of the totals.
// 3. The page in headless Chromium: navigation to the first text readings
//    and to all six (picture included), and one compile in the worker;
//    the median of five loads.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

import { openBrowser, ready } from './browser.mjs';

const [wasmBuild, nativeBuild] = process.argv.slice(2).map((p) => p && resolve(p));
if (!wasmBuild) {
  console.error('usage: bench-web.mjs WASM_BUILD [NATIVE_BUILD]');
  process.exit(2);
}
const web = join(wasmBuild, 'web');
const site = join(web, 'site');
const samplesDir = resolve(new URL('../../resources/samples', import.meta.url).pathname);
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
  await b.close();
  console.log(`page (median of 5 loads): first text readings ${median(text).toFixed(0)} ms after navigation, `
              + `all six with the picture ${median(all).toFixed(0)} ms; one README compile in the worker ${median(worker).toFixed(1)} ms`);
}
const wasmSize = statSync(join(site, 'tp-engine.wasm')).size;
console.log(`engine wasm: ${kb(wasmSize)}, ${kb(gzipSync(readFileSync(join(site, 'tp-engine.wasm')), { level: 9 }).length)} gzipped`);
