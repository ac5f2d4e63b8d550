// The tape language for CodeMirror 6: a small stream tokenizer (one
// statement a line, so no state crosses lines) and its colours.
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

const FUNCTIONS = new Set(['tanh', 'exp', 'ln', 'sqrt', 'sin', 'cos', 'relu', 'transpose', 'sum',
  'sum_along', 'log_softmax', 'logsumexp', 'softmax', 'mean_along', 'broadcast', 'reshape']);
const SOURCES = new Set(['parameter', 'input', 'leaf']);

export const PLAIN_LINE = 4000;

// stream.match with a sticky regex at the stream's position: CodeMirror's
// own match slices the rest of the line for every try, and a pasted
// 5,000-line program is tokenized in the paste's task.
function eat(stream, re, consume = true) {
  re.lastIndex = stream.pos;
  const m = re.exec(stream.string);
  if (m && consume) stream.pos += m[0].length;
  return m;
}
const COMMENT = /#.*/y, NUMBER = /(\d[\d.]*|\.\d[\d.]*)([eE][+-]?[\d.]*)?/y, LITERAL = /\[\s*\[/y;
const SHAPE = /\[[^\]\n]*\]/y, WORD = /[A-Za-z_]\w*/y, EQUALS = /\s*=/y, SOURCE_ARG = /\s*[[\d.]/y;
const CALL = /\s*\(/y, OPERATOR = /[=+\-*/@]/y, PUNCTUATION = /[(),]/y;

const tapeParser = {
  name: 'tape',
  startState: () => ({ lineStart: true }),
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
  tokenTable: {
    comment: t.lineComment,
    number: t.number,
    shape: t.squareBracket,
    literal: t.number,
    definition: t.definition(t.variableName),
    source: t.keyword,
    function: t.function(t.variableName),
    name: t.variableName,
    operator: t.operator,
    punctuation: t.punctuation,
    invalid: t.invalid,
  },
  languageData: { commentTokens: { line: '#' } },
};

export const tapeLanguage = StreamLanguage.define(tapeParser);

const style = HighlightStyle.define([
  { tag: t.lineComment, color: 'var(--c-comment)', fontStyle: 'italic' },
  { tag: t.number, color: 'var(--c-number)' },
  { tag: t.squareBracket, color: 'var(--c-shape)' },
  { tag: t.definition(t.variableName), color: 'var(--c-def)', fontWeight: '600' },
  { tag: t.keyword, color: 'var(--c-source)', fontWeight: '600' },
  { tag: t.function(t.variableName), color: 'var(--c-func)' },
  { tag: t.variableName, color: 'var(--c-name)' },
  { tag: t.operator, color: 'var(--c-op)' },
  { tag: t.invalid, color: 'var(--c-error)', textDecoration: 'underline wavy' },
]);

export function tapeSupport() {
  return [tapeLanguage, syntaxHighlighting(style)];
}
