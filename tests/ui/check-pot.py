#!/usr/bin/env python3
"""The desktop app's message template: po/POTFILES.in names every file
that has marked messages (C strings in _(), N_(), C_(), NC_() or
ngettext (); GtkBuilder properties with translatable="yes"; the .desktop
and metainfo files), and
xgettext, with the keywords of meson's glib preset, builds a template in
which each of those files has messages, the .desktop file's name and the
metainfo's summary among them.  Plurals come out as plurals, every
message with a placeholder has a comment for its translators, and no
label, title or tooltip in a GtkBuilder file is left unmarked.
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
MARK = re.compile(r'\b(?:N?C?_|g_dn?gettext|ngettext)\s*\(\s*"|translatable="yes"')
# Properties and menu attributes a person reads (or hears) in a .ui file.
SHOWN = re.compile(r'<(?:property|attribute) name="(?:label|title|tooltip-text|'
                   r'tooltip-markup|placeholder-text|description)"([^>]*)>([^<]*)<')
PLURALS = [("Recovered %u unsaved program", "Recovered %u unsaved programs"),
           ("Save changes to %u program before quitting?",
            "Save changes to %u programs before quitting?")]


def entries(text):
    """The template's entries: (comments, flags, msgctxt, msgid, plural)."""
    out = []
    for block in text.split("\n\n"):
        def field(name):
            m = re.search(r'^%s "(.*)"((?:\n".*")*)' % name, block, re.M)
            if not m:
                return None
            return m.group(1) + "".join(re.findall(r'^"(.*)"$', m.group(2), re.M))
        msgid = field("msgid")
        if msgid:
            out.append((re.findall(r"^#\. (.*)$", block, re.M),
                        " ".join(re.findall(r"^#, (.*)$", block, re.M)),
                        field("msgctxt"), msgid, field("msgid_plural")))
    return out


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
    unmarked = ["%s: %s" % (p.relative_to(root), m.group(2))
                for d in ("ui", "resources")
                for p in sorted((root / d).rglob("*.ui"))
                for m in SHOWN.finditer(p.read_text())
                if m.group(2).strip() and 'translatable="yes"' not in m.group(1)]
    check("every label, title and tooltip in a .ui file is translatable",
          not unmarked, "not marked: " + "; ".join(unmarked))
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
    found = entries(text)
    plurals = {(e[3], e[4]) for e in found if e[4] is not None}
    missing = ["%s / %s" % p for p in PLURALS if p not in plurals]
    check("the counted messages are plurals (ngettext)", not missing,
          "no plural: " + ", ".join(missing))
    bare = [e[3] for e in found if "c-format" in e[1].split(", ") and not e[0]]
    check("every message with a placeholder has a translators' comment",
          not bare, "no comment: " + ", ".join(bare))
    silent = [f for f in listed if f not in referenced
              and f in marked + [l for l in listed if not l.endswith((".c", ".ui"))]]
    check("every listed file with marks gives the template messages",
          not silent, "no messages from: " + ", ".join(silent))

    print("1..%d" % len(results))
    for i, (name, ok, detail) in enumerate(results, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", i, name))
        if detail and not ok:
            print("# " + detail)
    print("# %d messages (%d plural) from %d files"
          % (len(msgids) - 1, len(plurals), len(referenced)))
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
