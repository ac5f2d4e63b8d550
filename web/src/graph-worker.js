// The picture's Web Worker: lays out the engine's DOT with graphviz
// compiled to wasm and returns the SVG text.  A layout cannot be
// interrupted from inside, so the page terminates this worker when a newer
// DOT arrives or a layout runs too long, and starts a fresh one.
//
// @hpcc-js/wasm-graphviz, not @viz-js/viz: both bundle graphviz 16.1.0 and
// lay the engine's DOT out identically, but hpcc was 1.3-2x faster on the
// larger gradient graphs and ships 800 KB instead of 1.2 MB
// (tests/web/bench-graphviz.mjs measures both).
//
// in:  {id, dot}
// out: {id, svg, ms, version}  or  {id, error}
import { Graphviz } from '@hpcc-js/wasm-graphviz';

const graphviz = Graphviz.load().catch((error) => {
  throw new Error(`graphviz could not be loaded (${error?.message || error})`);
});

self.onmessage = async (event) => {
  const { id, dot } = event.data;
  try {
    const gv = await graphviz;
    const t0 = performance.now();
    const svg = gv.layout(dot, 'svg', 'dot');
    self.postMessage({ id, svg, ms: performance.now() - t0, version: gv.version() });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message || error) });
  }
};
