#!/usr/bin/env python3
"""The desktop app's message template: po/POTFILES.in names every file
that has marked messages (C strings in _(), N_(), C_() or NC_(); GtkBuilder
properties with translatable="yes"; the .desktop and metainfo files), and
xgettext, with the keywords of meson's glib preset, builds a template in
which each of those files has messages, the .desktop file's name and the
metainfo's summary among them.
Usage: check-pot.py SOURCE_ROOT.  Prints a TAP stream."""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

KEYWORDS = ["--keyword=_", "--keyword=N_", "--keyword=C_:1c,2",
            "--keyword=NC_:1c,2", "--keyword=g_dngettext:2,3",
            "--keyword=g_dpgettext2:2c,3"]
MARK = re.compile(r'\b(?:N?C?_)\s*\(\s*"|translatable="yes"')

results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def main():
    root = pathlib.Path(sys.argv[1])
    potfiles = root / "po" / "POTFILES.in"
    listed = [l.strip() for l in potfiles.read_text().splitlines()
              if l.strip() and not l.startswith("#")]
    missing = [f for f in listed if not (root / f).is_file()]
    check("every file in po/POTFILES.in exists", not missing,
          "missing: " + ", ".join(missing))

    marked = sorted(str(p.relative_to(root))
                    for d in ("ui", "resources", "app")
                    for p in (root / d).rglob("*")
                    if p.suffix in (".c", ".ui") and p.is_file()
                    and MARK.search(p.read_text(errors="replace")))
    unlisted = [f for f in marked if f not in listed]
    check("every file with marked messages is in po/POTFILES.in",
          not unlisted and marked, "not listed: " + ", ".join(unlisted))

    with tempfile.TemporaryDirectory() as tmp:
        pot = pathlib.Path(tmp) / "topos-playground.pot"
        run = subprocess.run(
            ["xgettext", "--from-code=UTF-8", "--add-comments",
             *KEYWORDS, "--package-name=topos-playground",
             "--directory", str(root), "--files-from", str(potfiles),
             "--output", str(pot)], capture_output=True, text=True,
            env=dict(os.environ, GETTEXTDATADIRS=str(root / "po")))
        check("xgettext builds the template", run.returncode == 0
              and pot.is_file(), run.stderr)
        text = pot.read_text() if pot.is_file() else ""
    msgids = re.findall(r'^msgid "(.*)"$', text, re.M)
    refs = set(re.findall(r"^#: (.*)$", text, re.M))
    referenced = {r.rsplit(":", 1)[0] for line in refs for r in line.split()}
    check("the template has messages", len(msgids) > 10,
          "%d messages" % len(msgids))
    check("the .desktop file's name is translatable",
          "Topos Playground" in msgids)
    check("the metainfo's summary is translatable",
          "Read a tensor program six ways, live" in msgids)
    titles = re.findall(r"<title>([^<]*)</title>",
                        (root / "resources/samples/samples.xml").read_text())
    check("every sample title is translatable (po/its/samples.its)",
          titles and all(t in msgids for t in titles),
          "missing: " + ", ".join(t for t in titles if t not in msgids))
    silent = [f for f in listed if f not in referenced
              and f in marked + [l for l in listed if not l.endswith((".c", ".ui"))]]
    check("every listed file with marks gives the template messages",
          not silent, "no messages from: " + ", ".join(silent))

    print("1..%d" % len(results))
    for i, (name, ok, detail) in enumerate(results, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", i, name))
        if detail and not ok:
            print("# " + detail)
    print("# %d messages from %d files" % (len(msgids), len(referenced)))
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
