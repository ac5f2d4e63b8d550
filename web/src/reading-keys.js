// Keyboard reach of a text reading's lines: each reading has one tab stop
// among its node lines (a roving tabindex, after its scroll box); Up and
// Down move to the previous or next node line, Home and End to the first
// and last, and the page selects the focused line's node on Enter or
// Space.  Lines of a long reading that are still plain text get their
// markup first (long-reading.js).

const LINE = '.ir-line[data-node]';

// Gives reading element el its tab stop: the line that had it, else the
// selected node's line, else the first node line.
export function rovingStop(el, selected) {
  if (el.querySelector(`${LINE}[tabindex="0"]`)) return;
  const line = (selected !== null && el.querySelector(`${LINE}[data-node="${selected}"]`)) || el.querySelector(LINE);
  if (line) line.setAttribute('tabindex', '0');
}

// Moves focus from line to the line key asks for (ArrowUp, ArrowDown,
// Home, End); returns whether the key was one of those.  more(el, line,
// dir) is asked for lines past the marked-up ones and resolves when they
// are there.
export async function stepLine(el, line, key, more) {
  const dir = key === 'ArrowDown' || key === 'End' ? 1 : key === 'ArrowUp' || key === 'Home' ? -1 : 0;
  if (!dir) return false;
  const lines = () => [...el.querySelectorAll(LINE)];
  let all = lines();
  let i = all.indexOf(line);
  let next = key === 'Home' ? all[0] : key === 'End' ? all[all.length - 1] : all[i + dir];
  if ((!next || next === line) && await more(el, line, dir)) {
    all = lines();
    i = all.indexOf(line);
    next = all[i + dir];
  }
  if (next && next !== line) {
    line.setAttribute('tabindex', '-1');
    next.setAttribute('tabindex', '0');
    next.focus();
  }
  return true;
}
