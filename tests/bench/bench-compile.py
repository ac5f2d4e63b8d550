#!/usr/bin/env python3
"""Benchmark (not a test): the engine's differentiate + plan + StableHLO
emit beside jax doing the same job, in one run.

It writes a generated 1,000-line program (and the same program as a jax
function), runs bench-compile on the samples and on it, then times jax on
the same program: `jax.jit(jax.value_and_grad(f)).lower(params,
inputs).as_text()`, that is tracing, the gradient transformation and the
lowering to StableHLO text, which is what differentiate + plan + emit do.
Each jax repetition uses a new function object so nothing is cached.

Usage: bench-compile.py --bench BUILD/tests/bench/bench-compile
                        [--venv BUILD/tests/hlo/venv] [--samples DIR]
                        [--lines 1000] [--reps 5]
The venv is the StableHLO round trip's (created with the pinned
requirements if missing)."""
import argparse
import os
import pathlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def generate(lines, seed=1):
    """A chain of `lines` statements over [4, 8] activations and ten
    [8, 8] weights; every line reads the line before it and one random
    earlier line, so the whole program is an ancestor of the loss.
    Returns (tape text, python source defining f(params, inputs))."""
    r = random.Random(seed)
    tape = ["x = input [4, 8]"]
    py = ["import jax", "import jax.numpy as jnp", "",
          "def f(params, inputs):", "    x = inputs['x']"]
    weights = ["w%d" % k for k in range(10)]
    for w in weights:
        tape.append("%s = parameter [8, 8]" % w)
        py.append("    %s = params['%s']" % (w, w))
    tape.append("b = parameter 0.5")
    py.append("    b = params['b']")
    vals = ["x"]
    while len(tape) < lines - 1:
        a = vals[-1]
        c = r.choice(vals[-20:])
        w = r.choice(weights)
        kind = r.randrange(8)
        if kind == 0:
            t, p = "tanh(%s @ %s)" % (a, w), "jnp.tanh(%s @ %s)" % (a, w)
        elif kind == 1:
            t, p = "%s * %s" % (a, c), "%s * %s" % (a, c)
        elif kind == 2:
            t, p = "%s + %s * b" % (a, c), "%s + %s * b" % (a, c)
        elif kind == 3:
            t, p = "%s - tanh(%s)" % (a, c), "%s - jnp.tanh(%s)" % (a, c)
        elif kind == 4:
            t, p = "sin(%s) * 0.5" % a, "jnp.sin(%s) * 0.5" % a
        elif kind == 5:
            t = "exp(tanh(%s)) / 2.0" % a
            p = "jnp.exp(jnp.tanh(%s)) / 2.0" % a
        elif kind == 6:
            t = "softmax(%s, 1) + %s" % (a, c)
            p = "jax.nn.softmax(%s, axis=1) + %s" % (a, c)
        else:
            t = "relu(%s) - %s" % (a, c)
            p = "jnp.maximum(%s, 0.0) - %s" % (a, c)
        name = "v%d" % len(vals)
        tape.append("%s = %s" % (name, t))
        py.append("    %s = %s" % (name, p))
        vals.append(name)
    tape.append("loss = sum(%s * %s)" % (vals[-1], vals[-1]))
    py.append("    return jnp.sum(%s * %s)" % (vals[-1], vals[-1]))
    return "\n".join(tape) + "\n", "\n".join(py) + "\n"


def jax_times(py_file, reps):
    """Runs in the venv: median CPU seconds (all of the process's threads)
    and median wall seconds of jit(value_and_grad).lower().as_text() over
    reps fresh functions, after one warm-up."""
    import numpy as np
    import jax

    src = pathlib.Path(py_file).read_text()
    params = {"w%d" % k: np.full((8, 8), 0.1, np.float32) for k in range(10)}
    params["b"] = np.float32(0.5)
    inputs = {"x": np.full((4, 8), 0.2, np.float32)}
    cpu, wall = [], []
    size = 0
    for rep in range(reps + 1):
        ns = {}
        exec(compile(src, py_file, "exec"), ns)
        c0, t0 = time.process_time(), time.perf_counter()
        text = jax.jit(jax.value_and_grad(ns["f"])).lower(params,
                                                          inputs).as_text()
        c1, t1 = time.process_time(), time.perf_counter()
        size = len(text)
        if rep > 0:
            cpu.append(c1 - c0)
            wall.append(t1 - t0)
    return statistics.median(cpu), statistics.median(wall), size


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bench")
    p.add_argument("--venv", default=str(ROOT / "build" / "tests" / "hlo"
                                          / "venv"))
    p.add_argument("--samples", default=str(ROOT / "resources" / "samples"))
    p.add_argument("--lines", type=int, default=1000)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--jax-only")
    opts = p.parse_args()
    if opts.jax_only:
        cpu, wall, size = jax_times(opts.jax_only, opts.reps)
        print("%.6f\t%.6f\t%d" % (cpu, wall, size))
        return 0

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-compile-"))
    tape, py = generate(opts.lines)
    big = tmp / ("generated-%d-lines.tape" % opts.lines)
    big.write_text(tape)
    (tmp / "generated.py").write_text(py)
    samples = sorted(str(s) for s in pathlib.Path(opts.samples).glob("*.tape"))

    out = subprocess.run([opts.bench, "--tsv"] + samples + [str(big)],
                         capture_output=True, text=True, check=True).stdout
    rows = [line.split("\t") for line in out.splitlines()]
    print("engine, median CPU microseconds (one thread):")
    print("%-28s %6s %6s %8s %8s %8s %8s %9s %9s" % (
        "program", "spec", "nodes", "parse", "diff", "plan", "emit",
        "d+p+e", "readings"))
    for row in rows:
        print("%-28s %6s %6s %8.1f %8.1f %8.1f %8.1f %9.1f %9.1f" % (
            row[0], row[1], row[2], *[float(x) for x in row[3:]]))
    ours = float(rows[-1][7]) * 1e-6
    ours_all = float(rows[-1][8]) * 1e-6

    sys.path.insert(0, str(ROOT / "tests" / "hlo"))
    from roundtrip import ensure_venv
    python = ensure_venv(opts.venv)
    env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="2")
    res = subprocess.run([str(python), __file__, "--jax-only",
                          str(tmp / "generated.py"), "--reps",
                          str(opts.reps)], capture_output=True, text=True,
                         env=env, check=True).stdout.split()
    theirs, wall, size = float(res[0]), float(res[1]), int(res[2])
    print()
    print("the generated %d-line program, gradient + StableHLO text "
          "(CPU time):" % opts.lines)
    print("  engine differentiate + plan + emit      %10.3f ms"
          % (ours * 1e3))
    print("  engine, all six readings                %10.3f ms"
          % (ours_all * 1e3))
    print("  jax jit(value_and_grad).lower().as_text() %8.3f ms "
          "(wall %.3f ms, %d characters)" % (theirs * 1e3, wall * 1e3, size))
    print("  ratio jax / engine (d+p+e)              %10.1fx"
          % (theirs / ours))
    print("  ratio jax / engine (all readings)       %10.1fx"
          % (theirs / ours_all))
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
