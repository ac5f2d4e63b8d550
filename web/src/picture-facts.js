// What the picture's text alternative and its hover card say of a node,
// from the engine's JSON (runs in the engine worker; no DOM): its op and
// operands (the token spans of its line in the derivative reading, or the
// spec's when there is no derivative), its display name (the JSON's
// display_names), its shape, a summary of its value (the JSON's nodes,
// numbers in the engine's short format) and its explain line.  Nothing is read off
// the DOT or the SVG: the page asks for the facts of the nodes graphviz
// drew (their DOT ids), once the picture is laid out.

import { lineNode } from './readings.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

// The facts' sources in a JSON result, kept by the worker after a read.
export function factSources(result, preps) {
  const listing = preps.derivative.all.some((_, i) => lineNode(preps.derivative, i) >= 0) ? preps.derivative : preps.spec;
  return { listing, names: result.display_names || [], nodes: result.nodes || [], explain: result.explain || [], byLine: null };
}

// A short summary of a tensor of the JSON: the number itself for one
// element, else the count and the smallest and largest elements, each
// number (an element of the JSON) as short writes it.
function valueSummary(value, short) {
  if (!value) return '';
  if (value.elided || !Array.isArray(value.data)) return 'not kept (over the output budget)';
  const d = value.data;
  if (d.length === 1) return short(d[0]);
  const numbers = d.filter((x) => typeof x === 'number');
  const odd = d.length - numbers.length;
  let lo = Infinity, hi = -Infinity;
  for (const x of numbers) { if (x < lo) lo = x; if (x > hi) hi = x; }
  const range = numbers.length ? `from ${short(lo)} to ${short(hi)}` : '';
  return [`${d.length.toLocaleString('en')} elements`, range, odd ? `${odd} not finite` : ''].filter(Boolean).join(', ');
}

// The facts of each node of wanted (node numbers) that the JSON has:
// {node: {op, operands: [node], name, shape, value, explain}}; short
// writes an element of the JSON in the engine's short format.
export function nodeFacts(src, wanted, short) {
  const { listing } = src;
  if (!src.byLine) {
    src.byLine = new Map();
    listing.all.forEach((_, i) => { const n = lineNode(listing, i); if (n >= 0 && !src.byLine.has(n)) src.byLine.set(n, i); });
    src.byValue = new Map(src.nodes.map((n) => [n.node, n]));
  }
  const out = {};
  for (const node of wanted) {
    const i = src.byLine.get(node);
    if (i === undefined) continue;
    const bytes = utf8.encode(listing.all[i]);
    const span = (a, b) => text.decode(bytes.subarray(a, b));
    let op = '', shape = '';
    const operands = [];
    const { refs, classNames } = listing.map;
    for (let k = listing.refsAt[i]; k < listing.refsAt[i + 1]; k++) {
      const a = refs[5 * k + 1], b = refs[5 * k + 2], klass = classNames[refs[5 * k + 3]], ref = refs[5 * k + 4];
      if ((klass === 'op' || klass === 'source') && !op) op = span(a, b);
      else if (klass === 'operand' && ref >= 0) operands.push(ref);
      else if (klass === 'shape') shape = span(a, b);
    }
    out[node] = {
      op, operands, shape,
      name: src.names[node] ?? null,
      value: valueSummary(src.byValue.get(node), short),
      explain: src.explain[node]?.startsWith(`${node} `) ? src.explain[node] : '',
    };
  }
  return out;
}
