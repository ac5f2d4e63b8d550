// The page's shareable state: the URL hash (drafts.js keeps the programs).
//
// The hash is form-encoded like the original playground's
// (`#program=...&target=loss&observe=error&exact=1&tab=plan`): `exact` only
// when set, `tab` only when it is not `spec`, `target`/`observe` only when
// chosen.  The original's tab names `hlo` and `graph` are read as
// `stablehlo` and `picture`.

export const TABS = ['spec', 'derivative', 'plan', 'stablehlo', 'values', 'picture'];
// The teaching tabs (teach.js): not among the six "all six" tiles.
export const TEACH_TABS = ['check', 'memory', 'train'];
// The compiler's passes and forward mode (passes.js, forward.js): read
// only while their tab is shown; not among the six tiles either.
export const PASS_TABS = ['optimized', 'fusion', 'forward'];
export const VIEWS = [...TABS, ...TEACH_TABS, ...PASS_TABS, 'tiled'];
const TAB_ALIASES = { hlo: 'stablehlo', graph: 'picture', dot: 'picture', tile: 'tiled' };

// The passes' choices: `optimize=1`, `remat=a,b` (or `remat=auto`),
// `direction=w[0, 1]`, `kernels=1`, `tangents=1`, each only when set.
//
// Reads a hash ("#..." or "...") into {program?, target, observe, exact,
// optimize, remat, direction, kernels, tangents, tab}.
// `program` is undefined when the hash has none (so the caller can fall back
// to the drafts); the other fields always have a value.
export function parseHash(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const params = new URLSearchParams(text);
  let tab = params.get('tab') || 'spec';
  tab = TAB_ALIASES[tab] || tab;
  if (!VIEWS.includes(tab)) tab = 'spec';
  const exact = params.get('exact');
  const on = (v) => v !== null && v !== '' && v !== '0' && v !== 'false';
  const remat = params.get('remat') || '';
  return {
    optimize: on(params.get('optimize')),
    remat: remat === 'auto' ? 'auto' : remat.split(',').filter(Boolean),
    direction: params.get('direction') || '',
    kernels: on(params.get('kernels')),
    tangents: on(params.get('tangents')),
    program: params.has('program') ? params.get('program') : undefined,
    target: params.get('target') || '',
    observe: params.get('observe') || '',
    exact: exact !== null && exact !== '' && exact !== '0' && exact !== 'false',
    tab,
  };
}

// state.program undefined: a hash without the program.
export function formatHash(state) {
  const params = new URLSearchParams();
  if (state.program !== undefined) params.set('program', state.program);
  if (state.target) params.set('target', state.target);
  if (state.observe) params.set('observe', state.observe);
  if (state.exact) params.set('exact', '1');
  if (state.optimize) params.set('optimize', '1');
  if (state.remat === 'auto' || state.remat?.length) params.set('remat', state.remat === 'auto' ? 'auto' : state.remat.join(','));
  if (state.direction) params.set('direction', state.direction);
  if (state.kernels) params.set('kernels', '1');
  if (state.tangents) params.set('tangents', '1');
  if (state.tab && state.tab !== 'spec') params.set('tab', state.tab);
  return '#' + params.toString();
}
