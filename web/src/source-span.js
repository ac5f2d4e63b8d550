// The editor's mark on the source of the selected node: the characters of
// the expression that recorded it, from the engine's "sources" (line,
// first and last column, 1-based, in characters).  This is all an unnamed
// node such as `x @ w` has in the program.
import { StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView } from '@codemirror/view';

const setSpan = StateEffect.define();
const mark = Decoration.mark({ class: 'tp-source-span' });

const field = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setSpan)) marks = e.value ? Decoration.set([mark.range(e.value.from, e.value.to)]) : Decoration.none;
    }
    return marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const theme = EditorView.baseTheme({
  '.tp-source-span': { backgroundColor: 'rgba(229,165,10,0.35)', borderRadius: '2px' },
});

export const sourceSpan = () => [field, theme];

// The document offset of 1-based line and column (in code points).
function offsetOf(doc, line, column) {
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  let pos = 0, chars = 1;
  for (const ch of l.text) {
    if (chars >= column) break;
    pos += ch.length;
    chars++;
  }
  return l.from + Math.min(pos, l.length);
}

// Marks span ([line, first, last] or null for none) in view.
export function showSourceSpan(view, span) {
  let value = null;
  if (Array.isArray(span) && span[0] >= 1 && span[0] <= view.state.doc.lines) {
    const from = offsetOf(view.state.doc, span[0], span[1]);
    const to = offsetOf(view.state.doc, span[0], span[2] + 1);
    if (to > from) value = { from, to };
  }
  const now = view.state.field(field), at = now.iter();
  if (value ? now.size === 1 && at.from === value.from && at.to === value.to : now.size === 0) return;   // as it is
  view.dispatch({ effects: setSpan.of(value) });
}
