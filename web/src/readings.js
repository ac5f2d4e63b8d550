// Markup for the text readings.  Every function copies the engine's text
// character for character and only wraps tokens in spans, so a pane's
// textContent is exactly the reading (the tests rely on it).  Runs in the
// engine worker: plain strings, no DOM.
//
// Lines that stand for a node carry data-node="N"; references to a node
// carry data-ref="N".  The page highlights both when node N is selected, in
// every reading at once (the cross-reading highlight).

// Past this many lines a reading is shown as plain text: a 100,000-node
// listing stays readable and the page stays responsive.
export const MARKUP_LINES = 4000;

export function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

const span = (cls, text, attrs = '') => `<span class="${cls}"${attrs}>${escapeHtml(text)}</span>`;
const LIVE_WORDS = new Set(['kept', 'fused', 'retained', 'freed', 'releasable']);
const SOURCES = new Set(['Leaf', 'Parameter', 'Input']);

// Splits text into lines, keeping whether it ended in a newline.
function lines(text) {
  const all = text.split('\n');
  const last = all.pop();
  if (last !== '') all.push(last);
  return { all, trailing: text.endsWith('\n') };
}

function join(parts, trailing) {
  return parts.join('\n') + (trailing && parts.length ? '\n' : '');
}

// Tokens of the rest of a node line: runs of spaces, bracket groups kept
// whole (also inside `shape=[2, 3]`), and other non-space runs.
function tokens(rest) {
  const out = [];
  let i = 0;
  while (i < rest.length) {
    let j = i;
    if (rest[i] === ' ') {
      while (j < rest.length && rest[j] === ' ') j++;
    } else {
      let depth = 0;
      while (j < rest.length && (depth > 0 || rest[j] !== ' ')) {
        if (rest[j] === '[') depth++;
        else if (rest[j] === ']') depth--;
        j++;
      }
    }
    out.push(rest.slice(i, j));
    i = j;
  }
  return out;
}

// One line of a spec, derivative or plan listing (docs/language.md, spec).
function irLine(line, derivedFrom, marks) {
  const m = /^(\s*)(\d+)(\s+)(\S+)(.*)$/.exec(line);
  if (!m) {
    if (line.startsWith('-- ')) return span('ir-divider', line);
    return line.trim() ? span('ir-summary', line) : escapeHtml(line);
  }
  const [, lead, index, gap, op, rest] = m;
  const n = Number(index);
  let cls = 'ir-line';
  if (derivedFrom !== null && n >= derivedFrom) cls += ' ir-derived';
  if (marks.has(n)) cls += ' ir-marked';
  let html = `${escapeHtml(lead)}${span('ir-index', index)}${escapeHtml(gap)}`
    + span(SOURCES.has(op) ? 'ir-op ir-source' : 'ir-op', op);
  const toks = tokens(rest);
  let seenAttr = false;
  for (let t = 0; t < toks.length; t++) {
    const tok = toks[t];
    if (tok.startsWith(' ')) {
      html += tok;
    } else if (tok.startsWith('[')) {
      html += span('ir-shape', tok);
      const tail = toks.slice(t + 1).join('');
      const lead2 = /^ */.exec(tail)[0];
      const note = tail.slice(lead2.length);
      html += lead2;
      if (note) html += span(LIVE_WORDS.has(note.split(' ')[0]) ? 'ir-live' : 'ir-note', note);
      break;
    } else if (tok.includes('=')) {
      seenAttr = true;
      html += span('ir-attr', tok);
    } else if (!seenAttr && /^\d+,?$/.test(tok)) {
      const k = tok.replace(',', '');
      html += `<span class="ir-ref" data-ref="${k}">${k}</span>` + (tok.endsWith(',') ? ',' : '');
    } else {
      html += escapeHtml(tok);
    }
  }
  return `<span class="${cls}" data-node="${n}">${html}</span>`;
}

// The number of node lines a spec lists: the nodes recorded before
// differentiate (lines at or after it are "derived").
export function countNodeLines(spec) {
  let n = 0;
  for (const line of spec.split('\n')) if (/^\s*\d+\s/.test(line)) n++;
  return n;
}

// spec, derivative and plan.  In the derivative, lines after the divider
// are derived; in the plan, nodes at or after derivedFrom are.
export function irHtml(text, { derivedFrom = null, marks = new Set(), afterDivider = false } = {}) {
  const { all, trailing } = lines(text);
  const out = [];
  let derived = false;
  for (let i = 0; i < all.length; i++) {
    const line = all[i];
    if (i >= MARKUP_LINES) {
      out.push(escapeHtml(all.slice(i).join('\n')));
      break;
    }
    if (afterDivider && line.startsWith('-- ')) derived = true;
    const from = afterDivider ? (derived ? 0 : null) : derivedFrom;
    out.push(irLine(line, from, marks));
  }
  return join(out, trailing);
}

// "-- 17 nodes appended by differentiate: d loss / d w is node 20, ..."
// gives {w: 20}: the engine's own word for where each gradient lives.
export function gradientNodes(derivative) {
  const divider = derivative.split('\n').find((l) => l.startsWith('-- ')) || '';
  const map = new Map();
  for (const m of divider.matchAll(/d \S+ \/ d (\S+) is node (\d+)/g)) map.set(m[1], Number(m[2]));
  return map;
}

// StableHLO: %v{i} (and its helpers %v{i}_x) name node i; %arg{k} is the
// k-th argument, whose node the engine lists in `arguments`.
export function hloHtml(text, argNodes = []) {
  const { all, trailing } = lines(text);
  const out = [];
  const token = /(%v(\d+)(?:_\w+)?)|(%arg(\d+))|(\b(?:stablehlo|chlo)\.\w+|\bfunc\.func\b|\breturn\b|\bmodule\b)|(tensor<[^>]*>)|(@\w+)|(dense<[^>]*>)/g;
  for (let i = 0; i < all.length; i++) {
    const line = all[i];
    if (i >= MARKUP_LINES) {
      out.push(escapeHtml(all.slice(i).join('\n')));
      break;
    }
    let html = '', last = 0, defines = null;
    for (const m of line.matchAll(token)) {
      html += escapeHtml(line.slice(last, m.index));
      last = m.index + m[0].length;
      if (m[1]) {
        if (defines === null && /^\s*$/.test(line.slice(0, m.index))) defines = m[2];
        html += `<span class="ir-ref" data-ref="${m[2]}">${escapeHtml(m[1])}</span>`;
      } else if (m[3]) {
        const node = argNodes[Number(m[4])];
        html += node === undefined ? span('ir-ref', m[3]) : `<span class="ir-ref" data-ref="${node}">${m[3]}</span>`;
      } else if (m[5]) html += span('ir-op', m[5]);
      else if (m[6]) html += span('ir-shape', m[6]);
      else if (m[7]) html += span('ir-index', m[7]);
      else html += span('ir-attr', m[8]);
    }
    html += escapeHtml(line.slice(last));
    out.push(defines !== null ? `<span class="ir-line" data-node="${defines}">${html}</span>` : html);
  }
  return join(out, trailing);
}

// Values: one line per statement (names[i]), then after a blank line one
// line per gradient, `d target / d wrt  value`.
export function valuesHtml(text, names = [], gradients = new Map()) {
  const { all, trailing } = lines(text);
  const out = [];
  let statement = 0, afterBlank = false;
  for (let i = 0; i < all.length; i++) {
    const line = all[i];
    if (line === '') {
      afterBlank = true;
      out.push('');
      continue;
    }
    let m;
    if (!afterBlank && (m = /^(\S+)( +)(\[[^\]]*\])( +)(.*)$/.exec(line))) {
      const entry = names[statement++];
      const attrs = entry ? ` data-node="${entry.node}"` : '';
      out.push(`<span class="ir-line"${attrs}>${span('v-name', m[1])}${m[2]}${span('ir-shape', m[3])}${m[4]}${span('v-value', m[5])}</span>`);
    } else if (afterBlank && (m = /^(d \S+ \/ d )(\S+)( +)(.*)$/.exec(line))) {
      const node = gradients.get(m[2]);
      const attrs = node === undefined ? '' : ` data-node="${node}"`;
      out.push(`<span class="ir-line ir-derived"${attrs}>${span('v-name', m[1] + m[2])}${m[3]}${span('v-value', m[4])}</span>`);
    } else {
      out.push(escapeHtml(line));
    }
  }
  return join(out, trailing);
}
