// Benchmark: the two graphviz-in-wasm packages on a large gradient graph.
//
//   node tests/web/bench-graphviz.mjs NPM_DIR TOPOS [LAYERS...]
//
// NPM_DIR is the build's web/npm folder (it holds node_modules), TOPOS the
// native command line.  For each depth it writes a deep tanh network, takes
// the engine's DOT (`topos --reading dot`) and lays it out with @viz-js/viz
// and @hpcc-js/wasm-graphviz, printing load and layout times in ms.  While
// the engine's DOT reading is still empty it builds a stand-in DOT of the
// same shape from the derivative reading (nodes n<index>, "index Op" over
// the shape), so the figures stay comparable.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [npmDir, topos, ...depthArgs] = process.argv.slice(2);
if (!npmDir || !topos) {
  console.error('usage: bench-graphviz.mjs NPM_DIR TOPOS [LAYERS...]');
  process.exit(2);
}
const depths = depthArgs.length ? depthArgs.map(Number) : [5, 20, 40, 80];
const req = createRequire(join(npmDir, 'node_modules', 'noop.js'));
const imp = (name) => import(pathToFileURL(req.resolve(name)).href);

function program(layers) {
  const lines = ['x = input [4, 8]'];
  let prev = 'x';
  for (let i = 0; i < layers; i++) {
    lines.push(`w${i} = parameter [8, 8]`, `h${i} = tanh(${prev} @ w${i})`);
    prev = `h${i}`;
  }
  lines.push(`loss = sum(${prev} * ${prev})`);
  return lines.join('\n') + '\n';
}

function standInDot(derivative) {
  const out = ['digraph topos {', '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="sans-serif"];'];
  for (const line of derivative.split('\n')) {
    const m = /^\s*(\d+)\s+(\S+)\s*(.*?)\s+(\[[^\]]*\])$/.exec(line);
    if (!m) continue;
    const [, i, op, rest, shape] = m;
    out.push(`  n${i} [label="${i} ${op}\\n${shape}"];`);
    for (const r of rest.split(/[ ,]+/).filter((t) => /^\d+$/.test(t)))
      out.push(`  n${r} -> n${i};`);
  }
  out.push('}');
  return out.join('\n') + '\n';
}

function dotFor(layers) {
  const src = program(layers);
  const run = (reading) => execFileSync(topos, ['--reading', reading, '-'], { input: src }).toString();
  const dot = run('dot');
  return dot.trim() ? { dot, kind: 'engine' } : { dot: standInDot(run('derivative')), kind: 'stand-in' };
}

function time(fn) {
  const t0 = performance.now();
  const r = fn();
  return [performance.now() - t0, r];
}

let t0 = performance.now();
const viz = await (await imp('@viz-js/viz')).instance();
const vizLoad = performance.now() - t0;
t0 = performance.now();
const { Graphviz } = await imp('@hpcc-js/wasm-graphviz');
const hpcc = await Graphviz.load();
const hpccLoad = performance.now() - t0;
console.log(`load: @viz-js/viz ${vizLoad.toFixed(0)} ms (graphviz ${viz.graphvizVersion}), `
            + `@hpcc-js/wasm-graphviz ${hpccLoad.toFixed(0)} ms (graphviz ${hpcc.version()})`);

for (const layers of depths) {
  const { dot, kind } = dotFor(layers);
  const nodes = (dot.match(/^\s*n\d+ \[/gm) || []).length;
  const edges = (dot.match(/->/g) || []).length;
  const best = (f) => {
    let min = Infinity, out;
    for (let i = 0; i < 3; i++) {
      const [ms, r] = time(f);
      if (ms < min) min = ms;
      out = r;
      if (ms > 2000) break;    // slow enough that one run tells
    }
    return [min, out];
  };
  const [vms, vsvg] = best(() => viz.renderString(dot, { format: 'svg', engine: 'dot' }));
  const [hms, hsvg] = best(() => hpcc.layout(dot, 'svg', 'dot'));
  console.log(`${layers} layers, ${kind} DOT: ${nodes} nodes, ${edges} edges: `
              + `@viz-js/viz ${vms.toFixed(0)} ms (${vsvg.length} B SVG), `
              + `@hpcc-js/wasm-graphviz ${hms.toFixed(0)} ms (${hsvg.length} B SVG)`);
}
