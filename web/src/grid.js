// A tensor laid out as a grid: one row of its innermost axis a line, the
// numbers right-aligned in columns of one width (style.css .grid: the row
// wraps, column for column, where the pane is too narrow; the font shrinks
// a little first).  Only layout: every character of the tensor's text is
// the engine's and stays in order, so the element's textContent is still
// the text (copy, the tests); each number is the engine's own text for
// its element (the values reading's map, or the JSON's source text).
// Plain strings, no DOM: the engine worker marks up the values reading
// with it, the page the step's value and the trained parameters.
import { escapeHtml } from './readings.js';

// A tensor is a grid when it has rows to align, or too many numbers for
// one line.
export const isGrid = (shape) => shape.length >= 2 || (shape.length === 1 && shape[0] > 4);

// The markup of text, a tensor's text from its first `[` on, whose
// numbers are at spans ([start, end) in text, in order), laid out as a
// grid of shape; null when the spans are not one number per element.
export function gridHtml(text, spans, shape, numberClass = 'v-value') {
  const count = shape.reduce((a, d) => a * d, 1);
  const n = shape.length ? shape[shape.length - 1] : 1;
  if (!isGrid(shape) || spans.length !== count || count === 0) return null;
  let num = 0;
  for (const [a, b] of spans) num = Math.max(num, b - a);
  // Row r runs from the end of row r - 1 to the comma after its last
  // number (the last row: to the end); the space after that comma starts
  // the next row, so that its `[` sits under the row above's.
  const rows = [];
  let lead = 0;
  for (let r = 0, start = 0; r < count / n; r++) {
    const last = spans[r * n + n - 1][1];
    const end = r === count / n - 1 ? text.length : text.indexOf(',', last) + 1;
    if (end <= 0) return null;
    rows.push([start, end]);
    lead = Math.max(lead, spans[r * n][0] - start);
    start = end;
  }
  const html = rows.map(([start, end], r) => {
    const k = r * n;
    let row = `<span class="grid-lead">${escapeHtml(text.slice(start, spans[k][0]))}</span>`;
    for (let j = 0; j < n; j++) {
      const [a, b] = spans[k + j];
      const sepEnd = j < n - 1 ? spans[k + j + 1][0] : end;
      row += `<span class="grid-cell"><span class="${numberClass}">${escapeHtml(text.slice(a, b))}</span>${escapeHtml(text.slice(b, sepEnd))}</span>`;
    }
    // The last row of a block of rows (a `]]` closes it) keeps a gap below.
    const closes = (text.slice(spans[k + n - 1][1], end).match(/]/g) || []).length;
    return `<span class="grid-row${closes > 1 && r < rows.length - 1 ? ' grid-block-end' : ''}">${row}</span>`;
  }).join('');
  // Its width in characters, for the font that fits it (style.css).
  const width = 2 + lead + n * (num + 2) + shape.length;
  return `<span class="grid" style="--lead:${lead};--num:${num};--w:${width}">${html}</span>`;
}

// A tensor's text as the values reading writes one ([[a, b], [c, d]]),
// from its element texts, with where each number is in it.
export function tensorText(shape, texts) {
  let text = '';
  const spans = [];
  let k = 0;
  const write = (axis) => {
    if (axis === shape.length) {
      spans.push([text.length, text.length + texts[k].length]);
      text += texts[k++];
      return;
    }
    text += '[';
    for (let i = 0; i < shape[axis]; i++) {
      if (i > 0) text += ', ';
      write(axis + 1);
    }
    text += ']';
  };
  write(0);
  return { text, spans };
}

// Where each of texts is in line, in order from `from` (the numbers of a
// tensor written on that line), or null when one is not found.
export function findNumbers(line, texts, from = 0) {
  const spans = [];
  let at = from;
  for (const t of texts) {
    const a = line.indexOf(t, at);
    if (a < 0) return null;
    spans.push([a, a + t.length]);
    at = a + t.length;
  }
  return spans;
}

// JSON.parse of a part of the engine's JSON, every number kept as the
// engine wrote it (its source text): JS would write 1e+23 where the engine
// writes 100000000000000000000000, and 0 for -0.  Where the browser gives
// a reviver no source text, null.
export function parseExact(json) {
  let exact = true;
  const value = JSON.parse(json, (key, v, context) => {
    if (typeof v !== 'number') return v;
    if (typeof context?.source !== 'string') exact = false;
    return context?.source;
  });
  return exact ? value : null;
}

// The element texts of every named value and gradient, by node, from the
// engine's JSON text (its "tensors" and "gradients", which the engine
// writes between "values"... and "arguments"); names: the JSON's names,
// gradientNodes: its gradient_nodes.  Past `limit` characters, or where
// the parts are not found, none (the values reading then shows plain lines).
// Each tensor's "data" array is taken out of the text as it is (the
// engine writes it flat: numbers, and "nan", "inf", "-inf" as strings)
// and the rest parsed: a reviver over every number (parseExact) took
// about twice as long (tests/web/bench-grid.mjs: 0.8-1.0 ms against
// 1.8-2.6 ms for the 300-line program, medians of 9).
export const EXACT_LIMIT = 2 << 20;
export function exactTensors(json, names, gradientNodes, limit = EXACT_LIMIT) {
  const out = new Map();
  const from = json.indexOf(',"tensors":{'), to = json.indexOf(',"arguments":', from);
  if (from < 0 || to < 0 || to - from > limit) return out;
  const datas = [];
  const skeleton = json.slice(from + 1, to).replace(/"data":\[([^\]]*)\]/g, (m, inner) => {
    datas.push(inner === '' ? [] : inner.split(',').map((t) => (t.startsWith('"') ? t.slice(1, -1) : t)));
    return `"data":${datas.length - 1}`;
  });
  let parts;
  try { parts = JSON.parse(`{${skeleton}}`); } catch { return out; }
  for (const group of [parts.tensors, parts.gradients])
    for (const value of Object.values(group || {})) if (typeof value?.data === 'number') value.data = datas[value.data];
  const node = new Map(names.map((n) => [n.name, n.node]));
  const put = (n, value) => { if (n !== undefined && Array.isArray(value?.data)) out.set(n, value.data); };
  for (const [name, value] of Object.entries(parts.tensors || {})) put(node.get(name), value);
  for (const [name, value] of Object.entries(parts.gradients || {})) put(gradientNodes?.[name], value);
  return out;
}

// exactTensors, read only when a values line first asks (a long values
// reading is marked up a block at a time, when it comes near the screen:
// a 5,000-line program's read pays nothing for it until then).
export function lazyExactTensors(json, names, gradientNodes) {
  let map = null;
  return { get: (n) => (map ??= exactTensors(json, names, gradientNodes)).get(n) };
}

// Node n's shape and element texts from the engine's JSON text (its entry
// in the member "nodes", an array of objects; the fusion's kernels, later,
// hold "nodes" arrays of numbers), or null.
export function exactNode(json, n) {
  const nodes = json.indexOf(',"nodes":[{"node":');
  if (nodes < 0) return null;
  const at = json.indexOf(`{"node":${n},"op":`, nodes);
  const end = at < 0 ? -1 : json.indexOf('}', at);
  if (end < 0) return null;
  const entry = parseExact(json.slice(at, end + 1));
  if (!entry || !Array.isArray(entry.data)) return null;
  return { shape: (entry.shape || []).map(Number), texts: entry.data };
}
