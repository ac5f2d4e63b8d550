#!/usr/bin/env python3
"""The passes change no value: for every sample (with its manifest's target
and observe), every golden program (with its .args) and a generated corpus
(tests/fuzz/gen-programs.py), `topos --optimize`, `--remat auto`, `--remat
NAME` (the first, the last and every candidate the plain run names) and
`--optimize --remat auto` must give the same values reading, the same
gradients, tensors and every node's value (the JSON's values, gradients,
tensors and nodes members, where -0 and 0 differ) as the plain run.
Prints a TAP stream.

Usage: check-passes.py TOPOS SOURCE_ROOT [COUNT]"""
import json
import pathlib
import shlex
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

MEMBERS = "values,gradients,tensors,nodes,names,remat"
COMPARED = ("values", "gradients", "tensors", "nodes")


def programs(root, count):
    """(name, source, options)."""
    out = []
    manifest = ET.parse(str(root / "resources/samples/samples.xml"))
    for sample in manifest.getroot().iter("sample"):
        opts = []
        if sample.get("target"):
            opts += ["--target", sample.get("target")]
        for name in (sample.get("observe") or "").split():
            opts += ["--observe", name]
        path = root / "resources/samples" / (sample.get("id") + ".tape")
        out.append(("sample/" + sample.get("id"), path.read_text(), opts))
    for tape in sorted((root / "tests/golden").glob("*.tape")):
        args = tape.with_suffix(".args")
        opts = shlex.split(args.read_text()) if args.exists() else []
        out.append(("golden/" + tape.stem, tape.read_text(), opts))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(root / "tests/fuzz/gen-programs.py"),
                        tmp, str(count), "11"], check=True)
        for path in sorted(pathlib.Path(tmp).iterdir()):
            text = path.read_bytes().decode("utf-8", "replace")
            out.append(("generated/" + path.name, text, []))
    return out


def run(topos, source, opts):
    proc = subprocess.run([topos, "--json=" + MEMBERS] + opts + ["-"],
                          input=source.encode(), capture_output=True)
    if proc.returncode != 0:
        return proc.returncode, None
    return 0, json.loads(proc.stdout)


def main():
    topos, root = sys.argv[1], pathlib.Path(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    cases = programs(root, count)
    results = []
    for name, source, opts in cases:
        rc, plain = run(topos, source, opts)
        if plain is None:
            continue
        node_names = {}
        for entry in plain["names"]:
            node_names.setdefault(entry["node"], entry["name"])
        named = [node_names[n] for n in plain["remat"]["candidates"]
                 if n in node_names]
        variants = [["--optimize"], ["--remat", "auto"],
                    ["--optimize", "--remat", "auto"]]
        if named:
            variants.append(["--remat", named[0]])
            variants.append(["--remat", ",".join(named)])
            variants.append(["--optimize", "--remat", named[-1]])
        for v in variants:
            rc, got = run(topos, source, opts + v)
            why = None
            if got is None:
                why = "exit %d" % rc
            else:
                for member in COMPARED:
                    if got.get(member) != plain.get(member):
                        why = "%s differs" % member
                        break
            results.append(("%s %s" % (name, " ".join(v)), why))
    print("1..%d" % len(results))
    failed = 0
    for n, (what, why) in enumerate(results, 1):
        if why is None:
            print("ok %d - %s" % (n, what))
        else:
            failed += 1
            print("not ok %d - %s: %s" % (n, what, why))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
