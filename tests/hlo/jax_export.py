#!/usr/bin/env python3
"""The jax reading runs and computes what the engine computes.

For every sample, every golden program (with its options), the StableHLO
round trip's corpus (corpus.py) and programs of the fuzzer's generator
(tests/fuzz/gen-programs.py) that read, this takes `topos --reading jax`'s
Python program, runs it with the jax the project pins for the round trip
(requirements.txt, the same virtual environment), and compares its last
line's JSON with the engine's JSON:

- every named statement's value ("values" against "tensors"): a source's
  value bit for bit (the program writes the engine's own f32 values), any
  other within the tolerance;
- every parameter's gradient (jax.grad against "gradients");
- the directional derivative (jax.jvp along the forward reading's
  direction against forward.tangent).

The tolerance, per element: |jax - topos| <= max(1e-4 |topos|, 1e-5 *
max(1, the largest |element| of the tensor)); equal infinities and NaN
against NaN pass.  XLA's exp, log and tanh are not the engine's (D6) and
its sums and dot products may add in another order, so the values differ
in the last bits; the gradients differ more where a program cancels large
terms, which the scale of the tensor covers.  The program's relu and
maximum are the language's (D4: a tie keeps the left operand), so a relu
at exactly 0 has the engine's gradient 1 in jax too.

Usage: jax_export.py --venv DIR --topos EXE --golden DIR --samples DIR
                     --gen GEN_PROGRAMS.py [--only NAME]"""
import argparse
import io
import json
import os
import pathlib
import shlex
import struct
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout

HERE = pathlib.Path(__file__).resolve().parent
REL_TOL = 1e-4
ABS_TOL = 1e-5
SOURCES = {"Parameter", "Input", "Leaf"}
GENERATED = 80          # programs of gen-programs.py, seed 7


def cases(opts):
    sys.path.insert(0, str(HERE))
    import corpus

    out = []
    for tape in sorted(pathlib.Path(opts.samples).glob("*.tape")):
        out.append(("samples/" + tape.stem, tape.read_text(), []))
    for tape in sorted(pathlib.Path(opts.golden).glob("*.tape")):
        args_file = tape.with_suffix(".args")
        args = shlex.split(args_file.read_text()) if args_file.exists() else []
        out.append(("golden/" + tape.stem, tape.read_text(), args))
    for name, src, o in corpus.corpus():
        out.append(("corpus/" + name, src, o))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, opts.gen, tmp, str(GENERATED), "7"],
                       check=True, capture_output=True)
        for f in sorted(pathlib.Path(tmp).iterdir()):
            out.append(("generated/" + f.stem,
                        f.read_bytes().decode("utf-8", "replace"), []))
    return out


def flat(value):
    """A JSON tensor or nested list as (shape, [floats])."""
    if isinstance(value, dict):
        if value.get("data") is None:
            raise RuntimeError("a tensor was elided from the JSON")
        data = value["data"]
        shape = value["shape"]
    else:
        shape, data = [], value
        probe = value
        while isinstance(probe, list):
            shape.append(len(probe))
            probe = probe[0] if probe else None
        def walk(v):
            if isinstance(v, list):
                for x in v:
                    yield from walk(x)
            else:
                yield v
        data = list(walk(value)) if isinstance(value, list) else [value]
    num = {"NaN": float("nan"), "inf": float("inf"), "-inf": float("-inf")}
    return list(shape), [num[x] if isinstance(x, str) else f32(float(x))
                         for x in data]


def f32(x):
    """x rounded to f32: the engine's numbers are f32 written shortest."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def compare(got, want, exact):
    """(worst ratio to the tolerance, the first failing element or None)."""
    import math
    gs, g = flat(got)
    ws, w = flat(want)
    if gs != ws:
        return math.inf, "shape %s, wanted %s" % (gs, ws)
    finite = [abs(x) for x in w if math.isfinite(x)]
    scale = max([1.0] + finite)
    worst, bad = 0.0, None
    for k, (a, b) in enumerate(zip(g, w)):
        if a == b or (math.isnan(a) and math.isnan(b)):
            continue
        if exact or not (math.isfinite(a) and math.isfinite(b)):
            return math.inf, "element %d: %r, wanted %r" % (k, a, b)
        tol = max(REL_TOL * abs(b), ABS_TOL * scale)
        ratio = abs(a - b) / tol
        if ratio > worst:
            worst = ratio
        if ratio > 1 and bad is None:
            bad = "element %d: %r, wanted %r (%.3g of the tolerance)" % (
                k, a, b, ratio)
    return worst, bad


def run_program(text, name):
    """Runs the jax program; its last line's JSON."""
    out = io.StringIO()
    with redirect_stdout(out):
        exec(compile(text, name, "exec"), {"__name__": "__main__"})
    lines = out.getvalue().strip().splitlines()
    return json.loads(lines[-1])


def check(topos, name, src, options):
    """None when topos refuses the program, else (worst ratio, facts)."""
    members = "names,tensors,gradients,nodes,forward,jax"
    run = subprocess.run([topos, "--json=" + members] + options + ["-"],
                         input=src.encode("utf-8"), capture_output=True)
    if run.returncode == 1:
        return None
    if run.returncode != 0:
        raise RuntimeError("topos failed: %s" % run.stderr.decode())
    d = json.loads(run.stdout)
    got = run_program(d["jax"], name)
    ops = {n["node"]: n["op"] for n in d["nodes"]}
    last = {}
    for n in d["names"]:
        last[n["name"]] = n["node"]
    worst, where = 0.0, ""
    checked = []
    if set(got["values"]) != set(d["tensors"]):
        raise RuntimeError("values for %s, wanted %s" % (
            sorted(got["values"]), sorted(d["tensors"])))
    for key, want in d["tensors"].items():
        exact = ops[last[key]] in SOURCES
        ratio, bad = compare(got["values"][key], want, exact)
        if bad is not None:
            raise RuntimeError("value of %s: %s" % (key, bad))
        if ratio > worst:
            worst, where = ratio, "value of " + key
    checked.append("%d values" % len(d["tensors"]))
    if "gradients" in d:
        if set(got.get("gradients", {})) != set(d["gradients"]):
            raise RuntimeError("gradients for %s, wanted %s" % (
                sorted(got.get("gradients", {})), sorted(d["gradients"])))
        for key, want in d["gradients"].items():
            ratio, bad = compare(got["gradients"][key], want, False)
            if bad is not None:
                raise RuntimeError("gradient of %s: %s" % (key, bad))
            if ratio > worst:
                worst, where = ratio, "gradient of " + key
        checked.append("%d gradients" % len(d["gradients"]))
    elif "gradients" in got:
        raise RuntimeError("jax has gradients, the engine none")
    fwd = d["forward"]
    if fwd is not None and fwd["tangent"] is not None:
        ratio, bad = compare(got["jvp"], fwd["tangent"], False)
        if bad is not None:
            raise RuntimeError("jvp: %s" % bad)
        if ratio > worst:
            worst, where = ratio, "jvp"
        checked.append("the jvp")
    elif "jvp" in got and fwd is not None:
        raise RuntimeError("jax has a jvp, the engine no tangent")
    return worst, where, ", ".join(checked)


def inner(opts):
    import jax  # noqa: F401 - imported once for every program

    work = [c for c in cases(opts) if not opts.only or c[0] == opts.only]
    results = []
    refused = 0
    t0 = time.time()
    for name, src, o in work:
        try:
            r = check(opts.topos, name, src, o)
        except Exception as exc:  # noqa: BLE001 - report and go on
            results.append((name, None, str(exc)))
            continue
        if r is None:
            refused += 1
            continue
        results.append((name, r, None))
    print("1..%d" % len(results), flush=True)
    failed = 0
    worst = (0.0, "")
    for n, (name, r, error) in enumerate(results, 1):
        if error is not None:
            failed += 1
            print("not ok %d - %s" % (n, name))
            for line in error.splitlines():
                print("# " + line)
            continue
        ratio, where, checked = r
        if ratio >= worst[0]:
            worst = (ratio, "%s, %s" % (name, where))
        print("ok %d - %s (%s; worst %.3g of the tolerance)"
              % (n, name, checked, ratio))
    print("# worst: %.3g of the tolerance, %s" % worst)
    print("# %d programs topos refuses (generated ones) are not cases"
          % refused)
    print("# %d programs in %.1f s" % (len(results), time.time() - t0))
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--venv")
    p.add_argument("--topos", required=True)
    p.add_argument("--golden", required=True)
    p.add_argument("--samples", required=True)
    p.add_argument("--gen", required=True)
    p.add_argument("--only")
    p.add_argument("--inner", action="store_true")
    opts = p.parse_args()
    if opts.inner:
        return inner(opts)
    sys.path.insert(0, str(HERE))
    import roundtrip
    python = roundtrip.ensure_venv(opts.venv)
    argv = [str(python), __file__, "--inner"]
    for key in ("topos", "golden", "samples", "gen", "only"):
        if getattr(opts, key):
            argv += ["--" + key, getattr(opts, key)]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", JAX_PLATFORMS="cpu")
    return subprocess.run(argv, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
