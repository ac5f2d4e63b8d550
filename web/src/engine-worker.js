// The engine's Web Worker: compiles each program with the wasm engine and
// prepares the readings' markup, so the page's thread only swaps HTML in.
// Only what the page shows crosses over: the JSON (67 MB for a 5,000-line
// program, most of it the map and the nodes' values) stays here.
//
// in:  {id, program, target, observe, exact, optimize, remat: [names] or
//       'auto', direction, kernels, tangents} (the last five: passes.js, forward.js)
// out: first {id, part: reading, text: engine text} for each text reading
//      (spec, derivative, plan, stablehlo, values, dot, summary), each a
//      message of its own, so the page takes in one at a time (a
//      5,000-line program's readings are 17 MB), then
//      {id, status,
//       html: {reading: markup, one item a line} for short readings,
//       long: {reading: {lines, starts: Int32Array (each chunk's first
//              character), nodes: Int32Array (each line's node or -1)}}
//             for readings past LONG_LINES lines (readings.js),
//       names: {text: the names, a line each, nodes: Int32Array, scalar:
//              Uint8Array} (packNames), sources: Int32Array (per node line,
//       first, last column; -1 for none), target, targetNode (JSON
//       target_node), observe, diagnostics,
//       ms: {engine, markup}}
//      then {teachOf: id, teach: the step-through's and check tab's facts
//      (teachFacts: big lists packed in one string, typed arrays
//      transferred), or null}
//      or {id, fatal: message}
//      and once: {loaded: true, defaults: the JSON's defaults member (the
//      engine's one value each: debounce, folding, play interval, readable
//      zoom, training)} or {loadError: message}
// in:  {id: "json-N", json: true, program, ...}  out: {id, json: the engine's JSON text}
// in:  {id, train: {steps, rate}, program, ...}   out: {id, train: {ran, json, svg,
//      parameters: their lines, exact: per parameter {shape, data: the engine's texts}, error}}
//      (the page runs training in a second instance of this worker, so a
//      long training never holds back a reading)
// in:  {id: "chunk-N", chunk: {of: read id, reading, index}}
// out: {id, html: the chunk's markup} or {id, gone: true} (a newer read came)
// in:  {id: "value-N", value: {of: read id, node}}
// out: {id, value: {shape, texts: the engine's text of each element} or null} or {id, gone: true}
// in:  {id: "step-N", step: {of: read id, k, node: step k's, elements}}
// out: {id, text: step k's sentence (tp_wasm_step_text), states: Uint8Array
//      (every node's TpNodeState after step k, tp_wasm_node_states), value:
//      the node's value as the values reading writes a tensor, at most
//      elements in full (tp_wasm_node_value_text)} or
//      {id, gone: true} (of neither the last read nor the last that read)
// in:  {id: "facts-N", facts: {of: read id, nodes: [node]}}
// out: {id, facts: {node: {op, operands, name, shape, value, explain}}} or {id, gone: true}
//      (picture-facts.js; for the picture's nodes, once it is drawn)
// in:  {id: "lesson-N", lessonOpen: text}  out: {id, status: 1 read, 0 refused, -1 out of
//      memory, lesson: the engine's JSON of it (lessons.js)}
// A read request with lesson: {text, answers} also grades the program
// against that lesson, after its readings, without training
// (TP_GRADE_NO_TRAINING): the result carries grade, the engine's JSON.
// in:  {id: "grade-N", regrade: {of: read id, text, answers, flags}}
// out: {id, grade} or {id, gone: true}: the shown read graded again (an
//      answer changed; flags 0 for "Train and check"), no compile
// in:  {id, trainApply: {of: the training's id, k}}  out: {id, applied: the program with
//      the parameters after k steps written in (tp_wasm_train_apply), or why: the engine's
//      reason} or {id, gone: true} (train.js)
// in:  {id: "tstep-N", tangentStep: {of: read id, k}}  out: {id, text} or {id, gone: true}:
//      tangent step k's sentence, for a step whose forward.steps text is null (forward.js)
// in:  {id: "pass-N", pass: {of: read id, reading: optimized|fusion|forward|jax}}
// out: {id, text, html: markup lines | long: {lines, starts, nodes}, forward:
//      the JSON's forward member (forward only)} or {id, gone: true}
//      (passes.js: a pass's reading, made only when its tab is shown)
import { CHUNK_LINES, LONG_LINES, linesHtml, lineNodes, prepareReadings, setFolding } from './readings.js';
import { factBuffers, teachFacts } from './teach-facts.js';
import { factSources, nodeFacts } from './picture-facts.js';
import { exactNode, lazyExactTensors, parseExact } from './grid.js';
import { passReading, passChunk, readFlags, DOT_KERNELS_MEMBER, DOT_TANGENT_MEMBER } from './pass-readings.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let engine = null;

// Loads the engine step by step, so that a missing or broken file is named
// in a plain message ({loadError}) instead of an emscripten abort text.
async function load() {
  let createToposEngine;
  try {
    ({ default: createToposEngine } = await import('./tp-engine.js'));
  } catch (error) {
    throw new Error(`tp-engine.js could not be loaded (${error?.message || error})`);
  }
  let response;
  try {
    response = await fetch(new URL('./tp-engine.wasm', import.meta.url));
  } catch (error) {
    throw new Error(`tp-engine.wasm could not be fetched (${error?.message || error})`);
  }
  if (!response.ok) throw new Error(`tp-engine.wasm could not be fetched (HTTP ${response.status})`);
  const wasmBinary = new Uint8Array(await response.arrayBuffer());
  try {
    engine = await createToposEngine({ wasmBinary, printErr: () => {} });
  } catch (error) {
    const why = String(error?.message || error).replace(/^Aborted\((.*)\)[\s\S]*$/, '$1');
    throw new Error(`tp-engine.wasm is not a working engine (${why})`);
  }
}
// The engine's defaults (the JSON's defaults member, the same for every
// program), read once the engine is loaded: the readings' folding here,
// the rest on the page (loaded message).
const TP_JSON_DEFAULTS = 31;   // TpJsonMember
let defaults = null;
const ready = load().then(() => {
  read({ program: '' });
  defaults = jsonMembers(TP_JSON_DEFAULTS).defaults;
  setFolding(defaults);
  lastRead = null;
  sessionOf = null;
});
ready.then(() => self.postMessage({ loaded: true, defaults }), (error) => self.postMessage({ loadError: error.message }));

// Copies bytes into the wasm heap, NUL-terminated; the caller frees it.
function heapBytes(bytes) {
  const ptr = engine._malloc(bytes.length + 1);
  if (!ptr) throw new Error('the page ran out of memory');
  engine.HEAPU8.set(bytes, ptr);
  engine.HEAPU8[ptr + bytes.length] = 0;
  return ptr;
}

// A NUL-terminated string the engine returned, decoded.
function cString(ptr) {
  return decoder.decode(engine.HEAPU8.subarray(ptr, engine.HEAPU8.indexOf(0, ptr)));
}

// An element of the JSON (an f32's shortest text, or "inf", "-inf",
// "NaN") in the engine's short number format (tp_wasm_short_number).
const f32Of = (v) => (typeof v === 'number' ? Math.fround(v) : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : NaN);
const shortNumber = (v) => cString(engine._tp_wasm_short_number(f32Of(v)));

// The text of one reading of the last read (a TpReading index).
const TP_READING_CHECK = 7;
function readingText(which) {
  const ptr = engine._tp_wasm_reading(which);
  return decoder.decode(engine.HEAPU8.subarray(ptr, ptr + engine._tp_wasm_reading_length(which)));
}

// What the session last read, so a training request recompiles only when
// its program or choices differ.
let lastRead = null;
// The read (its id) whose program the session holds now, and the
// requests of the last read and of the last that read (status 0): the
// step-through walks the latter while the program is refused, and asks
// the engine about it (sessionFor).
let sessionOf = null;
let lastRequest = { id: null, request: null };
let goodRequest = { id: null, request: null };
// Makes the session hold read id's program again, when it is one of those
// two; false when it is neither.
function sessionFor(id) {
  if (id === null || id === undefined) return false;
  if (sessionOf === id) return true;
  const r = lastRequest.id === id ? lastRequest.request : goodRequest.id === id ? goodRequest.request : null;
  if (!r) return false;
  read(r);
  sessionOf = id;
  return true;
}
const readKey = ({ program, target, observe, exact, optimize, remat, direction }) =>
  JSON.stringify([program, target || '', observe || [], !!exact, !!optimize, remat || [], direction || '']);

function read(request) {
  lastRead = readKey(request);
  sessionOf = null;
  const { program, target, observe } = request;
  const { flags, remat, direction } = readFlags(request);
  const src = encoder.encode(program);
  const tgt = encoder.encode(target || '');
  const obs = encoder.encode((observe || []).map((n) => n + '\n').join(''));
  const rem = encoder.encode(remat.map((n) => n + '\n').join(''));
  const dir = encoder.encode(direction);
  const ps = heapBytes(src), pt = heapBytes(tgt), po = heapBytes(obs), pr = heapBytes(rem), pd = heapBytes(dir);
  try {
    return engine._tp_wasm_read(ps, src.length, pt, po, obs.length, flags, pr, rem.length, pd);
  } finally {
    for (const p of [ps, pt, po, pr, pd]) engine._free(p);
  }
}

// Chosen members of the last read's JSON (tp_wasm_json_members: bit k of
// the TpJsonMember mask), parsed.
function jsonMembers(bit) {
  const ptr = engine._tp_wasm_json_members(bit < 32 ? 2 ** bit : 0, bit < 32 ? 0 : 2 ** (bit - 32));
  return JSON.parse(decoder.decode(engine.HEAPU8.subarray(ptr, ptr + engine._tp_wasm_json_members_length())));
}

// The last read's JSON: whole (what `topos --json` prints), or without its
// map (the readings' maps come as numbers: readMaps).
function readJson(whole) {
  const ptr = whole ? engine._tp_wasm_json() : engine._tp_wasm_json_without_map();
  const len = whole ? engine._tp_wasm_json_length() : engine._tp_wasm_json_without_map_length();
  // HEAPU8 may have been replaced by a memory growth inside the call.
  return decoder.decode(engine.HEAPU8.subarray(ptr, ptr + len));
}

// The engine's names of the map's numbers (tp_wasm_map), asked once.
let mapNames = null;
function names(nameOf) {
  const out = [];
  for (let k = 0; ; k++) {
    const ptr = nameOf(k);
    const len = engine.HEAPU8.indexOf(0, ptr) - ptr;
    if (len <= 0) return out;
    out.push(decoder.decode(engine.HEAPU8.subarray(ptr, ptr + len)));
  }
}

// Each text reading's map as numbers (readings.js flatMap's form), copied
// out of the wasm heap: parsed from the JSON, a 300-line program's map
// was 70% of the time JSON.parse took.
const MAP_READINGS = ['spec', 'derivative', 'plan', 'stablehlo', 'values'];   // TpReading 0 to 4
function readMaps() {
  const maps = {};
  MAP_READINGS.forEach((r, which) => { maps[r] = readMap(which); });
  return maps;
}
function readMap(which) {
  if (!mapNames) mapNames = { classNames: names(engine._tp_wasm_token_class_name), roleNames: names(engine._tp_wasm_line_role_name) };
  const ptr = engine._tp_wasm_map(which);
  const n = engine._tp_wasm_map_length(which);
  if (!ptr || n < 2) throw new Error('the page ran out of memory');
  const v = new Int32Array(engine.HEAPU8.buffer, ptr, n);
  const lines = v.slice(2, 2 + 2 * v[0]);
  return { lines, refs: v.slice(2 + 2 * v[0], 2 + 2 * v[0] + 5 * v[1]), ...mapNames };
}

// Step k of read id's step-through, as the engine says it: its sentence,
// every node's state after it and its node's value; null when the
// session cannot hold that read (or k is out of range).
function stepFacts({ of, k, node, elements }) {
  if (!sessionFor(of)) return null;
  const tp = engine._tp_wasm_step_text(k);
  const text = decoder.decode(engine.HEAPU8.subarray(tp, tp + engine._tp_wasm_step_text_length(k)));
  const sp = engine._tp_wasm_node_states(k);
  const n = engine._tp_wasm_node_states_length();
  if (!sp || n === 0) return null;
  const states = engine.HEAPU8.slice(sp, sp + n);
  return { text, states, value: cString(engine._tp_wasm_node_value_text(node, elements)) };
}

// Trains on the request's program: the engine's train JSON (its summary
// sentence and loss curve's axes in it), loss-curve SVG, and the
// parameter lines and loss after the last step (trainAt).  The training
// stays in the engine, as request.id's, for trainAt.
let trainedId = null;
function train(request) {
  if (lastRead !== readKey(request)) read(request);
  trainedId = null;
  const rate = encoder.encode(String(request.train.rate));
  const pr = heapBytes(rate);
  try {
    const ran = engine._tp_wasm_train(request.train.steps, pr, rate.length);
    if (ran < 0) return { ran, error: 'the page ran out of memory' };
    const json = JSON.parse(trainText(0));
    if (ran === 1) trainedId = request.id;
    const last = ran === 1 ? json.losses.length - 1 : -1;
    // The parameters outside the readings: the engine's lines in the
    // short number format (tp_train_parameters_short_at), and for the
    // grid (grid.js) each element of the train JSON in that format too.
    const exact = shortTensors(parseExact(trainText(0))?.parameters ?? null);
    const parameters = last >= 0 ? cString(engine._tp_wasm_train_at(last)) : trainText(3);
    return { ran, json, svg: trainText(2), parameters, exact, loss: last >= 0 ? shortNumber(json.losses[last]) : null, error: json.error ?? null };
  } finally {
    engine._free(pr);
  }
}
// {name: {shape, data: [element texts]}} with each element in the short
// format; null stays null.
function shortTensors(tensors) {
  if (!tensors) return null;
  const number = (x) => (typeof x === 'string' && /^-?[0-9]/.test(x) ? Number(x) : x);
  return Object.fromEntries(Object.entries(tensors).map(([name, value]) =>
    [name, { ...value, data: Array.isArray(value?.data) ? value.data.map((x) => shortNumber(number(x))) : value?.data }]));
}
function trainText(k) {
  const ptr = engine._tp_wasm_train_text(k);
  return decoder.decode(engine.HEAPU8.subarray(ptr, ptr + engine._tp_wasm_train_length(k)));
}
// The last training's parameters after k steps (tp_wasm_train_at: no
// training again) and the loss at step k in the engine's short number
// format (tp_wasm_short_number).
function trainAt(k, loss) {
  return { parameters: cString(engine._tp_wasm_train_at(k)), loss: shortNumber(loss) };
}

// The lesson open in this instance, by its text: a read or a regrade
// names its lesson's text, so a restarted worker opens it again.
const TP_GRADE_NO_TRAINING = 1;
let lessonText = null;
function openLesson(text) {
  const bytes = encoder.encode(text);
  const p = heapBytes(bytes);
  let status;
  try {
    status = engine._tp_wasm_lesson_open(p, bytes.length);
  } finally {
    engine._free(p);
  }
  lessonText = status === 1 ? text : null;
  const ptr = engine._tp_wasm_lesson_json();
  const json = decoder.decode(engine.HEAPU8.subarray(ptr, ptr + engine._tp_wasm_lesson_json_length()));
  return { status, lesson: json ? JSON.parse(json) : null };
}
// Grades the session's last read against lesson {text, answers}; the
// grade's JSON, or null.
function grade({ text, answers }, flags) {
  if (lessonText !== text && openLesson(text).status !== 1) return null;
  const n = answers.length;
  const pa = engine._malloc(4 * n + 4);
  if (!pa) return null;
  try {
    new Int32Array(engine.HEAPU8.buffer, pa, n).set(answers);
    const ptr = engine._tp_wasm_lesson_grade(pa, n, flags);
    const len = engine._tp_wasm_lesson_grade_length();
    return len ? JSON.parse(decoder.decode(engine.HEAPU8.subarray(ptr, ptr + len))) : null;
  } finally {
    engine._free(pa);
  }
}

// The last read's readings, prepared: the page asks for a long reading's
// chunks as they come near the screen.
// Its JSON text is kept too: the step-through asks for a node's element
// texts as the engine wrote them (grid.js exactNode).
let last = { id: null, preps: null, facts: null, json: '' };

// Where each chunk of CHUNK_LINES lines starts in text (UTF-16 units).
function chunkStarts(text, lines) {
  const starts = new Int32Array(Math.ceil(lines / CHUNK_LINES) + 1);
  let at = 0;
  for (let c = 1; c < starts.length - 1; c++) {
    for (let k = 0; k < CHUNK_LINES; k++) at = text.indexOf('\n', at) + 1;
    starts[c] = at;
  }
  starts[starts.length - 1] = text.length;
  return starts;
}

// The engine's names (name, node, scalar of each), packed: as 5,000
// objects their copy into the page took 7 to 19 ms of the task that shows
// the readings.
function packNames(list) {
  const nodes = new Int32Array(list.length), scalar = new Uint8Array(list.length);
  list.forEach((n, i) => { nodes[i] = n.node; scalar[i] = n.scalar ? 1 : 0; });
  return { text: list.map((n) => n.name).join('\n'), nodes, scalar };
}

// Per node [line, first column, last column] flat, -1 for none.
function flatSources(sources) {
  const out = new Int32Array(3 * sources.length).fill(-1);
  sources.forEach((s, i) => { if (s) out.set(s, 3 * i); });
  return out;
}

self.onmessage = async (event) => {
  const request = event.data;
  try {
    await ready;
  } catch {
    return;   // {loadError} said why
  }
  if (request.chunk) {
    const { of, reading, index } = request.chunk;
    const prep = last.id === of ? last.preps?.[reading] : null;
    if (!prep) self.postMessage({ id: request.id, gone: true });
    else self.postMessage({ id: request.id, html: passChunk(prep, linesHtml(prep, index * CHUNK_LINES, (index + 1) * CHUNK_LINES)).join('') });
    return;
  }
  if (request.pass) {
    const { of, reading } = request.pass;
    if (last.id !== of || !sessionFor(of)) self.postMessage({ id: request.id, gone: true });
    else {
      try {
        const { transfer = [], ...out } = passReading(reading, last, { readingText, readMap, jsonMembers, chunkStarts });
        self.postMessage({ id: request.id, ...out }, transfer);
      } catch (error) {
        self.postMessage({ id: request.id, fatal: String(error?.message || error) });
      }
    }
    return;
  }
  if (request.tangentStep) {
    const { of, k } = request.tangentStep;
    if (last.id !== of) self.postMessage({ id: request.id, gone: true });
    else {
      const ptr = engine._tp_wasm_forward_step_text(k);
      const len = engine._tp_wasm_forward_step_text_length();
      self.postMessage({ id: request.id, text: decoder.decode(engine.HEAPU8.subarray(ptr, ptr + len)) });
    }
    return;
  }
  if (request.lessonOpen !== undefined) {
    self.postMessage({ id: request.id, ...openLesson(request.lessonOpen) });
    return;
  }
  if (request.regrade) {
    const { of, flags } = request.regrade;
    if (last.id !== of || !sessionFor(of)) self.postMessage({ id: request.id, gone: true });
    else self.postMessage({ id: request.id, grade: grade(request.regrade, flags) });
    return;
  }
  if (request.step) {
    const out = stepFacts(request.step);
    if (!out) self.postMessage({ id: request.id, gone: true });
    else self.postMessage({ id: request.id, ...out }, [out.states.buffer]);
    return;
  }
  if (request.value) {
    const { of, node } = request.value;
    if (last.id !== of) self.postMessage({ id: request.id, gone: true });
    else self.postMessage({ id: request.id, value: exactNode(last.json, node) });
    return;
  }
  if (request.facts) {
    const { of, nodes } = request.facts;
    if (last.id !== of) self.postMessage({ id: request.id, gone: true });
    else self.postMessage({ id: request.id, facts: nodeFacts(last.facts, nodes, shortNumber) });
    return;
  }
  try {
    if (request.train) {
      self.postMessage({ id: request.id, train: train(request) });
      return;
    }
    if (request.trainApply) {   // {of: the training's id, k}: the program with them written in
      const { of, k } = request.trainApply;
      if (trainedId !== of) self.postMessage({ id: request.id, gone: true });
      else {
        const text = cString(engine._tp_wasm_train_apply(k));
        self.postMessage({ id: request.id, applied: text || null, why: text ? null : cString(engine._tp_wasm_train_why()) });
      }
      return;
    }
    if (request.trainAt) {   // {of: the training's id, k, losses: [its loss at k]}
      const { of, k, loss } = request.trainAt;
      if (trainedId !== of) self.postMessage({ id: request.id, gone: true });
      else self.postMessage({ id: request.id, at: trainAt(k, loss) });
      return;
    }
    const t0 = performance.now();
    const status = read(request);
    if (request.json) {   // the whole JSON, for a download
      self.postMessage({ id: request.id, json: readJson(true) });
      return;
    }
    sessionOf = request.id;
    lastRequest = { id: request.id, request };
    if (status === 0) goodRequest = { id: request.id, request };
    const json = readJson(false);
    const maps = readMaps();
    const t1 = performance.now();
    const result = JSON.parse(json);
    const preps = prepareReadings(result, maps, lazyExactTensors(json, result.names || [], result.gradient_nodes));
    last = { id: request.id, preps, facts: factSources(result, preps), json, specNodes: result.spec_nodes ?? 0 };
    // The picture's kernels as clusters, when asked (passes.js): the
    // engine's DOT with the fusion's kernels, in place of the plain one.
    if (request.kernels && status === 0) result.dot = jsonMembers(DOT_KERNELS_MEMBER).dot_kernels ?? result.dot;
    // Or with forward mode's tangent nodes as a third band (null without
    // a parameter: the plain picture).
    else if (request.tangents && status === 0) result.dot = jsonMembers(DOT_TANGENT_MEMBER).dot_tangent ?? result.dot;
    const html = {}, long = {}, gutter = {}, transfer = [];
    for (const [r, prep] of Object.entries(preps)) {
      gutter[r] = prep.gutter;
      if (prep.all.length <= LONG_LINES) {
        html[r] = linesHtml(prep);
      } else {
        long[r] = { lines: prep.all.length, starts: chunkStarts(result[r], prep.all.length), nodes: lineNodes(prep) };
        transfer.push(long[r].starts.buffer, long[r].nodes.buffer);
      }
    }
    const sources = flatSources(result.sources || []), names = packNames(result.names || []);
    transfer.push(sources.buffer, names.nodes.buffer, names.scalar.buffer);
    const t2 = performance.now();
    // The lesson's goals, graded from the session the readings came from.
    // A grade that fails leaves the readings shown (and the goals as they were).
    let lessonGrade = null;
    try {
      if (request.lesson) lessonGrade = grade(request.lesson, TP_GRADE_NO_TRAINING);
    } catch { /* the page shows the goals ungraded */ }
    for (const r of ['spec', 'derivative', 'plan', 'stablehlo', 'values', 'dot', 'summary'])
      self.postMessage({ id: request.id, part: r, text: result[r] });
    self.postMessage({
      id: request.id, status, html, long, gutter,
      names, sources, target: result.target, targetNode: result.target_node ?? null, observe: result.observe,
      diagnostics: result.diagnostics, announcement: result.announcement ?? '', grade: lessonGrade,
      // what the pass panes and controls show (passes.js)
      passes: { remat: result.remat ?? null, fusion: result.fusion?.sentence ?? null, specNodes: result.spec_nodes ?? 0 },
      ms: { engine: t1 - t0, markup: t2 - t1 },
    }, transfer);
    // The teaching facts after the readings, in a message of their own:
    // picking them out is a fifth of a 300-line program's read, and the
    // page waits for them only where they are seen (engine-client.js onTeach).
    let teach = null;
    try {
      teach = teachFacts(result, readingText(TP_READING_CHECK), request.id);
    } finally {   // the page waits for this message, facts or none
      self.postMessage({ teachOf: request.id, teach }, teach ? factBuffers(teach) : []);
    }
  } catch (error) {
    self.postMessage({ id: request.id, fatal: String(error?.message || error) });
  }
};
