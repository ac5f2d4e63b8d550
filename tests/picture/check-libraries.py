#!/usr/bin/env python3
"""What the command line loads.  A run that only prints readings (--json,
--reading, --all) maps no graphviz, cairo, pango, X11 or GLib library; the
picture export (--svg, --png) loads them through its module, which proves
the check below sees them when they are there; and a command line whose
module is missing still prints readings, and says plainly that it cannot
export.  The libraries are read from the dynamic loader (LD_DEBUG=libs).
Usage: check-libraries.py TOPOS SAMPLE.  Prints a TAP stream."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HEAVY = re.compile(r"lib(gvc|cgraph|cdt|pathplan|cairo|pango|harfbuzz|X11|xcb|"
                   r"glib|gobject|gio|gdk|gtk|freetype|fontconfig|png|pixman)")

results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def loaded(argv):
    """The libraries the dynamic loader initialised for argv, and the run."""
    env = dict(os.environ, LD_DEBUG="libs")
    run = subprocess.run(argv, capture_output=True, env=env)
    libs = sorted(set(re.findall(r"calling init: (\S+)",
                                 run.stderr.decode("utf-8", "replace"))))
    return libs, run


def main():
    topos, sample = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        for args in (["--json"], ["--reading", "spec"], ["--all"],
                     ["--reading", "dot"]):
            libs, run = loaded([topos, *args, sample])
            heavy = [l for l in libs if HEAVY.search(os.path.basename(l))]
            check("topos %s reads (exit 0, output)" % " ".join(args),
                  run.returncode == 0 and len(run.stdout) > 0,
                  run.stderr.decode()[-500:])
            check("topos %s loads no graphviz, cairo, X11 or GLib library"
                  % " ".join(args), not heavy and len(libs) > 0,
                  "loaded: %s" % ", ".join(libs))
            # Nor anything else but the C library (and the loader): a
            # readings-only run starts like a plain C program.
            extra = [l for l in libs if not re.match(
                r"lib(c|dl|pthread)\.so|ld-linux", os.path.basename(l))]
            check("topos %s loads the C library alone" % " ".join(args),
                  not extra, "also loaded: %s" % ", ".join(extra))

        svg = os.path.join(tmp, "out.svg")
        libs, run = loaded([topos, "--svg", svg, sample])
        names = " ".join(os.path.basename(l) for l in libs)
        check("topos --svg writes the picture", run.returncode == 0
              and os.path.getsize(svg) > 0, run.stderr.decode()[-500:])
        check("topos --svg loads graphviz and cairo (the check sees them)",
              "libgvc" in names and "libcairo" in names, "loaded: " + names)

        # The command line alone, without its module beside it.
        alone = os.path.join(tmp, "alone")
        os.mkdir(alone)
        shutil.copy(topos, alone)
        lone = os.path.join(alone, os.path.basename(topos))
        run = subprocess.run([lone, "--json", sample], capture_output=True)
        check("without its export module, topos --json still reads",
              run.returncode == 0 and run.stdout.startswith(b"{"))
        run = subprocess.run([lone, "--png", os.path.join(tmp, "x.png"),
                              sample], capture_output=True)
        err = run.stderr.decode("utf-8", "replace")
        check("without its export module, --png fails with a plain message",
              run.returncode == 1
              and "the picture export could not be loaded" in err
              and not os.path.exists(os.path.join(tmp, "x.png")), err)

    print("1..%d" % len(results))
    for i, (name, ok, detail) in enumerate(results, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", i, name))
        if not ok and detail:
            for line in detail.splitlines():
                print("# " + line)
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
