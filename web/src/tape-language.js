// The tape language for CodeMirror 6: a small tokenizer and its colours.
// One statement a line, so no state crosses lines: only the lines on
// screen are tokenized, each time the view shows other lines or the text
// changes.  (A StreamLanguage parses from the top of the document, in the
// paste's own task and then in slices of up to 50 ms: a pasted 5,000-line
// program held the page's thread past 50 ms.)
import { EditorState, RangeSetBuilder } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin } from '@codemirror/view';

const FUNCTIONS = new Set(['tanh', 'exp', 'ln', 'sqrt', 'sin', 'cos', 'relu', 'transpose', 'sum',
  'sum_along', 'log_softmax', 'logsumexp', 'softmax', 'mean_along', 'broadcast', 'reshape']);
const SOURCES = new Set(['parameter', 'input', 'leaf']);

export const PLAIN_LINE = 4000;

// A sticky regex matched at the stream's position (no slice of the rest
// of the line for every try); consumed unless @consume is false.
function eat(stream, re, consume = true) {
  re.lastIndex = stream.pos;
  const m = re.exec(stream.string);
  if (m && consume) stream.pos += m[0].length;
  return m;
}
const COMMENT = /#.*/y, NUMBER = /(\d[\d.]*|\.\d[\d.]*)([eE][+-]?[\d.]*)?/y, LITERAL = /\[\s*\[/y;
const SHAPE = /\[[^\]\n]*\]/y, WORD = /[A-Za-z_]\w*/y, EQUALS = /\s*=/y, SOURCE_ARG = /\s*[[\d.]/y;
const CALL = /\s*\(/y, OPERATOR = /[=+\-*/@]/y, PUNCTUATION = /[(),]/y;

// The tokenizer's view of one line: the few stream methods it uses.
class LineStream {
  constructor(string) { this.string = string; this.pos = 0; this.start = 0; }
  sol() { return this.pos === 0; }
  eol() { return this.pos >= this.string.length; }
  next() { return this.pos < this.string.length ? this.string[this.pos++] : undefined; }
  eat(ch) {
    if (this.string[this.pos] !== ch) return undefined;
    this.pos++;
    return ch;
  }
  eatSpace() {
    const from = this.pos;
    while (this.pos < this.string.length && /\s/.test(this.string[this.pos])) this.pos++;
    return this.pos > from;
  }
  skipToEnd() { this.pos = this.string.length; }
}

const tapeTokenizer = {
  token(stream, state) {
    // A line this long is left plain: one element, not one per token
    // (a 100,000-character line would be 50,000 of them to draw).
    if (stream.sol() && stream.string.length > PLAIN_LINE) {
      stream.skipToEnd();
      return null;
    }
    if (stream.sol()) state.lineStart = true;
    if (stream.eatSpace()) return null;
    const first = state.lineStart;
    state.lineStart = false;
    if (eat(stream, COMMENT)) return 'comment';
    if (eat(stream, NUMBER)) return 'number';
    if (eat(stream, LITERAL, false)) {
      // A tensor literal (docs/decisions.md D21): up to its balanced `]`,
      // on this line.
      let depth = 0;
      do {
        const c = stream.next();
        if (c === '[') depth++;
        else if (c === ']') depth--;
      } while (depth > 0 && !stream.eol());
      return depth === 0 ? 'literal' : 'invalid';
    }
    if (eat(stream, SHAPE)) return 'shape';
    if (stream.eat('[')) return 'invalid';
    const word = eat(stream, WORD);
    if (word) {
      const w = word[0];
      // Keywords may name values (docs/decisions.md D8): colour a word by
      // what follows it, the way the parser tells the uses apart.
      if (first && eat(stream, EQUALS, false)) return 'definition';
      if (SOURCES.has(w) && eat(stream, SOURCE_ARG, false)) return 'source';
      if (FUNCTIONS.has(w) && eat(stream, CALL, false)) return 'function';
      return 'name';
    }
    if (eat(stream, OPERATOR)) return 'operator';
    if (eat(stream, PUNCTUATION)) return 'punctuation';
    stream.next();
    return 'invalid';
  },
};

// The tokens of one line: [from, to, kind] with line offsets, kind one of
// the keys of STYLES, name or punctuation; the spaces and plain stretches
// between are left out.
export function lineTokens(text) {
  const stream = new LineStream(text), state = { lineStart: true }, out = [];
  while (!stream.eol()) {
    stream.start = stream.pos;
    const kind = tapeTokenizer.token(stream, state);
    if (stream.pos === stream.start) stream.pos++;   // never stuck
    if (kind) {
      const last = out[out.length - 1];
      if (last && last[2] === kind && last[1] === stream.start) last[1] = stream.pos;
      else out.push([stream.start, stream.pos, kind]);
    }
  }
  return out;
}

const STYLES = {
  comment: { color: 'var(--c-comment)', fontStyle: 'italic' },
  number: { color: 'var(--c-number)' },
  literal: { color: 'var(--c-number)' },
  shape: { color: 'var(--c-shape)' },
  definition: { color: 'var(--c-def)', fontWeight: '600' },
  source: { color: 'var(--c-source)', fontWeight: '600' },
  function: { color: 'var(--c-func)' },
  operator: { color: 'var(--c-op)' },
  invalid: { color: 'var(--c-error)', textDecoration: 'underline wavy' },
};
// Names and punctuation are drawn in the text's own colour, so they get
// no span: half the elements of a line such as `h2 = tanh(h1 @ w)`, which
// the editor makes and lays out in the very task of a paste.
const MARKS = Object.fromEntries(Object.keys(STYLES).map((k) => [k, Decoration.mark({ class: `tp-tok-${k}` })]));

function tokenDecorations(view) {
  const builder = new RangeSetBuilder(), doc = view.state.doc;
  let done = -1;   // visible ranges may share a line
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = doc.lineAt(pos);
      if (line.number > done) {
        for (const [a, b, kind] of lineTokens(line.text)) if (MARKS[kind]) builder.add(line.from + a, line.from + b, MARKS[kind]);
        done = line.number;
      }
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

const tapeHighlighter = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = tokenDecorations(view); }
  update(update) {
    if (update.docChanged || update.viewportChanged) this.decorations = tokenDecorations(update.view);
  }
}, { decorations: (plugin) => plugin.decorations });

const tapeTheme = EditorView.baseTheme(Object.fromEntries(
  Object.entries(STYLES).map(([k, style]) => [`.tp-tok-${k}`, style])));

export function tapeSupport() {
  return [
    tapeHighlighter,
    tapeTheme,
    EditorState.languageData.of(() => [{ commentTokens: { line: '#' } }]),
  ];
}
