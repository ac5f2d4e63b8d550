// The facts the check tab, the memory chart, the explanation line and the
// step-through show, picked out of the engine's JSON in the engine worker
// (docs/language.md: check, explain, memory, the JSON object).  Nothing is
// derived from a reading's text: the check reading's text is shown as it
// is, everything else is a field of the JSON.  Plain data, no DOM.

// A list of strings sent as one string and where each starts: the page's
// thread takes in thousands of small strings or objects slowly (a
// 5,000-line program's facts took over 100 ms to receive), one string and
// an Int32Array at once.  An entry of the list that is null or undefined
// reads back as undefined.
export function packStrings(list, n = list.length) {
  const parts = [];
  const at = new Int32Array(n + 1);
  const missing = new Uint8Array(n);
  let pos = 0;
  for (let i = 0; i < n; i++) {
    const s = list[i];
    if (s === undefined || s === null) missing[i] = 1;
    else { parts.push(s); pos += s.length; }
    at[i + 1] = pos;
  }
  return { text: parts.join(''), at, missing, length: n };
}

// Entry i of a packStrings list, or undefined.
export function unpack(list, i) {
  if (!list || !(i >= 0 && i < list.length) || list.missing[i]) return undefined;
  return list.text.slice(list.at[i], list.at[i + 1]);
}

// The typed arrays of packed facts, for a transfer list.
export function factBuffers(facts) {
  const out = [facts.memory.steps.buffer, facts.memory.buffers.buffer, facts.steps.nodes.buffer];
  for (const k of ['explain', 'origins']) out.push(facts[k].at.buffer, facts[k].missing.buffer);
  out.push(facts.steps.texts.at.buffer, facts.steps.texts.missing.buffer);
  return out;
}

// JSON memory as the page uses it: the steps (one node a step) and per
// buffer its node, first and last step, flat.
function packMemory(memory) {
  const buffers = memory?.buffers || [];
  const flat = new Int32Array(3 * buffers.length);
  buffers.forEach((b, i) => { flat[3 * i] = b.node; flat[3 * i + 1] = b.from; flat[3 * i + 2] = b.to; });
  return { steps: Int32Array.from(memory?.steps || []), buffers: flat };
}

// JSON steps as the step-through uses them: each step's node, and its
// sentence as the engine wrote it (null past the first 8,192, which the
// engine's worker gives when asked: tp_wasm_step_text).
function packSteps(steps) {
  const list = steps || [];
  return { nodes: Int32Array.from(list, (s) => s.node), texts: packStrings(list.map((s) => s.text)) };
}

// of: the read's id, for the questions the step-through asks of the
// engine's worker about it (engine-worker.js step).
export function teachFacts(result, checkText, of) {
  return {
    check: result.check,
    checkText,
    explain: packStrings(result.explain || []),
    origins: packStrings((result.origins || []).map((o) => (o ? JSON.stringify(o) : null))),
    of,
    memory: packMemory(result.memory),
    steps: packSteps(result.steps),
    trainSettings: result.train_settings ?? null,
    memorySvg: result.memory_svg || '',
  };
}

// Node's origin (JSON origins[N]) from packed facts, or null.
export function originOf(facts, node) {
  const text = unpack(facts.origins, node);
  return text ? JSON.parse(text) : null;
}
