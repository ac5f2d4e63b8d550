#!/usr/bin/env python3
"""The samples manifest (resources/samples/samples.xml, read by the
desktop app and the web page) names exactly the sample programs there
are: each <sample> has its .tape file, every .tape file in
resources/samples has a <sample>, and both the GResource manifest and the
web build list every one.  Every sample has a title and its target and
observe choices name statements of its program (or are empty).
Usage: check-samples.py SOURCE_ROOT.  Prints TAP."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
samples_dir = root / "resources" / "samples"
xml = re.sub(r"<!--.*?-->", "", (samples_dir / "samples.xml").read_text(),
             flags=re.S)
samples = []
for attrs, body in re.findall(r"<sample\b([^>]*)>(.*?)</sample>", xml, re.S):
    a = dict(re.findall(r'(\w+)="([^"]*)"', attrs))
    title = re.search(r"<title>([^<]*)</title>", body)
    samples.append((a, title.group(1).strip() if title else ""))
ids = [a.get("id", "") for a, _ in samples]
tapes = sorted(p.stem for p in samples_dir.glob("*.tape"))
gresource = (root / "resources" / "topos-playground.gresource.xml").read_text()
web = (root / "web" / "meson.build").read_text()

results = [
    ("the manifest has samples", len(samples) > 0, ""),
    ("every id is unique", len(set(ids)) == len(ids), str(ids)),
    ("each sample has its program and every program a sample",
     sorted(ids) == tapes, "manifest %s, files %s" % (sorted(ids), tapes)),
    ("the GResource holds the manifest",
     "<file>samples/samples.xml</file>" in gresource, ""),
]
for a, title in samples:
    sid = a.get("id", "")
    results.append(("%s: a title, a teaching flag" % sid, title != ""
                    and a.get("teaching") in ("true", "false"), str(a)))
    results.append(("%s: in the GResource and the web build" % sid,
                    "<file>samples/%s.tape</file>" % sid in gresource
                    and "'../resources/samples/%s.tape'" % sid in web, ""))
    path = samples_dir / (sid + ".tape")
    names = set(re.findall(r"^\s*([A-Za-z_]\w*)\s*=", path.read_text(),
                           re.M)) if path.is_file() else set()
    for choice in ("target", "observe"):
        value = a.get(choice)
        results.append(("%s: %s %r is a statement of the program"
                        % (sid, choice, value),
                        value is not None and (value == "" or value in names),
                        "statements: %s" % sorted(names)))

print("1..%d" % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok and detail:
        print("# " + detail)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
