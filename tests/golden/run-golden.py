#!/usr/bin/env python3
"""Golden readings: for every NAME.tape here and every NAME.READING file
beside it, `topos --reading READING [args from NAME.args] NAME.tape` must
print exactly the file's text.  Usage: run-golden.py TOPOS GOLDEN_DIR.
Prints a TAP stream.  Golden files are reviewed by hand; never regenerate
them to make this pass."""
import difflib
import pathlib
import shlex
import subprocess
import sys

READINGS = ["spec", "derivative", "plan", "stablehlo", "values", "dot",
            "summary", "check", "explain", "memory", "optimized", "fusion",
            "forward", "jax"]


def main():
    topos, root = sys.argv[1], pathlib.Path(sys.argv[2])
    cases = []
    for tape in sorted(root.glob("*.tape")):
        args_file = tape.with_suffix(".args")
        args = shlex.split(args_file.read_text()) if args_file.exists() else []
        for reading in READINGS:
            expect = tape.with_suffix("." + reading)
            if expect.exists():
                cases.append((tape, args, reading, expect))
    print("1..%d" % len(cases))
    failed = 0
    for n, (tape, args, reading, expect) in enumerate(cases, 1):
        cmd = [topos, "--reading", reading] + args + [str(tape)]
        run = subprocess.run(cmd, capture_output=True)
        got = run.stdout.decode("utf-8", "replace")
        want = expect.read_text()
        name = "%s %s" % (tape.name, reading)
        if run.returncode == 0 and got == want:
            print("ok %d - %s" % (n, name))
            continue
        failed += 1
        print("not ok %d - %s (exit %d)" % (n, name, run.returncode))
        for line in run.stderr.decode("utf-8", "replace").splitlines():
            print("# " + line)
        for line in difflib.unified_diff(want.splitlines(), got.splitlines(),
                                         "expected", "got", lineterm=""):
            print("# " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
