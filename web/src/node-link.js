// A button that names a node ("node 6 Ln") and, clicked, selects it in
// every reading: the page's click handler takes any [data-node] inside a
// [data-reading] element (reading-panes.js), so the button needs no handler.
export function nodeButton(node, op) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'node-link';
  b.dataset.node = String(node);
  b.textContent = `node ${node} ${op}`;
  return b;
}
