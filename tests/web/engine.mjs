// The wasm engine under node, for tests and benchmarks.
//
//   const engine = await loadEngine(BUILD_WEB_DIR);   // holds tp-engine.mjs/.wasm
//   const { status, json } = engine.read(program, { target, observe, exact });
//   const text = engine.reading(7);                    // a TpReading of the last read
//   const { ran, json, reading, svg, parameters } = engine.train(steps, '0.1');
//   const text = engine.shortNumber(0.001024);        // "0.00102", the short format
//
// The module is the page's own build (-sENVIRONMENT=web,worker); under node
// it is given its .wasm bytes directly, which also avoids emscripten 3.1.6's
// fetch of a file path (HACKING.md T2).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function loadEngine(dir) {
  const { default: create } = await import(pathToFileURL(join(dir, 'tp-engine.mjs')).href);
  const m = await create({ wasmBinary: readFileSync(join(dir, 'tp-engine.wasm')) });
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const put = (bytes) => {
    const p = m._malloc(bytes.length + 1);
    if (!p) throw new Error('wasm malloc failed');
    m.HEAPU8.set(bytes, p);
    m.HEAPU8[p + bytes.length] = 0;
    return p;
  };
  return {
    module: m,
    read(program, { target = '', observe = [], exact = false } = {}) {
      const src = typeof program === 'string' ? encoder.encode(program) : program;
      const tgt = encoder.encode(target);
      const obs = encoder.encode(observe.map((n) => n + '\n').join(''));
      const ps = put(src), pt = put(tgt), po = put(obs);
      try {
        const status = m._tp_wasm_read(ps, src.length, pt, po, obs.length, exact ? 1 : 0);
        const ptr = m._tp_wasm_json(), len = m._tp_wasm_json_length();
        return { status, json: decoder.decode(m.HEAPU8.subarray(ptr, ptr + len)) };
      } finally {
        m._free(ps); m._free(pt); m._free(po);
      }
    },
    // The text of one reading (a TpReading index) of the last read.
    reading(which) {
      const ptr = m._tp_wasm_reading(which), len = m._tp_wasm_reading_length(which);
      return decoder.decode(m.HEAPU8.subarray(ptr, ptr + len));
    },
    // The engine's short number format of an f32 value (a number of the
    // JSON), tp_wasm_short_number.
    shortNumber(value) {
      const p = m._tp_wasm_short_number(Math.fround(value));
      return decoder.decode(m.HEAPU8.subarray(p, m.HEAPU8.indexOf(0, p)));
    },
    // Trains on the program of the last read: { ran, json, reading, svg,
    // parameters (the reading's lines), shown (the parameters after the
    // last step in the short number format, what a front end shows:
    // tp_wasm_train_at) }.
    train(steps, rate) {
      const r = encoder.encode(String(rate));
      const pr = put(r);
      try {
        const ran = m._tp_wasm_train(steps, pr, r.length);
        const text = (k) => {
          const ptr = m._tp_wasm_train_text(k), len = m._tp_wasm_train_length(k);
          return decoder.decode(m.HEAPU8.subarray(ptr, ptr + len));
        };
        const losses = ran === 1 ? JSON.parse(text(0)).losses.length : 0;
        const at = losses > 0 ? m._tp_wasm_train_at(losses - 1) : 0;
        const shown = at ? decoder.decode(m.HEAPU8.subarray(at, m.HEAPU8.indexOf(0, at))) : '';
        return { ran, json: text(0), reading: text(1), svg: text(2), parameters: text(3), shown };
      } finally {
        m._free(pr);
      }
    },
  };
}
