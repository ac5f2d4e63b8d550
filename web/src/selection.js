// The cross-reading highlight: the selected node (page.selected) lit in
// every reading, the picture, the memory chart and the editor (its
// expression's source span), and brought into view in the other panes.
import { page, paneEl, readingEl, sourceOf } from './page-state.js';
import { PASS_TABS, TABS } from './state.js';
import { showSourceSpan } from './source-span.js';
import { longReadings } from './reading-panes.js';

// Lights the selected node everywhere, or only inside root (a chunk of a
// long reading that just got its markup).
export function applySelection(root = null) {
  const selected = page.selected;
  if (!root) {
    for (const el of document.querySelectorAll('.sel, .sel-ref')) el.classList.remove('sel', 'sel-ref');
    showSourceSpan(page.view, selected === null ? null : sourceOf(selected));
  }
  if (selected !== null) {
    const within = root || document.querySelector('.readings');
    for (const el of within.querySelectorAll(`[data-node="${selected}"]`)) el.classList.add('sel');
    for (const el of within.querySelectorAll(`[data-ref="${selected}"]`)) el.classList.add('sel-ref');
  }
  if (!root) page.teach.selectionApplied();
}

// A click selects a node, or clears it when it was selected.
export function select(node, origin) {
  showSelected(page.selected === node ? null : node, origin);
}

// Selects node (null: none) in every reading and brings it into view in
// every visible pane but origin.
export function showSelected(node, origin = null) {
  page.selected = node;
  applySelection();
  if (node === null) return;
  revealSelected([...TABS, 'memory', ...PASS_TABS], origin);
}

// The selected node brought into view in those of panes (names) that are
// shown, but origin; only the pane's own box scrolls, not the page.
export function revealSelected(names, origin = null) {
  const node = page.selected;
  if (node === null) return;
  for (const name of names) {
    const pane = paneEl(name);
    if (!pane || pane === origin || pane.offsetParent === null) continue;
    const hit = pane.querySelector(`[data-reading] [data-node="${node}"]`);
    if (hit) scrollWithin(pane.querySelector('.scroll'), hit);
    else if (name !== 'picture' && name !== 'memory') longReadings.reveal(readingEl(name), node);
  }
}
function scrollWithin(box, el) {
  if (!box) return;
  const b = box.getBoundingClientRect(), r = el.getBoundingClientRect();
  if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - (box.clientHeight - Math.min(r.height, box.clientHeight)) / 2;
  if (r.left < b.left || r.right > b.right) box.scrollLeft += r.left - b.left - Math.max(0, (box.clientWidth - r.width) / 2);
}

// The node the statement on the editor's cursor line binds (the names'
// node whose source span is on that line), or null; undefined while the
// readings shown are not of the editor's text.
function nodeAtCursor() {
  const { view, shown, shownRequest, names } = page;
  if (!shown.ok || shownRequest?.program !== page.chosen.program) return undefined;
  const line = view.state.doc.lineAt(view.state.selection.main.head).number;
  for (let k = names.nodes.length - 1; k >= 0; k--) {
    const s = sourceOf(names.nodes[k]);
    if (s && s[0] === line) return names.nodes[k];
  }
  return null;
}

// The cursor moved in the focused editor, or new readings came while it
// has the focus: the statement under the cursor is selected in every pane,
// as on the desktop (a line with none clears the selection).
export function selectAtCursor() {
  if (!page.view.hasFocus) return;
  const node = nodeAtCursor();
  if (node !== undefined && node !== page.selected) showSelected(node);
}

export function wireSelection() {
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented && page.selected !== null) { page.selected = null; applySelection(); }
  });
}
