// What the values reading's grids cost the engine's worker: the element
// texts of the JSON's tensors and gradients as the engine wrote them
// (web/src/grid.js exactTensors: the data arrays cut out of the text),
// beside the same read with a reviver that takes every number's source
// text (grid.js parseExact over the part), and JSON.parse of the whole
// JSON, which the worker does at every read anyway; in headless Chromium
// (node 20 has no source text), medians of 9.
//
//   node tests/web/bench-grid.mjs NATIVE_TOPOS BUILD/web/npm
//
// Prints one line per program: the JSON's size, the three medians and
// the ratios.  Asserts nothing.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CHROMIUM } from './browser.mjs';
import { serve } from '../../web/tools/serve.mjs';

const [topos, npm] = process.argv.slice(2);
if (!topos || !npm) {
  console.error('usage: node bench-grid.mjs NATIVE_TOPOS BUILD/web/npm');
  process.exit(2);
}
const chain = (n) => [`# ${n} lines`, 'w = parameter [4, 4]', 'h0 = input [2, 4]',
  ...Array.from({ length: n - 3 }, (_, i) => `h${i + 1} = tanh(h${i} @ w)`), `loss = sum(h${n - 3} * h${n - 3})`, ''].join('\n');
const PROGRAMS = [['an [8, 8] matrix', 'w = parameter [8, 8]\nx = input [8, 8]\nloss = sum(w @ x)\n'],
  ['300 lines', chain(300)], ['5,000 lines', chain(5000)]];

const { chromium } = createRequire(join(resolve(npm), 'node_modules', 'noop.js'))('playwright-core');
const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'src');
const server = await serve(src, 0);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
await page.goto(base + 'index.html');
for (const [what, program] of PROGRAMS) {
  const all = JSON.parse(execFileSync(topos, ['--json', '-'], { input: program, maxBuffer: 1 << 30 }).toString());
  delete all.map;   // the worker's JSON has none
  const json = JSON.stringify(all);
  const t = await page.evaluate(async ([json, gridUrl]) => {
    const { exactTensors, parseExact } = await import(gridUrl);
    const median = (fn) => {
      const runs = [];
      for (let i = 0; i < 9; i++) { const a = performance.now(); fn(); runs.push(performance.now() - a); }
      return runs.sort((x, y) => x - y)[4];
    };
    const parsed = JSON.parse(json);
    return {
      parse: median(() => JSON.parse(json)),
      exact: median(() => exactTensors(json, parsed.names, parsed.gradient_nodes)),
      reviver: median(() => {
        const from = json.indexOf(',"tensors":{'), to = json.indexOf(',"arguments":', from);
        parseExact(`{${json.slice(from + 1, to)}}`);
      }),
      tensors: exactTensors(json, parsed.names, parsed.gradient_nodes).size,
    };
  }, [json, base + 'grid.js']);
  console.log(`${what}: JSON ${(json.length / 1e6).toFixed(2)} MB; JSON.parse ${t.parse.toFixed(1)} ms; `
    + `the grids' exact texts (${t.tensors} tensors) ${t.exact.toFixed(1)} ms (${(t.exact / t.parse).toFixed(2)} of the parse), `
    + `with a reviver ${t.reviver.toFixed(1)} ms (${(t.exact / t.reviver).toFixed(2)} of it)`);
}
await browser.close();
server.close();
