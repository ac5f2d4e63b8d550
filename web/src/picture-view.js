// The picture's nodes for the keyboard, the eye and a screen reader: each
// node graphviz drew (its DOT id n{N}) becomes a button of a roving tab
// stop (arrow keys go to the nearest node that way, Home and End to the
// first and last, Enter or Space selects); hovering or focusing one shows
// a card with what the engine says of it (picture-facts.js: op, name,
// shape, value, operands, explain); the text alternative lists the same.
// The opening zoom keeps labels readable (readableScale).

// Marks each drawn node with its tape node (data-node), and makes it a
// button of the picture's roving tab stop.  Returns the node numbers.
export function prepareNodes(root) {
  const nodes = [];
  for (const g of root.querySelectorAll('g.node')) {
    if (!/^n\d+$/.test(g.id)) continue;   // the note of a reduced picture
    const n = Number(g.id.slice(1));
    g.dataset.node = String(n);
    g.setAttribute('tabindex', nodes.length === 0 ? '0' : '-1');
    g.setAttribute('role', 'button');
    g.setAttribute('aria-label', `node ${n}`);
    nodes.push(n);
  }
  return nodes;
}

// The smallest scale at which the nodes' labels are px CSS pixels tall
// (the engine's defaults.readable_label_px: graphviz writes font sizes in
// points of the viewBox, 72 to 96 pixels).
export function readableScale(root, px) {
  let min = Infinity;
  for (const t of root.querySelectorAll('g.node text')) {
    const f = parseFloat(t.getAttribute('font-size'));
    if (f > 0 && f < min) min = f;
  }
  return min === Infinity ? 0 : px / (min * 96 / 72);
}

// The picture's SVG for a file of its own: the page's font rule for its
// labels goes inside it (graphviz sized the boxes with Helvetica's
// metrics; where Helvetica is missing a wider face would overflow them).
export function standaloneSvg(svg) {
  const at = svg.indexOf('<svg');
  const end = at < 0 ? -1 : svg.indexOf('>', at);
  if (end < 0) return svg;
  const style = '\n<style>text { font-family: Helvetica, Arial, "Liberation Sans", "Nimbus Sans", "Nimbus Sans L", "DejaVu Sans", sans-serif; font-stretch: condensed; }</style>';
  return svg.slice(0, end + 1) + style + svg.slice(end + 1);
}

// What a node's facts say, in one line.
export function describeNode(n, f) {
  if (!f) return `node ${n}`;
  const head = [`${n} ${f.op}`, f.name].filter(Boolean).join(' ');
  const parts = [head, f.shape && `shape ${f.shape}`, f.value && `value ${f.value}`].filter(Boolean);
  const ops = f.operands.length ? `; operands: ${f.operands.map((o) => `node ${o}`).join(', ')}` : '';
  return parts.join(', ') + ops;
}

// Labels the nodes and fills the text alternative (list, in node order)
// from the facts;
// returns the count of operand edges between drawn nodes.
export function describeNodes(root, nodes, facts, list) {
  const drawn = new Set(nodes);
  let edges = 0;
  const items = [];
  for (const n of [...nodes].sort((x, y) => x - y)) {
    const f = facts[n];
    const text = describeNode(n, f);
    // Its name starts with the words it shows (what a speech user says to
    // it), then what the engine says of it.
    const g = root.querySelector(`g.node[data-node="${n}"]`);
    if (g) {
      const shows = [...g.querySelectorAll('text')].map((t) => t.textContent.trim()).filter(Boolean).join(' ');
      g.setAttribute('aria-label', shows && shows !== text ? `${shows}: ${text}` : text);
    }
    if (f) edges += f.operands.filter((o) => drawn.has(o)).length;
    const li = document.createElement('li');
    li.dataset.altNode = String(n);
    li.textContent = text;
    items.push(li);
  }
  list.replaceChildren(...items);
  return edges;
}

// The nearest node from g in the direction of key (arrows), by the
// nodes' centres on screen; Home and End: the first and last node.  A node
// within 45 degrees of that direction first (ArrowDown from a node goes to
// one below it, not to its neighbour on its rank whose centre is a pixel
// lower), any node that way only when none is.
export function nextNode(root, g, key) {
  const all = [...root.querySelectorAll('g.node[data-node]')];
  if (key === 'Home') return all[0];
  if (key === 'End') return all[all.length - 1];
  const centre = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const [x0, y0] = centre(g);
  const [dx, dy] = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
  let best = null, bestCost = Infinity, inCone = false;
  for (const other of all) {
    if (other === g) continue;
    const [x, y] = centre(other);
    const along = (x - x0) * dx + (y - y0) * dy;   // how far that way
    if (along <= 1) continue;
    const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    const cone = across <= along;
    const cost = along + 2 * across;
    if ((cone && !inCone) || (cone === inCone && cost < bestCost)) { bestCost = cost; best = other; inCone = cone; }
  }
  return best;
}

// A scroll offset along one axis for box (its scroll position now: at,
// its visible size: size, its largest offset: max) that cuts no node of
// spans ([start, end) of each, in scroll coordinates) at either edge, if
// one within half a screen of at does, keeping keep (a span: the target)
// whole; else the one that cuts fewest, nearest to at.
export function uncut(spans, at, size, max, keep = null, margin = 6) {
  const cuts = (c) => spans.filter(([a, e]) => (a < c && e > c) || (a < c + size && e > c + size)).length;
  const fits = (c) => !keep || keep[1] - keep[0] > size || (keep[0] >= c && keep[1] <= c + size);
  let best = at, bestCuts = cuts(at), bestMove = 0;
  for (const [a, e] of spans) {
    // Either edge just outside either end of the node.
    for (const c of [a - margin, e + margin, e + margin - size, a - margin - size]) {
      const to = Math.round(Math.min(Math.max(c, 0), max));
      const move = Math.abs(to - at);
      if (move > size / 2 || !fits(to)) continue;
      const n = cuts(to);
      if (n < bestCuts || (n === bestCuts && move < bestMove)) { best = to; bestCuts = n; bestMove = move; }
    }
  }
  return best;
}

// Moves the roving tab stop to g and focuses it.
export function focusNode(root, g) {
  for (const other of root.querySelectorAll('g.node[tabindex="0"]')) other.setAttribute('tabindex', '-1');
  g.setAttribute('tabindex', '0');
  g.focus();
}

// The card beside a hovered or focused node: its facts, and the explain
// line.
export class NodeCard {
  constructor(box) {
    this.box = box;   // the picture's scroll box (position: relative)
    this.el = document.createElement('div');
    this.el.className = 'picture-card';
    this.el.id = 'picture-card';
    this.el.setAttribute('role', 'tooltip');
    this.el.hidden = true;
    box.append(this.el);
  }

  show(g, n, f) {
    const head = document.createElement('b');
    head.textContent = f ? `${n} ${f.op}${f.name ? ` ${f.name}` : ''}` : `node ${n}`;
    const rows = [head];
    if (f) {
      for (const [k, v] of [['shape', f.shape], ['value', f.value], ['operands', f.operands.map((o) => `node ${o}`).join(', ')]]) {
        if (!v) continue;
        const row = document.createElement('span');
        row.textContent = `${k}: ${v}`;
        rows.push(row);
      }
      if (f.explain) {
        const why = document.createElement('span');
        why.className = 'picture-card-explain';
        why.textContent = f.explain;
        rows.push(why);
      }
    }
    this.el.replaceChildren(...rows);
    this.el.hidden = false;
    g.setAttribute('aria-describedby', this.el.id);
    // Below the node, kept inside the box's visible part.
    const b = this.box.getBoundingClientRect(), r = g.getBoundingClientRect();
    const left = Math.max(0, Math.min(r.left - b.left + this.box.scrollLeft, this.box.scrollLeft + b.width - this.el.offsetWidth - 8));
    let top = r.bottom - b.top + this.box.scrollTop + 6;
    if (top + this.el.offsetHeight > this.box.scrollTop + b.height) top = r.top - b.top + this.box.scrollTop - this.el.offsetHeight - 6;
    this.el.style.left = `${left}px`;
    this.el.style.top = `${Math.max(this.box.scrollTop, top)}px`;
  }

  hide() {
    this.el.hidden = true;
  }
}
