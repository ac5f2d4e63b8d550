// Markup for the text readings, built from the engine's reading map (the
// JSON's "map": per line its node and role, per token its byte span, class
// and node; docs/language.md).  Every function copies the engine's text
// character for character and only wraps the map's spans, so a pane's
// textContent is exactly the reading (the tests rely on it).  Nothing here
// reads the text back: no regex, no tokenizer.  Runs in the engine worker:
// plain strings, no DOM (but fillFolds and foldChunks, the page's side).
//
// Lines that stand for a node carry data-node="N"; tokens that refer to a
// node (operands, SSA values) carry data-ref="N".  The page highlights both
// when node N is selected, in every reading at once (the cross-reading
// highlight).

import { gridHtml, isGrid, tensorText } from './grid.js';

// Past this many lines a reading is long: the page shows it in chunks of
// CHUNK_LINES lines, as plain text, and asks for a chunk's markup
// (readingChunk) only when the chunk comes near the screen; a 75,000-line
// listing costs the page what its screen shows, not what it holds.
export const LONG_LINES = 1500;
export const CHUNK_LINES = 100;

// A line longer than the engine's fold limit (JSON defaults.fold_limit
// bytes of UTF-8) is shown folded: its first fold_head and last fold_tail
// bytes (never a character cut, and after a space when one is near), and
// between them a "show all" control
// that says how many elements (or characters) are folded.  The folded
// middle stays in the DOM, in a hidden span (display: none, so never laid
// out), so the line's textContent is still the engine's exact text.  A
// [1024, 1024] tensor's 12.7 MB line is wider than Chromium can lay out;
// folded it is one screen.  The engine's worker sets the three numbers
// once the engine is loaded (setFolding); until then nothing is folded.
const folding = { limit: Infinity, head: 0, tail: 0 };
export function setFolding(defaults) {
  folding.limit = defaults.fold_limit;
  folding.head = defaults.fold_head;
  folding.tail = defaults.fold_tail;
}

// UTF-8 bytes of one UTF-16 unit c (a high surrogate: the pair's 4).
const unitBytes = (c) => (c < 0x80 ? 1 : c < 0x800 ? 2 : (c & 0xfc00) === 0xd800 ? 4 : 3);
function byteLength(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const w = unitBytes(s.charCodeAt(i));
    n += w;
    if (w === 4) i++;
  }
  return n;
}
// Where the first `bytes` bytes of s end (a UTF-16 index, never inside a
// character), and where its last `bytes` bytes start.
function headEnd(s, bytes) {
  let n = 0, i = 0;
  while (i < s.length) {
    const w = unitBytes(s.charCodeAt(i));
    if (n + w > bytes) break;
    n += w;
    i += w === 4 ? 2 : 1;
  }
  return i;
}
function tailStart(s, bytes) {
  let n = 0, i = s.length;
  while (i > 0) {
    const pair = i >= 2 && (s.charCodeAt(i - 1) & 0xfc00) === 0xdc00;
    const w = pair ? 4 : unitBytes(s.charCodeAt(i - 1));
    if (n + w > bytes) break;
    n += w;
    i -= pair ? 2 : 1;
  }
  return i;
}
// Whether a line is folded (ascii: its bytes are its length; else they
// are from its length to three times it).
const folds = (line, ascii) => line.length > folding.limit
  || (!ascii && line.length * 3 > folding.limit && byteLength(line) > folding.limit);

export function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

// The page's class for a token class of the map, per reading kind; a class
// that is not listed is left plain.
const LISTING = {
  index: 'ir-index', op: 'ir-op', source: 'ir-op ir-source', operand: 'ir-ref',
  detail: 'ir-attr', shape: 'ir-shape', live: 'ir-live',
};
// StableHLO: a keyword of the module's frame or its return line is
// coloured like an op, one inside a node's lowering ("dense", "dims") like
// its attributes.
const STABLEHLO = {
  ssa: 'ir-ref', op: 'ir-op', keyword: 'ir-attr', type: 'ir-shape', symbol: 'ir-index',
  number: 'ir-attr', attribute: 'ir-attr', comment: 'ir-note',
};
const STABLEHLO_FRAME = { ...STABLEHLO, keyword: 'ir-op' };
const VALUES = { name: 'v-name', shape: 'ir-shape', number: 'v-value' };
// On lines that stand for no node (dividers, footers, notes) only the
// references are marked, so the line keeps its one colour.
const REFERENCES = { operand: 'ir-ref', ssa: 'ir-ref' };
export const TOKEN_CLASSES = { listing: LISTING, stablehlo: STABLEHLO, stablehloFrame: STABLEHLO_FRAME, values: VALUES };

// Classes whose node is a reference to select (data-ref).
const REFERS = new Set(['operand', 'ssa']);

const utf8 = new TextEncoder();

// UTF-16 offsets of every UTF-8 byte offset of line, or null when the line
// is ASCII (the two are then the same).
function byteOffsets(line) {
  let ascii = true;
  for (let i = 0; i < line.length && ascii; i++) ascii = line.charCodeAt(i) < 0x80;
  if (ascii) return null;
  const at = [];
  for (let i = 0; i < line.length; i++) {
    const c = line.codePointAt(i);
    const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    for (let k = 0; k < n; k++) at.push(i);
    if (c >= 0x10000) i++;
  }
  at.push(line.length);
  return at;
}

// The markup of one line: its text with the map's refs of it wrapped
// (ascii: the whole reading is ASCII, so bytes are UTF-16 units).
// Only the first limit characters are marked (a folded line's head); the
// caller adds the rest.
function tokenHtml(line, map, from, to, classes, ascii = false, limit = line.length) {
  const { refs, classNames } = map;
  const at = ascii ? null : byteOffsets(line);
  const pos = (b) => Math.min(at === null ? b : at[Math.min(b, at.length - 1)], limit);
  let html = '', last = 0;
  for (let k = from; k < to; k++) {
    const klass = classNames[refs[5 * k + 3]], node = refs[5 * k + 4];
    const cls = classes[klass];
    if (!cls) continue;
    const a = pos(refs[5 * k + 1]), b = pos(refs[5 * k + 2]);
    if (a >= limit) break;
    html += escapeHtml(line.slice(last, a));
    const ref = REFERS.has(klass) && node >= 0 ? ` data-ref="${node}"` : '';
    html += `<span class="${cls}"${ref}>${escapeHtml(line.slice(a, b))}</span>`;
    last = b;
  }
  return html + escapeHtml(line.slice(last, limit));
}

// A folded middle is not in the markup: its span says where it is in the
// reading's text (data-from, data-to: UTF-16 offsets), and the page puts
// the text itself in (fillFolds), as one text node: parsed as markup, a
// [1024, 1024] tensor's 12.7 MB middle held the page's thread for 100 ms.
// Shown in full ("show all"), it is cut in spans of FOLD_CHUNK
// characters, each a block the browser lays out only when it scrolls into
// view (content-visibility), so 12.7 MB does not freeze the page.
export const FOLD_CHUNK = 16384;

// The markup of a line, folded when it is long (see setFolding); count is
// the number of elements of its node's value, or null; at: where the line
// starts in the reading's text.
function lineHtml(line, map, from, to, classes, ascii, count, at) {
  if (!folds(line, ascii)) return tokenHtml(line, map, from, to, classes, ascii);
  let head = ascii ? folding.head : headEnd(line, folding.head);
  let tail = ascii ? line.length - folding.tail : tailStart(line, folding.tail);
  // As the desktop cuts (ui/tp-fold.c): after a space within 40 of the
  // cut, so no number is split.
  for (let k = 0; k < 40 && head - k > 0; k++) if (line.charCodeAt(head - k - 1) === 32) { head -= k; break; }
  for (let k = 0; k < 40 && tail + k < line.length; k++) if (line.charCodeAt(tail + k) === 32) { tail += k + 1; break; }
  const folded = line.length - head - (line.length - tail);
  const what = count !== null ? `${count.toLocaleString('en')} elements` : `${folded.toLocaleString('en')} characters`;
  return tokenHtml(line, map, from, to, classes, ascii, head)
    + `<span class="fold-rest" hidden data-from="${at() + head}" data-to="${at() + tail}"></span>`
    + `<span class="fold" role="button" tabindex="0" data-fold="${what}"`
    + ` aria-label="${folded.toLocaleString('en')} characters folded, ${what}: show all"></span>`
    + escapeHtml(line.slice(tail));
}

// The markup of a values line whose tensor is laid out as a grid
// (grid.js): the name and shape as they are, the tensor below them, its
// numbers the map's number tokens; null when the line is not such a line.
// (the line's number token, and the engine's texts of its elements, laid
// out only when they write exactly that token).
function gridLineHtml(line, map, from, to, classes, ascii, shape, exact, node) {
  if (!ascii || !shape || !isGrid(shape) || folds(line, ascii)) return null;
  const texts = exact.get(node);
  if (!texts) return null;
  const { refs, classNames } = map;
  let k = from;
  while (k < to && classNames[refs[5 * k + 3]] !== 'number') k++;
  if (k === to) return null;
  const start = refs[5 * k + 1], end = refs[5 * k + 2];
  const tensor = tensorText(shape, texts);
  if (tensor.text !== line.slice(start, end)) return null;
  const grid = gridHtml(tensor.text, tensor.spans, shape);
  return grid === null ? null : tokenHtml(line, map, from, to, classes, ascii, start) + grid + escapeHtml(line.slice(end));
}

// Where line i of a prepared reading starts in its text (UTF-16 units);
// counted once, the first time a folded line asks.
function lineStart(prep, i) {
  if (!prep.starts) {
    prep.starts = new Float64Array(prep.all.length + 1);
    for (let k = 0; k < prep.all.length; k++) prep.starts[k + 1] = prep.starts[k] + prep.all[k].length + 1;
  }
  return prep.starts[i];
}

// The page's side of a fold (a DOM root, the reading's text): every folded
// middle under root gets its text.
export function fillFolds(root, text) {
  for (const rest of root.querySelectorAll('.fold-rest[data-from]'))
    rest.textContent = text.slice(Number(rest.dataset.from), Number(rest.dataset.to));
}

// The text of a folded middle cut into FOLD_CHUNK spans, for "show all".
export function foldChunks(rest) {
  const text = rest.textContent;
  const spans = [];
  for (let a = 0; a < text.length;) {
    let b = Math.min(a + FOLD_CHUNK, text.length);
    if (b < text.length && (text.charCodeAt(b) & 0xfc00) === 0xdc00) b--;
    const span = rest.ownerDocument.createElement('span');
    span.className = 'fold-chunk';
    span.textContent = text.slice(a, b);
    spans.push(span);
    a = b;
  }
  rest.replaceChildren(...spans);
}

// A reading ready to be marked up, whole or a chunk at a time: its lines,
// where each line's refs start, and how its lines are classed.  kind is
// 'listing' (spec, derivative, plan), 'stablehlo' or 'values'; derivedFrom,
// for the plan, is the spec's node count (nodes at or past it were
// appended by differentiate); marks are nodes whose lines are underlined
// (the results); counts: a node's element count, or undefined (for folded
// lines).
// map: a flat map (flatMap, or the engine worker's tp_wasm_map).
// names: per node its display name (the JSON's display_names), for the
// names beside the lines (spec, derivative, plan), or null for none.
export function prepareReading(text, map, kind, { derivedFrom = null, marks = new Set(), counts = [], shapes = [], exact = new Map(), names = null } = {}) {
  const all = text.split('\n');
  const trailing = all.length > 0 && all[all.length - 1] === '';
  if (trailing) all.pop();
  map = map || flatMap(null);
  const { refs } = map;
  const nRefs = refs.length / 5;
  const refsAt = new Int32Array(all.length + 1);
  let r = 0;
  for (let i = 0; i <= all.length; i++) {
    while (r < nRefs && refs[5 * r] < i) r++;
    refsAt[i] = r;
  }
  // The names' column: as wide as the longest name a line stands for, at
  // most NAMES_MAX_CHARS (as the desktop's gutter, ui/tp-text-names.c).
  let gutter = 0;
  if (names) {
    const lines = map.lines;
    for (let i = 0; i < all.length && 2 * i < lines.length; i++) {
      const node = lines[2 * i];
      const name = node >= 0 ? names[node] : null;
      if (name) gutter = Math.max(gutter, Math.min([...name].length, NAMES_MAX_CHARS));
    }
  }
  return {
    all, trailing, map, refsAt, kind, derivedFrom, marks, counts, shapes, exact,
    names: gutter > 0 ? names : null, gutter,
    classes: TOKEN_CLASSES[kind], ascii: utf8.encode(text).length === text.length,
  };
}
const NAMES_MAX_CHARS = 16;
// The name beside a line: the node's display name, cut to the column.
function lineName(prep, node) {
  const name = node === null ? null : prep.names[node];
  if (!name) return '';
  const chars = [...name];
  return chars.length > NAMES_MAX_CHARS ? chars.slice(0, NAMES_MAX_CHARS - 1).join('') + '…' : name;
}

// A reading's map as numbers: lines, per line its node (-1 for none) and
// role (an index into roleNames); refs, per ref its line, start and end
// bytes, class (an index into classNames) and node (-1 for none).  This
// is what the engine worker gets from tp_wasm_map; flatMap makes it of
// the JSON's map (docs/language.md), for callers that have the JSON.
export function flatMap(json, classNames = null, roleNames = null) {
  const lines = json?.lines || [], refs = json?.refs || [];
  const classIndex = new Map(), roleIndex = new Map();
  const names = (index, list) => (name) => {
    if (!index.has(name)) { index.set(name, list.length); list.push(name); }
    return index.get(name);
  };
  const cls = names(classIndex, classNames = classNames || []), role = names(roleIndex, roleNames = roleNames || []);
  const flatLines = new Int32Array(2 * lines.length), flatRefs = new Int32Array(5 * refs.length);
  lines.forEach((l, i) => { flatLines[2 * i] = l.node ?? -1; flatLines[2 * i + 1] = role(l.role); });
  refs.forEach(([line, start, end, klass, node], i) => flatRefs.set([line, start, end, cls(klass), node ?? -1], 5 * i));
  return { lines: flatLines, refs: flatRefs, classNames, roleNames };
}

// Line i's node (-1 for none) and role ('blank' past the map's lines).
export function lineNode(prep, i) {
  return 2 * i < prep.map.lines.length ? prep.map.lines[2 * i] : -1;
}
function lineRole(prep, i) {
  return 2 * i < prep.map.lines.length ? prep.map.roleNames[prep.map.lines[2 * i + 1]] : 'blank';
}

// Each line's node, or -1 (for the page to find a node's line in a long
// reading it has not marked up).
export function lineNodes(prep) {
  const out = new Int32Array(prep.all.length);
  for (let i = 0; i < out.length; i++) out[i] = lineNode(prep, i);
  return out;
}

// The markup of lines [from, to) of a prepared reading, as an array: one
// item a line, each in a bare span of its own, its newline included, so
// the page can keep the lines a new reading shares with the last one.
export function linesHtml(prep, from = 0, to = prep.all.length) {
  const { all, map, refsAt, kind, classes, ascii, derivedFrom, marks, counts } = prep;
  const out = [];
  for (let i = from; i < Math.min(to, all.length); i++) {
    const line = all[i];
    const at = () => lineStart(prep, i);
    const n = lineNode(prep, i), node = n < 0 ? null : n, role = lineRole(prep, i);
    const nl = i < all.length - 1 || prep.trailing ? '\n' : '';
    // the name beside the line, drawn by the style sheet (::before): not
    // in the text, so copying gives the engine's reading
    const open = prep.names ? `<span data-name="${escapeHtml(lineName(prep, node))}">` : '<span>';
    if (node === null) {
      const html = lineHtml(line, map, refsAt[i], refsAt[i + 1], kind === 'stablehlo' && role !== 'divider' && role !== 'footer' && role !== 'note' ? STABLEHLO_FRAME : REFERENCES, ascii, null, at);
      if (role === 'divider') out.push(`${open}<span class="ir-divider">${html}</span>${nl}</span>`);
      else if (role === 'footer' || role === 'note') out.push(`${open}<span class="ir-summary">${html}</span>${nl}</span>`);
      else out.push(`${open}${html}${nl}</span>`);
      continue;
    }
    let cls = 'ir-line';
    if (role === 'derived' || role === 'gradient' || (derivedFrom !== null && node >= derivedFrom)) cls += ' ir-derived';
    if (marks.has(node)) cls += ' ir-marked';
    const grid = kind === 'values' ? gridLineHtml(line, map, refsAt[i], refsAt[i + 1], classes, ascii, prep.shapes[node], prep.exact, node) : null;
    if (grid !== null) {
      // The line is a block; its newline is still in the text, not drawn.
      out.push(`<span><span class="${cls} grid-line" data-node="${node}">${grid}</span><span class="grid-nl">${nl}</span></span>`);
      continue;
    }
    out.push(`${open}<span class="${cls}" data-node="${node}">${lineHtml(line, map, refsAt[i], refsAt[i + 1], classes, ascii, counts[node] ?? null, at)}</span>${nl}</span>`);
  }
  return out;
}

// Every text reading prepared from the engine's JSON; maps: each
// reading's flat map (the engine worker's), else the JSON's map is used;
// exact: the element texts of the values reading's tensors by node
// (grid.js exactTensors; anything with get(node)), for its grids.
export function prepareReadings(result, maps = null, exact = new Map()) {
  const marks = new Set(result.results.map((r) => r.node));
  const json = result.map || {};
  const map = maps || Object.fromEntries(['spec', 'derivative', 'plan', 'stablehlo', 'values'].map((r) => [r, flatMap(json[r])]));
  // Element counts from the shapes of the nodes' values (a folded line says
  // how many it folds).
  // The values reading lays tensors out by their shapes.
  const counts = [], shapes = [];
  // the names beside the spec's, derivative's and plan's lines
  const names = result.display_names || null;
  for (const n of result.nodes || []) {
    counts[n.node] = (n.shape || []).reduce((a, d) => a * d, 1);
    shapes[n.node] = n.shape || [];
  }
  return {
    spec: prepareReading(result.spec, map.spec, 'listing', { counts, names }),
    derivative: prepareReading(result.derivative, map.derivative, 'listing', { counts, names }),
    plan: prepareReading(result.plan, map.plan, 'listing', { derivedFrom: result.spec_nodes ?? null, marks, counts, names }),
    stablehlo: prepareReading(result.stablehlo, map.stablehlo, 'stablehlo', { counts }),
    values: prepareReading(result.values, map.values, 'values', { counts, shapes, exact }),
  };
}
