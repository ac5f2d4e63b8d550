// The memory chart tab: the engine's own SVG (JSON memory_svg,
// docs/language.md memory) shown inline.  Each bar is the engine's group
// with the id n<index> and the class "buffer kept|freed"; the page gives
// it data-node so the cross-reading highlight (selection.js applySelection)
// lights it up and a click on it selects its node like any other.  The
// ids are dropped: the picture's nodes are named n<index> too.
const SVG_NS = 'http://www.w3.org/2000/svg';

// Each bar is a button of one roving tab stop: Up and Down go to the bar
// above and below, Home and End to the first and last, Enter or Space
// selects its node (select); each is named by its statement (nameOf: the
// engine's display name of a node, from its JSON names, or null) and the
// engine's own title of the bar.
export function createMemoryChart(el, { select, nameOf }) {
  let shownSvg = null;
  let cursorStep = null;   // the step the cursor stands at, or null

  // (The button is the bar's rect: the group's labels, an index and a
  // count drawn apart, are in its name, not its content.)
  const BAR = 'g.buffer[data-node] > rect';
  el.addEventListener('keydown', (e) => {
    const bar = e.target instanceof Element ? e.target.closest(BAR) : null;
    if (!bar || e.ctrlKey || e.metaKey || e.altKey) return;
    const bars = [...el.querySelectorAll(BAR)];
    const i = bars.indexOf(bar);
    const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: bars.length - 1 }[e.key];
    if (e.key === 'Enter' || e.key === ' ') select(Number(bar.parentNode.dataset.node));
    else if (to !== undefined && bars[to]) focusBar(bars[to]);
    else return;
    e.preventDefault();
  });
  function focusBar(bar) {
    for (const other of el.querySelectorAll(`${BAR}[tabindex="0"]`)) other.setAttribute('tabindex', '-1');
    bar.setAttribute('tabindex', '0');
    bar.focus();
  }

  // Puts the cursor over step k: a vertical line at the left end of the
  // bar of that step's node, which the engine drew from the step's x.
  function drawCursor() {
    const root = el.querySelector('svg');
    root?.querySelector('.step-cursor')?.remove();
    for (const g of el.querySelectorAll('g.buffer.step-current')) g.classList.remove('step-current');
    if (!root || cursorStep === null) return;
    const bar = root.querySelector(`g.buffer[data-step="${cursorStep}"]`);
    const rect = bar?.querySelector('rect');
    if (!rect) return;
    bar.classList.add('step-current');
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
      // At its own size when it fits its pane, else the pane's width
      // (style.css), but never under half its size: past that the box
      // scrolls (the bars' labels must stay readable).
      root.style.width = `${Math.round(width)}px`;
      root.style.minWidth = `${Math.round(width / 2)}px`;
      root.setAttribute('role', 'group');
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
        const name = nameOf(Number(m[1]));
        const title = g.querySelector('title')?.textContent || `node ${m[1]}`;
        const bar = g.querySelector(':scope > rect');
        if (!bar) continue;
        bar.setAttribute('role', 'button');
        bar.setAttribute('tabindex', '-1');
        bar.setAttribute('aria-label', name ? `${name}: ${title}` : title);
      }
      root.querySelector(BAR)?.setAttribute('tabindex', '0');
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
