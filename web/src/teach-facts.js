// The facts the check tab, the memory chart, the explanation line and the
// step-through show, picked out of the engine's JSON in the engine worker
// (docs/language.md: check, explain, memory, the JSON object).  Nothing is
// derived from a reading's text: the check reading's text is shown as it
// is, everything else is a field of the JSON.  Plain data, no DOM.

// A short line for a node's value from JSON nodes[N]: its shape and its
// first elements, as the engine wrote them.
const VALUE_ELEMENTS = 12;
export function valueText(entry) {
  if (!entry) return '';
  const shape = `[${(entry.shape || []).join(', ')}]`;
  if (entry.data === null || entry.elided) return `${shape}, not shown: past the page's output budget`;
  const data = entry.data.map(String);
  if ((entry.shape || []).length === 0) return `${shape} = ${data[0]}`;
  const head = data.slice(0, VALUE_ELEMENTS).join(', ');
  return data.length > VALUE_ELEMENTS
    ? `${shape} = ${head}, … (${data.length.toLocaleString('en')} elements)`
    : `${shape} = ${head}`;
}

export function teachFacts(result, checkText) {
  const explain = result.explain || [];
  const values = [], ops = [];
  for (const n of result.nodes || []) {
    values[n.node] = valueText(n);
    ops[n.node] = n.op;
  }
  const names = [];
  for (const n of result.names || []) names[n.node] = n.name;   // the last statement naming it
  return {
    check: result.check,
    checkText,
    explain,
    ops,
    origins: result.origins || [],
    memory: result.memory,
    memorySvg: result.memory_svg || '',
    values,
    names,
    target: result.target,
    specNodes: result.spec_nodes ?? 0,
  };
}
