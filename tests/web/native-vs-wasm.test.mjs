// Native and wasm agree: every sample (with several choices) and a
// generated corpus go through the wasm module and through the native
// `topos --json`; the JSON texts, which carry every reading, every tensor,
// every gradient, the diagnostics and the reading map (map, spec_nodes,
// gradient_nodes, sources, picture), must be identical byte for byte, and
// so must the status.
//
// Environment: TP_WEB_BUILD (the wasm build's web/ folder), TP_SAMPLES
// (resources/samples), TP_NATIVE_TOPOS (the native command line; the test
// is skipped without it, and fails under CI), TP_CORPUS (programs to generate, default 400).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

import { loadEngine } from './engine.mjs';
import { corpus } from './corpus.mjs';
import { unmet } from './prereq.mjs';

const build = process.env.TP_WEB_BUILD;
const samplesDir = process.env.TP_SAMPLES;
const topos = process.env.TP_NATIVE_TOPOS;
const count = Number(process.env.TP_CORPUS || 400);
const skip = unmet(!topos || !existsSync(topos) ? 'TP_NATIVE_TOPOS does not name the native topos' : false);

function native(program, { target = '', observe = [], exact = false } = {}) {
  const args = ['--json'];
  if (target) args.push('--target', target);
  for (const o of observe) args.push('--observe', o);
  if (exact) args.push('--exact');
  args.push('-');
  const r = spawnSync(topos, args, { input: program, maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return { status: r.status, json: r.stdout.toString('utf8') };
}

function compare(engine, name, program, choices) {
  const w = engine.read(typeof program === 'string' ? program : new Uint8Array(program), choices);
  const n = native(program, choices);
  assert.equal(w.status, n.status, `${name}: status`);
  if (w.json !== n.json) {
    // Point at the first reading that differs, then fail on the whole text.
    const a = JSON.parse(w.json), b = JSON.parse(n.json);
    for (const k of Object.keys(b))
      assert.deepEqual(a[k], b[k], `${name}: "${k}" differs`);
    assert.equal(w.json, n.json, `${name}: JSON text`);
  }
  return JSON.parse(w.json);
}

const TP_READING_CHECK = 7;   // engine/include/tp-engine.h TpReading
const MAPPED = ['spec', 'derivative', 'plan', 'stablehlo', 'values'];
const utf8 = new TextEncoder();

// The wasm JSON carries the map, and the map fits its readings: a line
// per line, refs within their lines, a source span per recorded node.
function checkMap(name, j) {
  assert.ok(j.map && typeof j.map === 'object', `${name}: the JSON has the map`);
  assert.deepEqual(Object.keys(j.map), MAPPED, `${name}: the map covers every text reading`);
  for (const r of MAPPED) {
    const lines = j[r].split('\n');
    lines.pop();
    const m = j.map[r];
    assert.equal(m.lines.length, lines.length, `${name}: the ${r} map has a line per line`);
    for (const l of m.lines) assert.ok(l.node === null || Number.isInteger(l.node), `${name}: ${r} line node`);
    assert.ok(m.refs.length > 0, `${name}: the ${r} map has refs`);
    for (const [line, start, end, cls, node] of m.refs) {
      assert.ok(start < end && end <= utf8.encode(lines[line]).length, `${name}: ${r} ref within its line`);
      assert.equal(typeof cls, 'string');
      assert.ok(node === null || Number.isInteger(node));
    }
  }
  assert.ok(j.spec_nodes > 0, `${name}: spec_nodes`);
  const recorded = Number(/^(\d+) nodes recorded/.exec(j.summary)[1]);
  assert.equal(j.sources.length, recorded, `${name}: a source per node`);
  j.sources.forEach((src, i) => assert.equal(src !== null, i < j.spec_nodes, `${name}: source of node ${i}`));
  assert.deepEqual(Object.keys(j.gradient_nodes), Object.keys(j.gradients || {}), `${name}: gradient_nodes`);
  assert.equal(typeof j.picture.reduced, 'boolean', `${name}: picture.reduced`);
}

// Our readings (check, explain, memory) are in the wasm JSON too, with
// the shapes docs/language.md gives, and the memory agrees with the plan.
function checkOurs(name, j) {
  assert.deepEqual(Object.keys(j.check), ['outcome', 'verdict', 'gradients', 'nonfinite'], `${name}: check`);
  assert.ok(['agree', 'unchecked'].includes(j.check.outcome), `${name}: the check's outcome`);
  assert.ok(j.check.verdict.length > 0 && !j.check.verdict.includes('\n'), `${name}: the verdict sentence`);
  // a parameter checked along random directions also says how many, and which was worst
  const keys = ['parameter', 'element', 'analytic', 'numeric', 'relative_error', 'verdict'];
  for (const g of j.check.gradients)
    assert.deepEqual(Object.keys(g), 'directions' in g ? [...keys, 'directions', 'direction'] : keys, `${name}: a gradient check`);
  assert.ok(j.check.gradients.every((g) => g.verdict === 'ok' || g.verdict === 'kink'), `${name}: the gradients agree`);
  const recorded = Number(/^(\d+) nodes recorded/.exec(j.summary)[1]);
  assert.equal(j.explain.length, recorded, `${name}: a sentence per node`);
  j.explain.forEach((line, i) => assert.ok(line.startsWith(`${i} `), `${name}: explain line ${i}`));
  assert.equal(j.origins.length, j.explain.length, `${name}: an origin per explained node`);
  j.origins.forEach((o, i) => {
    assert.deepEqual(Object.keys(o), ['role', 'of', 'from', 'share', 'sum', 'count'], `${name}: origin ${i}`);
    assert.equal(o.role === 'forward', i < j.spec_nodes, `${name}: origin ${i} is forward exactly when the program recorded it`);
  });
  assert.deepEqual(Object.keys(j.memory), ['steps', 'buffers', 'live', 'peak', 'retain_all'], `${name}: memory`);
  const live = /live volume: peak (\d+) elements at node (\d+), retain-all (\d+)\n$/.exec(j.plan);
  assert.deepEqual([j.memory.peak.elements, j.memory.peak.node, j.memory.retain_all], live.slice(1).map(Number), `${name}: the plan's totals`);
  assert.equal(j.memory.buffers.length, j.memory.steps.length, `${name}: a buffer per step`);
  assert.ok(j.memory_svg.startsWith('<svg '), `${name}: the memory SVG`);
}

let engine;
before(async () => { if (!skip) engine = await loadEngine(build); });

test('samples, with each choice: native == wasm', { skip }, (t) => {
  const files = readdirSync(samplesDir).filter((f) => f.endsWith('.tape')).sort();
  assert.ok(files.length >= 8, 'the samples are there');
  let readings = 0;
  for (const f of files) {
    const program = readFileSync(join(samplesDir, f), 'utf8');
    const plain = compare(engine, f, program, {});
    assert.deepEqual(plain.diagnostics, [], `${f} reads`);
    assert.ok(plain.spec && plain.plan && plain.values && plain.dot && plain.summary, `${f}: readings are filled`);
    checkMap(f, plain);
    checkOurs(f, plain);
    // The check tab's text (tp_wasm_reading) is the native check reading.
    engine.read(program, {});
    const check = spawnSync(topos, ['--reading', 'check', '-'], { input: program });
    assert.equal(engine.reading(TP_READING_CHECK), check.stdout.toString('utf8'), `${f}: the check reading`);
    assert.ok(engine.reading(TP_READING_CHECK).startsWith('gradient check'), `${f}: the check reading is there`);
    readings++;
    const names = [...new Set(plain.names.map((x) => x.name))];
    for (const name of names) {
      compare(engine, `${f} --target ${name}`, program, { target: name });
      compare(engine, `${f} --observe ${name} --exact`, program, { observe: [name], exact: true });
      readings += 2;
    }
  }
  t.diagnostic(`${readings} sample readings compared`);
});

test(`a generated corpus of ${count} programs: native == wasm`, { skip }, (t) => {
  let read = 0, refused = 0, literals = 0;
  for (const { name, program, choices } of corpus(count, 20240601)) {
    const j = compare(engine, name, program, choices);
    if (j.diagnostics.length) refused++; else read++;
    if (program.includes('[[') && !j.diagnostics.length) literals++;
  }
  t.diagnostic(`${read} read, ${refused} refused, ${literals} read with tensor literals`);
  assert.ok(literals > 10, 'some programs that read hold tensor literals');
  assert.ok(read > count / 2, 'most generated programs read');
  assert.ok(refused > 10, 'some generated programs are refused');
});

// Training: the train JSON, reading and loss curve, bit for bit.
function nativeTrain(program, steps, rate, svgPath) {
  const run = (args) => {
    const r = spawnSync(topos, [...args, '--train', String(steps), '--learning-rate', rate, '-'],
                        { input: program, maxBuffer: 1 << 30 });
    if (r.error) throw r.error;
    return r;
  };
  const json = run(['--json']);
  const reading = run(['--reading', 'train', '--train-svg', svgPath]);
  return { status: json.status, json: json.stdout.toString('utf8'),
           stderr: json.stderr.toString('utf8'), reading: reading.stdout.toString('utf8'),
           svg: reading.status === 0 ? readFileSync(svgPath, 'utf8') : '' };
}

function compareTrain(engine, name, program, steps, rate, svgPath) {
  const read = engine.read(program, {});
  const w = engine.train(steps, rate);
  const n = nativeTrain(program, steps, rate, svgPath);
  const wt = JSON.parse(w.json);
  if (w.ran === 1) {
    assert.equal(n.status, 0, `${name}: native trains too (${n.stderr})`);
    assert.deepEqual(wt, JSON.parse(n.json).train, `${name}: the train JSON`);
    assert.ok(n.json.endsWith(`,"train":${w.json}}\n`), `${name}: the train JSON, byte for byte`);
    assert.equal(w.reading, n.reading, `${name}: the train reading`);
    assert.equal(w.svg, n.svg, `${name}: the loss curve`);
  } else {
    assert.equal(w.ran, 0, `${name}: refused, not out of memory`);
    assert.equal(n.status, 1, `${name}: native refuses too`);
    // A refused program is refused before training (its diagnostic says
    // why); otherwise both say the same reason.
    if (read.status === 0)
      assert.ok(n.stderr.includes(`--train: ${wt.error}`), `${name}: the same reason (${n.stderr})`);
    else
      assert.match(wt.error, /^the program is refused/, `${name}: refused program`);
  }
  return w;
}

test('training the samples and a corpus: native == wasm', { skip }, (t) => {
  const svgPath = join(tmpdir(), `tp-train-${process.pid}.svg`);
  let trained = 0, refused = 0;
  const files = readdirSync(samplesDir).filter((f) => f.endsWith('.tape')).sort();
  for (const f of files) {
    const program = readFileSync(join(samplesDir, f), 'utf8');
    for (const [steps, rate] of [[200, '0.1'], [50, '2.5'], [3, '-0.01']]) {
      const w = compareTrain(engine, `${f} ${steps} ${rate}`, program, steps, rate, svgPath);
      if (w.ran === 1) trained++; else refused++;
    }
  }
  for (const { name, program } of corpus(60, 20261201)) {
    const w = compareTrain(engine, name, program, 20, '0.05', svgPath);
    if (w.ran === 1) trained++; else refused++;
  }
  t.diagnostic(`${trained} trainings and ${refused} refusals compared`);
  assert.ok(trained >= 20, 'most of them train');
});

test('bytes that are not UTF-8: native == wasm', { skip }, () => {
  compare(engine, 'invalid utf-8', Buffer.from([0x77, 0x20, 0x3d, 0x20, 0xff, 0xfe, 0x0a]), {});
  compare(engine, 'nul byte', Buffer.from('w = parameter 1\n\0\n'), {});
});

// A refused program has the map's fields too, empty, in both builds.
test('a refused program: the map is empty in both', { skip }, () => {
  const j = compare(engine, 'refused', 'x = 1\ny = x @ x\n', {});
  assert.equal(j.diagnostics.length, 1);
  for (const r of MAPPED) assert.deepEqual(j.map[r], { lines: [], refs: [] });
  assert.equal(j.spec_nodes, 0);
  assert.deepEqual(j.gradient_nodes, {});
  assert.deepEqual(j.sources, []);
  assert.deepEqual(j.picture, { reduced: false });
  assert.deepEqual(j.check, { outcome: null, verdict: '', gradients: [], nonfinite: null });
  assert.deepEqual(j.explain, []);
  assert.deepEqual(j.origins, []);
  assert.deepEqual(j.memory, { steps: [], buffers: [], live: [], peak: { elements: 0, node: null }, retain_all: 0 });
  assert.equal(j.memory_svg, '');
});

// Hardening: the wasm build refuses hostile programs exactly as the native
// one does (same status, same diagnostic, same readings), at every limit,
// and reads the heaviest allowed ones identically within its capped
// memory.
test('hostile programs at the limits: native == wasm', { skip }, (t) => {
  const repeat = (s, n) => s.repeat(n);
  const cases = {
    'huge shape': 'x = parameter [100000, 100000]\n',
    'overflowing shape': 'x = leaf [65536, 65536, 65536, 65536, 65536]\n',
    'matmul past the tensor limit': 'a = input [4096, 1]\nb = input [1, 4096]\nc = a @ b\n',
    'matmul past the work limit': 'a = input [2048, 2048]\nb = a @ a\n',
    'elements past the total': repeat('a = leaf [1024, 1024]\n', 17),
    'nodes past the limit': repeat('x = 1\n', 100001),
    'statements past the limit': 'x = 1\n' + repeat('y = x\n', 100000),
    'nesting at the limit': 'x = ' + repeat('(', 256) + '1' + repeat(')', 256) + '\n',
    'nesting past the limit': 'x = ' + repeat('(', 257) + '1' + repeat(')', 257) + '\n',
    'a million open parentheses': 'x = ' + repeat('(', 1000000) + '1\n',
    'a ten-megabyte number': 'x = ' + repeat('7', 10 << 20) + '\n',
    'a ten-megabyte bad number': 'x = ' + repeat('7', 10 << 20) + '.5.\n',
    'a long name': 'x' + repeat('y', 64) + ' = 1\n',
    'a million blank lines': repeat('\n', 1000000) + 'x = 1\n',
    'CRLF and a lone CR': 'x = input 2.0\r\ny = x * x\rz = 1\r\n',
    'NaN and infinity': 'x = 1e39 * 2\ny = 1e39 - 1e39\nz = ln(0.0 - 1.0)\nloss = x + y + z\n',
    'a gradient near the work limit': 'w = parameter [512, 512]\nx = input [512, 512]\nh = tanh(x @ w)\nloss = sum(h * h)\n',
    'a big tensor named many times': 'a = leaf [1024, 1024]\n' + repeat('b = a\n', 2000),
  };
  for (const [name, program] of Object.entries(cases))
    compare(engine, name, program, {});
  t.diagnostic(`${Object.keys(cases).length} hostile programs compared`);
});
