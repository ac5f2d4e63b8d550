// A generated corpus of tape programs for the native == wasm comparison.
//
// corpus(count, seed) returns [{name, program, choices}], deterministic for a
// seed.  Most programs read (the generator tracks shapes so operands fit);
// some are broken on purpose (an unknown name, mismatched shapes, a stray
// character, a bad shape, an axis out of range), so diagnostics are
// compared too.  The mix covers every source (tensor literals included),
// operator and function, rank-0 broadcasting, reassigned names, keywords used
// as names, comments, blank lines, CRLF line ends, non-ASCII text and
// numbers in exponent form.

// splitmix32-ish: small, fast, deterministic.
function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const SHAPES = [[], [], [1], [2], [3], [2, 2], [2, 3], [3, 2], [1, 2], [4, 3], [3, 4], [2, 2, 2]];
const NUMBERS = ['0.5', '2.0', '1', '3', '0.25', '1e-3', '1.5e2', '.75', '0', '4.0', '7e-8'];
const UNARY = ['tanh', 'exp', 'ln', 'sqrt', 'sin', 'cos', 'relu', 'sum'];
const ALONG = ['sum_along', 'log_softmax', 'logsumexp', 'softmax', 'mean_along'];
const NAMES = ['a', 'b', 'c', 'h', 'w', 'x', 'y', 'z', 'loss', 'error', 'hidden', 'out', 'input', 'sum', 'leaf', 'p_1'];

const shapeText = (s) => `[${s.join(', ')}]`;
const same = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);

// A tensor literal of the shape (rank >= 2): its elements are numbers of the
// list, a third of them negative.
function literalText(shape, r) {
  if (shape.length === 0) return (r.chance(0.3) ? '-' : '') + r.pick(NUMBERS);
  const rows = [];
  for (let k = 0; k < shape[0]; k++) rows.push(literalText(shape.slice(1), r));
  return `[${rows.join(', ')}]`;
}

function program(r) {
  const env = [];            // [{name, shape}]
  const lines = [];
  const statements = 2 + r.int(9);
  const broken = r.chance(0.2);
  const breakAt = r.int(statements);
  if (r.chance(0.3)) lines.push('# a generated program: naïve → fine');

  const source = () => {
    const kind = r.pick(['parameter', 'parameter', 'input', 'leaf']);
    if (r.chance(0.4)) return { text: `${kind} ${r.pick(NUMBERS)}`, shape: [] };
    const shape = r.pick(SHAPES);
    if (shape.length >= 2 && r.chance(0.4)) return { text: `${kind} ${literalText(shape, r)}`, shape };
    return { text: `${kind} ${shapeText(shape)}`, shape };
  };
  const value = (depth) => {
    if (env.length === 0 || depth > 2 || r.chance(0.25)) {
      if (r.chance(0.3)) return { text: r.pick(NUMBERS), shape: [] };
      return source();
    }
    const v = r.pick(env);
    const base = { text: v.name, shape: v.shape };
    switch (r.int(9)) {
      case 0: case 1: {
        const other = env.find((e) => same(e.shape, v.shape) && r.chance(0.7))
          || (r.chance(0.5) ? { name: r.pick(NUMBERS), shape: [] } : v);
        const op = r.pick(['+', '-', '*', '/']);
        const shape = v.shape.length ? v.shape : other.shape;
        return { text: `${v.name} ${op} ${other.name}`, shape };
      }
      case 2: {
        const f = r.pick(UNARY);
        return { text: `${f}(${v.name})`, shape: f === 'sum' ? [] : v.shape };
      }
      case 3:
        if (v.shape.length === 2) {
          const m = env.find((e) => e.shape.length === 2 && e.shape[0] === v.shape[1]);
          if (m) return { text: `${v.name} @ ${m.name}`, shape: [v.shape[0], m.shape[1]] };
          return { text: `transpose(${v.name})`, shape: [v.shape[1], v.shape[0]] };
        }
        return base;
      case 4:
        if (v.shape.length > 0) {
          const f = r.pick(ALONG);
          const axis = r.int(v.shape.length);
          const keeps = f === 'log_softmax' || f === 'softmax';
          return { text: `${f}(${v.name}, ${axis})`, shape: keeps ? v.shape : v.shape.filter((_, i) => i !== axis) };
        }
        return base;
      case 5: {
        if (v.shape.length === 0) {
          const shape = r.pick(SHAPES.filter((s) => s.length));
          return { text: `broadcast(${v.name}, ${shapeText(shape)})`, shape };
        }
        const n = v.shape.reduce((a, b) => a * b, 1);
        return { text: `reshape(${v.name}, [${n}])`, shape: [n] };
      }
      case 6: {
        const inner = value(depth + 1);
        return { text: `-(${inner.text})`, shape: inner.shape };
      }
      case 7: {
        const inner = value(depth + 1);
        if (same(inner.shape, v.shape))
          return { text: `(${v.name} * ${inner.text}) - ${v.name}`, shape: v.shape };
        return { text: `${v.name}`, shape: v.shape };
      }
      default:
        return base;
    }
  };
  const breakage = () => r.pick([
    'oops = undefined_name + 1',
    'bad = input [2, 0]',
    'bad = input [2, x]',
    'bad = input [2, 3',
    'bad = parameter [2] + parameter [3]',
    'bad = parameter [2, 2] @ parameter [3, 3]',
    'bad = sum_along(parameter [2, 2], 5)',
    'bad = 3 $ 4',
    'Δ = parameter 1',
    'bad = tanh(',
    'bad = 1.2.3',
    'just a line',
    'bad = reshape(parameter [2, 3], [7])',
    'bad = broadcast(parameter [2], [2, 2])',
    `bad = ${'('.repeat(300)}1${')'.repeat(300)}`,
    'bad = parameter [100000, 100000]',
    'bad = leaf [[1, 2], [3]]',
    'bad = input [[1, x]]',
    'bad = parameter [[0.5, -1]',
  ]);

  for (let i = 0; i < statements; i++) {
    if (broken && i === breakAt) lines.push(breakage());
    if (r.chance(0.1)) lines.push('');
    const v = i === 0 ? source() : value(0);
    const name = r.chance(0.15) && env.length ? r.pick(env).name : r.pick(NAMES);
    let line = `${name} = ${v.text}`;
    if (r.chance(0.1)) line += '   # note';
    lines.push(line);
    env.push({ name, shape: v.shape });
  }
  if (r.chance(0.5)) {
    const last = env[env.length - 1];
    lines.push(`loss = sum(${last.name} * ${last.name})`);
    env.push({ name: 'loss', shape: [] });
  }
  const eol = r.chance(0.1) ? '\r\n' : '\n';
  const text = lines.join(eol) + (r.chance(0.8) ? eol : '');
  const names = env.map((e) => e.name);
  const choices = {
    target: r.chance(0.3) ? r.pick([...names, 'nowhere']) : '',
    observe: r.chance(0.4) ? [r.pick([...names, 'nothing_here'])] : [],
    exact: r.chance(0.3),
  };
  return { program: text, choices };
}

export function corpus(count, seed = 1) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < count; i++) out.push({ name: `generated-${seed}-${i}`, ...program(r) });
  // A few fixed edge cases.
  out.push({ name: 'empty', program: '', choices: {} });
  out.push({ name: 'only-comments', program: '# nothing\n\n# here\n', choices: {} });
  out.push({ name: 'no-newline', program: 'w = parameter 1.5', choices: {} });
  out.push({ name: 'big-tensor', program: 'w = parameter [600, 700]\nloss = sum(tanh(w) * w)\n', choices: {} });
  out.push({ name: 'over-the-limit', program: 'w = parameter [100000, 100000]\n', choices: {} });
  out.push({ name: 'control-chars', program: 'w = parameter 1\x01\n', choices: {} });
  // checked along random directions: a chain too deep for element by element
  const chain = ['x = input [4, 8]'];
  for (let k = 0, prev = 'x'; k < 30; prev = `h${k}`, k++)
    chain.push(`w${k} = parameter [8, 8]`, `h${k} = tanh(${prev} @ w${k}) + ${prev}`);
  chain.push('loss = sum(h29 * h29)');
  out.push({ name: 'check-directions', program: chain.join('\n') + '\n', choices: {} });
  out.push({ name: 'two-observes', program: 'a = parameter [2]\nb = tanh(a)\nc = exp(b)\nloss = sum(c)\n', choices: { observe: ['a', 'b'] } });
  return out;
}
