// A long reading (past readings.js LONG_LINES lines) on the page: its text
// in blocks of CHUNK_LINES lines, each a plain text block until it comes
// near the screen; then the engine worker's markup for that chunk replaces
// its text (the same characters, so the element's textContent is always
// the engine's text, as the automation contract says).  The blocks are
// `content-visibility: auto` with their height known from their line
// count, so the browser lays out only the blocks on screen: a
// 75,000-line plan costs the page a few hundred text blocks and one
// screen of markup.
//
//   const long = new LongReadings(ask, onMarked);
//   long.show(el, {of, reading, text, lines, starts, nodes});
//   long.lineOf(el, node)  -> the chunk element and the line in it, or null
//   long.reveal(el, node)  -> brings node's line into view
//   long.more(el, line, dir) -> marks up the next chunk (keyboard steps)
//   long.drop(el)
//
// ask({of, reading, index}) resolves to the chunk's markup, or null when
// the worker has a newer read; onMarked(chunk) runs after a chunk got its
// markup (the page lights the selected node there).
import { CHUNK_LINES, fillFolds } from './readings.js';

const NEAR = '800px 0px';   // a chunk this close to the screen gets its markup

export class LongReadings {
  constructor(ask, onMarked) {
    this.ask = ask;
    this.onMarked = onMarked;
    this.shown = new Map();   // element -> {info, observer}
  }

  show(el, info) {
    const old = this.shown.get(el);
    if (old && old.info.reading === info.reading && old.info.text === info.text) {
      // The same text (the program changed elsewhere): its blocks and
      // their markup stay, and what is asked from now on names the new
      // read; a block whose markup did not come is asked again.
      old.info = info;
      for (const chunk of el.children) if (!chunk.dataset.marked) old.observer.observe(chunk);
      return;
    }
    this.drop(el);
    const box = el.closest('.scroll');
    const observer = new IntersectionObserver((entries) => {
      for (const e of entries) if (e.isIntersecting) this.mark(el, e.target);
    }, { root: box, rootMargin: NEAR });
    const { text, starts } = info;
    const frag = document.createDocumentFragment();
    for (let c = 0; c + 1 < starts.length; c++) {
      const chunk = document.createElement('span');
      chunk.className = 'chunk';
      chunk.dataset.chunk = String(c);
      const lines = Math.min(CHUNK_LINES, info.lines - c * CHUNK_LINES);
      chunk.style.setProperty('--lines', String(lines));
      chunk.textContent = text.slice(starts[c], starts[c + 1]);
      frag.append(chunk);
    }
    el.replaceChildren(frag);
    el.classList.add('long');
    this.shown.set(el, { info, observer });
    for (const chunk of el.children) observer.observe(chunk);
  }

  async mark(el, chunk) {
    const entry = this.shown.get(el);
    if (!entry || chunk.dataset.marked) return;
    chunk.dataset.marked = 'asked';
    entry.observer.unobserve(chunk);
    const { of, reading } = entry.info;
    const html = await this.ask({ of, reading, index: Number(chunk.dataset.chunk) });
    if (this.shown.get(el) !== entry) return;   // another reading is shown
    if (html === null) {   // the worker has read a newer program: asked again when it is shown
      delete chunk.dataset.marked;
      return;
    }
    chunk.innerHTML = html;
    fillFolds(chunk, entry.info.text);
    chunk.dataset.marked = 'yes';
    this.onMarked(chunk);
  }

  // Where node's first line is: {chunk, line: its index in the chunk}.
  lineOf(el, node) {
    const entry = this.shown.get(el);
    if (!entry) return null;
    const i = entry.info.nodes.indexOf(node);
    if (i < 0) return null;
    return { chunk: el.children[Math.floor(i / CHUNK_LINES)], line: i % CHUNK_LINES };
  }

  // Brings node's line into view in el's scroll box, and marks its chunk up.
  reveal(el, node) {
    const at = this.lineOf(el, node);
    if (!at?.chunk) return false;
    const box = el.closest('.scroll');
    const lh = parseFloat(getComputedStyle(el).lineHeight) || 20;
    const top = at.chunk.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop + at.line * lh;
    if (top < box.scrollTop || top + lh > box.scrollTop + box.clientHeight) box.scrollTop = top - box.clientHeight / 3;
    this.mark(el, at.chunk);
    return true;
  }

  // The chunk after (dir 1) or before (dir -1) line's, marked up; resolves
  // to whether it is.
  async more(el, line, dir) {
    const chunk = line.closest('.chunk');
    const next = dir > 0 ? chunk?.nextElementSibling : chunk?.previousElementSibling;
    if (!next || !this.shown.has(el)) return false;
    if (!next.dataset.marked) await this.mark(el, next);
    return next.dataset.marked === 'yes';
  }

  drop(el) {
    const entry = this.shown.get(el);
    if (!entry) return;
    entry.observer.disconnect();
    this.shown.delete(el);
    el.classList.remove('long');
  }
}
