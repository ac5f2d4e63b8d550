// The memory chart tab: the engine's own SVG (JSON memory_svg,
// docs/language.md memory) shown inline.  Each bar is the engine's group
// with the id n<index> and the class "buffer kept|freed"; the page gives
// it data-node so the cross-reading highlight (selection.js applySelection)
// lights it up and a click on it selects its node like any other.  The
// ids are dropped: the picture's nodes are named n<index> too.
const SVG_NS = 'http://www.w3.org/2000/svg';

export function createMemoryChart(el) {
  let shownSvg = null;
  let cursorStep = null;   // the step the cursor stands at, or null

  // Puts the cursor over step k: a vertical line at the left end of the
  // bar of that step's node, which the engine drew from the step's x.
  function drawCursor() {
    const root = el.querySelector('svg');
    root?.querySelector('.step-cursor')?.remove();
    if (!root || cursorStep === null) return;
    const rect = root.querySelector(`g.buffer[data-step="${cursorStep}"] rect`);
    if (!rect) return;
    const x = rect.x.baseVal.value;
    const line = document.createElementNS(SVG_NS, 'line');
    line.setAttribute('class', 'step-cursor');
    line.setAttribute('x1', x);
    line.setAttribute('x2', x);
    line.setAttribute('y1', 0);
    line.setAttribute('y2', root.viewBox.baseVal.height || root.getBBox().height);
    root.append(line);
  }

  return {
    // svg: the engine's text; memory: the packed JSON memory, for each bar's step.
    show(svg, memory) {
      if (svg === shownSvg) return false;
      shownSvg = svg;
      el.innerHTML = svg;
      const root = el.querySelector('svg');
      if (!root) return true;
      const width = root.viewBox.baseVal.width;
      root.removeAttribute('width');
      root.removeAttribute('height');
      // Drawn at its own size (readable), the box scrolls for big programs.
      root.style.width = `${Math.round(width)}px`;
      root.setAttribute('role', 'img');
      const heading = root.querySelector(':scope > text')?.textContent || 'the memory chart';
      root.setAttribute('aria-label', `the memory chart: ${heading}`);
      const stepOf = new Map();   // memory.buffers: node, from, to triples (teach-facts.js)
      const b = memory?.buffers || [];
      for (let i = 0; i + 2 < b.length; i += 3) stepOf.set(b[i], b[i + 1]);
      for (const g of root.querySelectorAll('g.buffer')) {
        const m = /^n(\d+)$/.exec(g.id);
        if (!m) continue;
        g.removeAttribute('id');
        g.dataset.node = m[1];
        if (stepOf.has(Number(m[1]))) g.dataset.step = stepOf.get(Number(m[1]));
      }
      drawCursor();
      return true;
    },
    // Empties the tab until the next show.
    clear() {
      shownSvg = null;
      el.replaceChildren();
    },
    cursor(k) {
      cursorStep = k;
      drawCursor();
    },
  };
}
