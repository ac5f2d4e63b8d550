// The engine worker's side of the pass readings (passes.js, forward.js):
// the optimized, fusion and forward readings marked up from their maps as
// the six are (readings.js), and the jax reading's text, each made only
// when the page asks (its tab is shown, or the reader copies the JAX
// program).  The read's choices for the passes become tp_wasm_read's
// flags, rematerialised names and direction (web/tp-wasm.c).
import { LONG_LINES, lineNodes, linesHtml, prepareReading } from './readings.js';

// TpReading (engine/include/tp-engine.h) of each pass reading.
export const PASS_READINGS = { optimized: 10, fusion: 11, forward: 12, jax: 13 };
// TpJsonMember bits: the forward member, the DOT with the kernels.
export const FORWARD_MEMBER = 35;
export const DOT_KERNELS_MEMBER = 37;
export const DOT_TANGENT_MEMBER = 38;

// tp_wasm_read's flags (1 exact, 2 optimize, 4 remat auto), the names to
// rematerialise and the direction ('' the seeded one) of a read request.
export function readFlags({ exact, optimize, remat, direction }) {
  const auto = remat === 'auto';
  return {
    flags: (exact ? 1 : 0) | (optimize ? 2 : 0) | (auto ? 4 : 0),
    remat: Array.isArray(remat) ? remat : [],
    direction: direction || '',
  };
}

// The forward reading numbers its tangent nodes from the spec's node
// count, as differentiate numbers its own: the same numbers name other
// nodes elsewhere (docs/language.md, forward).  Its lines and operands of
// tangent nodes are marked data-tnode and data-tref, so the page's
// highlight (data-node, data-ref) does not take them for the derivative's.
// (The markup is ours: the engine's text in it is escaped, quotes
// included, so an attribute is only ever one readings.js wrote.)
export function passChunk(prep, lines) {
  const from = prep.tangentFrom;
  if (from === undefined) return lines;
  return lines.map((l) => l.replace(/ data-(node|ref)="(\d+)"/g,
    (all, kind, n) => (Number(n) >= from ? ` data-t${kind}="${n}"` : all)));
}

// Reading `reading` of the last read: {text} for jax; else {text, html
// (markup lines) or long (as the long readings: lines, starts, nodes),
// forward (the JSON's forward member, for forward)}.  The prepared
// reading is kept in last.preps, so a long one's chunks are asked for as
// the six's are.
export function passReading(reading, last, { readingText, readMap, jsonMembers, chunkStarts }) {
  const which = PASS_READINGS[reading];
  if (which === undefined) throw new Error(`there is no reading ${reading}`);
  const text = readingText(which);
  if (reading === 'jax') return { text };
  const prep = prepareReading(text, readMap(which), 'listing');
  if (reading === 'forward') prep.tangentFrom = last.specNodes;
  last.preps[reading] = prep;
  const out = { text, transfer: [] };
  if (prep.all.length <= LONG_LINES) {
    out.html = passChunk(prep, linesHtml(prep));
  } else {
    const nodes = lineNodes(prep);
    if (prep.tangentFrom !== undefined) for (let i = 0; i < nodes.length; i++) if (nodes[i] >= prep.tangentFrom) nodes[i] = -1;
    out.long = { lines: prep.all.length, starts: chunkStarts(text, prep.all.length), nodes };
    out.transfer.push(out.long.starts.buffer, out.long.nodes.buffer);
  }
  if (reading === 'forward') out.forward = jsonMembers(FORWARD_MEMBER).forward ?? null;
  return out;
}
