#!/usr/bin/env python3
"""Our fusion beside XLA's: for every sample (its manifest's target and
observe), the kernels of the fusion reading (those that compute, and those
of several nodes) and, from the module XLA's CPU compiler optimises, its
fusion instructions and the other instructions of its entry computation
that compute (a dot, a reduce, a custom call: not a parameter, constant,
tuple, bitcast or copy).  Prints a Markdown table (docs/language.md,
fusion, keeps one); asserts nothing.

Usage: PYTHON fusion-xla.py TOPOS SOURCE_ROOT [--optimize]
where PYTHON has jax (the round trip's environment, tests/hlo/venv in the
build directory)."""
import json
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

FREE = {"parameter", "constant", "tuple", "bitcast", "copy",
        "get-tuple-element"}


def entry_ops(hlo):
    """The opcodes of the ENTRY computation's instructions."""
    ops = []
    inside = False
    for line in hlo.splitlines():
        if line.startswith("ENTRY"):
            inside = True
            continue
        if inside and line.startswith("}"):
            break
        if inside:
            m = re.match(r"\s*(?:ROOT )?%\S+ = \S+(?: \S+)*? ([a-z\-]+)\(", line)
            m = m or re.search(r"= (?:\([^)]*\)|\S+) ([a-z\-]+)\(", line)
            if m:
                ops.append(m.group(1))
    return ops


def main():
    from jax._src.lib import _jax
    from jax.extend import backend as jax_backend

    topos, root = sys.argv[1], pathlib.Path(sys.argv[2])
    extra = sys.argv[3:]
    cpu = jax_backend.get_backend("cpu")
    devices = _jax.DeviceList((cpu.local_devices()[0],))
    manifest = ET.parse(str(root / "resources/samples/samples.xml"))
    print("| sample | steps | our kernels (computing) | ours of several nodes "
          "| bytes fused / unfused | XLA fusions | XLA other computing ops |")
    print("|---|---|---|---|---|---|---|")
    for sample in manifest.getroot().iter("sample"):
        opts = list(extra)
        if sample.get("target"):
            opts += ["--target", sample.get("target")]
        for name in (sample.get("observe") or "").split():
            opts += ["--observe", name]
        path = root / "resources/samples" / (sample.get("id") + ".tape")
        run = subprocess.run([topos, "--json=stablehlo,fusion,memory"] + opts
                             + [str(path)], capture_output=True, check=True)
        d = json.loads(run.stdout)
        f = d["fusion"]
        computing = [k for k in f["kernels"] if k["kind"] != "argument"]
        several = [k for k in computing if len(k["nodes"]) > 1]
        exe = cpu.compile_and_load(d["stablehlo"], devices,
                                   _jax.CompileOptions())
        ops = entry_ops(exe.hlo_modules()[0].to_string())
        fusions = sum(1 for op in ops if op == "fusion")
        other = [op for op in ops if op != "fusion" and op not in FREE]
        print("| %s | %d | %d | %d | %d / %d | %d | %d%s |" % (
            sample.get("id"), len(d["memory"]["steps"]), len(computing),
            len(several), f["bytes_fused"], f["bytes_unfused"], fusions,
            len(other), " (" + ", ".join(sorted(set(other))) + ")"
            if other else ""))


if __name__ == "__main__":
    main()
