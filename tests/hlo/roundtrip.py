#!/usr/bin/env python3
"""The StableHLO round trip: every module topos emits means what its
interpreter computes.

For every program (the golden programs with their options, the generated
corpus in corpus.py, and the tape-API cases printed by hlo-extra; the
golden programs and the samples also with --optimize, --remat auto and
both, whose modules are the rewritten and rematerialised ones), this
runs `topos --json`, parses the `stablehlo` reading with jax's MLIR and
StableHLO bindings, executes it with the StableHLO reference interpreter
and with XLA on the CPU, feeding the `arguments` values, and compares every
result element with `results`: within 1e-4 relative or 1e-5 absolute
(near zero); equal infinities and NaN against NaN also pass.  It prints a
TAP stream, the worst error, and on a failure the module and the first
differing element.

The jax toolchain lives in a virtual environment that this script creates
inside the build directory (--venv) from requirements.txt (exact pins) and
reuses while the requirements are unchanged.

Usage: roundtrip.py --venv DIR --topos EXE --golden DIR [--extra EXE]
                    [--only NAME]"""
import argparse
import hashlib
import json
import os
import pathlib
import shlex
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
REQUIREMENTS = HERE / "requirements.txt"
REL_TOL = 1e-4
ABS_TOL = 1e-5


def ensure_venv(venv):
    """Creates venv (once) and installs the pinned requirements (again only
    when requirements.txt changes).  Returns the venv's python."""
    import fcntl

    venv = pathlib.Path(venv)
    python = venv / "bin" / "python"
    stamp = venv / "requirements.sha256"
    want = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(str(venv) + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if python.exists() and stamp.exists() and stamp.read_text() == want:
            return python
        print("# preparing %s (first run, or requirements changed)" % venv,
              flush=True)
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)],
                           check=True)
        run = subprocess.run(
            [str(python), "-m", "pip", "install", "--disable-pip-version-check",
             "--no-input", "-q", "-r", str(REQUIREMENTS)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if run.returncode != 0:
            for line in run.stdout.decode("utf-8", "replace").splitlines():
                print("# " + line)
            raise SystemExit("Bail out! pip could not install %s"
                             % REQUIREMENTS)
        stamp.write_text(want)
    return python


# The passes' variants of the golden programs and the samples: the module
# XLA runs is then the optimised one, or the one that recomputes.
PASSES = (["--optimize"], ["--remat", "auto"], ["--optimize", "--remat", "auto"])


def samples():
    """(name, source, options) for each sample, as its manifest reads it."""
    import xml.etree.ElementTree as ET

    root = HERE.parent.parent / "resources" / "samples"
    out = []
    for sample in ET.parse(str(root / "samples.xml")).getroot().iter("sample"):
        opts = []
        if sample.get("target"):
            opts += ["--target", sample.get("target")]
        for name in (sample.get("observe") or "").split():
            opts += ["--observe", name]
        text = (root / (sample.get("id") + ".tape")).read_text()
        out.append(("sample/" + sample.get("id"), text, opts))
    return out


def cases(golden, extra):
    """(name, source, options) for the golden programs and the corpus, the
    passes' variants, and the already-emitted cases from the extra
    program."""
    sys.path.insert(0, str(HERE))
    import corpus

    out = []
    for tape in sorted(pathlib.Path(golden).glob("*.tape")):
        args_file = tape.with_suffix(".args")
        opts = shlex.split(args_file.read_text()) if args_file.exists() else []
        out.append(("golden/" + tape.stem, tape.read_text(), opts))
    for name, src, opts in out + samples():
        for variant in PASSES:
            out.append(("%s %s" % (name, " ".join(variant)), src,
                        opts + variant))
    # A residual chain whose named layers are recomputed for the gradient.
    chain = "x = input [4, 8]\nh0 = x\n" + "".join(
        "w%d = parameter [8, 8]\nh%d = tanh(h%d @ w%d) + h%d\n"
        % (k, k, k - 1, k, k - 1) for k in range(1, 5)) + \
        "loss = sum(h4 * h4)\n"
    for variant in ([], ["--remat", "h1,h2"], ["--optimize", "--remat", "auto"]):
        out.append(("chain %s" % " ".join(variant), chain, variant))
    for name, src, opts in corpus.corpus():
        out.append(("corpus/" + name, src, opts))
    emitted = []
    if extra:
        run = subprocess.run([extra], capture_output=True, check=True)
        for line in run.stdout.decode().splitlines():
            if line.strip():
                emitted.append(json.loads(line))
    return out, emitted


def tensor(np, value):
    if value.get("data") is None:
        raise ValueError("a tensor was elided from the JSON")
    data = [float(x) if not isinstance(x, str) else
            {"inf": float("inf"), "-inf": float("-inf"),
             "NaN": float("nan")}[x] for x in value["data"]]
    return np.array(data, dtype=np.float32).reshape(value["shape"])


def compare(np, got, want):
    """(worst tolerance ratio, worst index, abs error, rel error, first
    failing index or None).  A ratio above 1 fails."""
    got = np.asarray(got, dtype=np.float32)
    if got.shape != want.shape:
        return float("inf"), (), float("inf"), float("inf"), ()
    g = got.astype(np.float64).ravel()
    w = want.astype(np.float64).ravel()
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    with np.errstate(invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(g - w))
    diff = np.where(np.isnan(diff), np.inf, diff)
    tol = np.maximum(REL_TOL * np.nan_to_num(np.abs(w)), ABS_TOL)
    ratio = diff / tol
    k = int(np.argmax(ratio)) if ratio.size else 0
    bad = np.nonzero(ratio > 1.0)[0]
    idx = lambda flat: tuple(int(i) for i in np.unravel_index(flat, want.shape))
    rel = diff[k] / abs(w[k]) if w[k] != 0 else (0.0 if diff[k] == 0
                                                  else float("inf"))
    return (float(ratio[k]), idx(k), float(diff[k]), float(rel),
            idx(int(bad[0])) if bad.size else None)


def inner(opts):
    import numpy as np
    from jaxlib.mlir import ir
    import jaxlib.mlir.dialects.stablehlo as stablehlo
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib import _jax
    from jax.extend import backend as jax_backend
    import jax

    cpu = jax_backend.get_backend("cpu")
    device = cpu.local_devices()[0]
    devices = _jax.DeviceList((device,))

    progs, emitted = cases(opts.golden, opts.extra)
    work = []
    for name, src, o in progs:
        if opts.only and name != opts.only:
            continue
        cmd = [opts.topos, "--json"] + o + ["-"]
        run = subprocess.run(cmd, input=src.encode(), capture_output=True)
        if run.returncode != 0:
            work.append((name, None, "topos refused it: %s"
                         % run.stderr.decode().strip()))
            continue
        work.append((name, json.loads(run.stdout), None))
    for e in emitted:
        if not opts.only or e["name"] == opts.only:
            work.append(("extra/" + e["name"], e, None))

    print("1..%d" % len(work), flush=True)
    worst = (0.0, None)
    worst_by = {"interpreter": (0.0, None), "xla": (0.0, None)}
    failed = 0
    t0 = time.time()
    for n, (name, d, error) in enumerate(work, 1):
        module_text = d["stablehlo"] if d else ""
        lines = []
        case_worst = (0.0, None)
        try:
            if error:
                raise RuntimeError(error)
            args = [tensor(np, a["value"]) for a in d["arguments"]]
            want = [tensor(np, r["value"]) for r in d["results"]]
            with jax_mlir.make_ir_context():
                module = ir.Module.parse(module_text)
                if not module.operation.verify():
                    raise RuntimeError("the module does not verify")
                main = module.body.operations[0]
                ftype = ir.FunctionType(
                    ir.TypeAttr(main.attributes["function_type"]).value)
                if len(ftype.inputs) != len(args) or \
                        len(ftype.results) != len(want):
                    raise RuntimeError(
                        "the module takes %d arguments and gives %d results; "
                        "the JSON has %d and %d" % (
                            len(ftype.inputs), len(ftype.results), len(args),
                            len(want)))
                interp = stablehlo.eval_module(
                    module, [ir.DenseElementsAttr.get(a) for a in args])
                interp = [np.array(x) for x in interp]
            exe = cpu.compile_and_load(module_text, devices,
                                       _jax.CompileOptions())
            xla = exe.execute([jax.device_put(a, device) for a in args])
            xla = [np.asarray(x) for x in xla]
            for how, got in (("interpreter", interp), ("xla", xla)):
                if len(got) != len(want):
                    raise RuntimeError("%s gave %d results, wanted %d"
                                       % (how, len(got), len(want)))
                for k, (g, w) in enumerate(zip(got, want)):
                    ratio, at, abs_err, rel_err, bad = compare(np, g, w)
                    where = "%s result %d (node %d) at %s" % (
                        how, k, d["results"][k]["node"], list(at))
                    text = "%s: abs %.3g rel %.3g" % (where, abs_err, rel_err)
                    if ratio > case_worst[0] or case_worst[1] is None:
                        case_worst = (ratio, text)
                    if ratio >= worst_by[how][0]:
                        worst_by[how] = (ratio, "%s %s" % (name, text))
                    if bad is not None:
                        g = np.asarray(g)
                        gv = float(g[bad]) if g.shape == w.shape else \
                            "a tensor of shape %s" % (g.shape,)
                        raise RuntimeError(
                            "%s result %d (node %d): first difference at %s: "
                            "got %r, want %r" % (
                                how, k, d["results"][k]["node"], list(bad),
                                gv, float(w[bad])))
        except Exception as exc:  # noqa: BLE001 - report and go on
            failed += 1
            print("not ok %d - %s" % (n, name))
            lines.append(str(exc))
            if d:
                lines.append("module:")
                lines.extend(module_text.splitlines())
            for line in lines:
                print("# " + line)
            continue
        if case_worst[0] >= worst[0]:
            worst = (case_worst[0], "%s %s" % (name, case_worst[1]))
        print("ok %d - %s (worst %.3g of tolerance)" % (n, name,
                                                        case_worst[0]))
    print("# worst error: %.3g of the tolerance, %s" % worst)
    for how, (ratio, text) in worst_by.items():
        print("# worst %s error: %.3g of the tolerance, %s" % (how, ratio,
                                                               text))
    print("# %d modules in %.1f s" % (len(work), time.time() - t0))
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--venv")
    p.add_argument("--topos", required=True)
    p.add_argument("--golden", required=True)
    p.add_argument("--extra")
    p.add_argument("--only")
    p.add_argument("--inner", action="store_true")
    opts = p.parse_args()
    if opts.inner:
        return inner(opts)
    python = ensure_venv(opts.venv)
    argv = [str(python), __file__, "--inner"]
    for key in ("topos", "golden", "extra", "only"):
        if getattr(opts, key):
            argv += ["--" + key, getattr(opts, key)]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", JAX_PLATFORMS="cpu")
    return subprocess.run(argv, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
