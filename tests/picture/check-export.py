#!/usr/bin/env python3
"""The picture as the command line exports it, checked by other programs
than the one that wrote it: `topos --svg` parsed as XML (one node group
per tape node, one edge group per operand, skipped classes that match the
plan reading, nothing external), `topos --png` decoded (signature, IHDR,
zlib data of exactly the stated size), and the command line's behaviour
around them (nothing on stdout, exit codes).
Usage: check-export.py TOPOS SAMPLES_DIR.  Prints a TAP stream."""
import math
import pathlib
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
SAMPLES = [
    ("readme.tape", ["--target", "loss", "--observe", "error"]),
    ("readme.tape", []),
    ("dense-layer.tape", ["--target", "loss", "--observe", "hidden"]),
    ("classifier.tape", ["--target", "loss"]),
    ("two-layers.tape", ["--target", "loss", "--observe", "h"]),
    ("not-yet-a-scalar.tape", []),
]
PNG_SCALE = 2.0

results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def run(topos, *args):
    return subprocess.run([topos, *args], capture_output=True)


def tape_lines(topos, args, path):
    """(index, operands) per node, from the derivative or spec reading."""
    text = run(topos, "--reading", "derivative", *args, path).stdout.decode()
    if not re.search(r"^ +0  ", text, re.M):
        text = run(topos, "--reading", "spec", *args, path).stdout.decode()
    nodes = []
    for line in text.splitlines():
        m = re.match(r"^ *(\d+)  \S+ +([\d, ]*\d)?", line)
        if m:
            ops = [int(x) for x in m.group(2).split(",")] if m.group(2) else []
            nodes.append((int(m.group(1)), ops))
    return nodes


def planned(topos, args, path):
    text = run(topos, "--reading", "plan", *args, path).stdout.decode()
    return {int(m.group(1)) for m in re.finditer(r"^ *(\d+)  ", text, re.M)}


def external_references(root):
    bad = []
    for el in root.iter():
        tag = el.tag.replace(SVG, "")
        if tag in ("image", "link", "script", "foreignObject"):
            bad.append(tag)
        if tag == "style" and el.text and ("@import" in el.text or "url(" in el.text):
            bad.append("style")
        for key, value in el.attrib.items():
            if "url(" in value:
                bad.append("%s=%s" % (key, value))
            if key.endswith("href") and not value.startswith("#"):
                bad.append("%s=%s" % (key, value))
    return bad


def png_size(data):
    """Decodes the PNG far enough to prove it is one: chunks with good
    CRCs, an IHDR, and IDAT data that inflates to exactly one filtered
    row of RGBA per pixel row.  Returns (width, height)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "signature"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, "crc"
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
        if kind == b"IEND":
            break
    width, height, depth, colour = ihdr[:4]
    assert (depth, colour) == (8, 6), "8-bit RGBA"
    raw = zlib.decompress(idat)
    assert len(raw) == height * (1 + 4 * width), "pixel data size"
    return width, height


def check_sample(topos, samples, name, args, tmp):
    path = str(samples / name)
    label = "%s %s" % (name, " ".join(args) or "(defaults)")
    svg_path, png_path = tmp / "out.svg", tmp / "out.png"
    for p in (svg_path, png_path):
        if p.exists():
            p.unlink()
    r = run(topos, "--svg", str(svg_path), "--png", str(png_path), *args, path)
    check(label + ": exit 0, nothing on stdout or stderr",
          r.returncode == 0 and r.stdout == b"" and r.stderr == b"",
          "exit %d, stdout %r, stderr %r" % (r.returncode, r.stdout[:80], r.stderr[:200]))

    nodes = tape_lines(topos, args, path)
    plan = planned(topos, args, path)
    try:
        root = ET.parse(svg_path).getroot()
    except ET.ParseError as e:
        check(label + ": SVG is well-formed XML", False, str(e))
        return
    check(label + ": SVG is well-formed XML", root.tag == SVG + "svg", root.tag)
    groups = {g.get("id"): g.get("class", "").split()
              for g in root.iter(SVG + "g") if g.get("id")}
    node_groups = {i: c for i, c in groups.items()
                   if re.fullmatch(r"n\d+", i) and c[:1] == ["node"]}
    edge_groups = {i: c for i, c in groups.items()
                   if re.fullmatch(r"e\d+_\d+", i) and c[:1] == ["edge"]}
    want_nodes = {"n%d" % i for i, _ in nodes}
    want_edges = {"e%d_%d" % (i, k) for i, ops in nodes for k in range(len(ops))}
    check(label + ": one node group per tape node (%d)" % len(want_nodes),
          set(node_groups) == want_nodes,
          "missing %s, extra %s" % (sorted(want_nodes - set(node_groups))[:5],
                                    sorted(set(node_groups) - want_nodes)[:5]))
    check(label + ": one edge group per operand (%d)" % len(want_edges),
          set(edge_groups) == want_edges,
          "missing %s, extra %s" % (sorted(want_edges - set(edge_groups))[:5],
                                    sorted(set(edge_groups) - want_edges)[:5]))
    wrong = [i for i, c in node_groups.items()
             if ("skipped" in c) != (int(i[1:]) not in plan)]
    check(label + ": skipped exactly where the plan does not evaluate",
          not wrong, "wrong: %s" % wrong[:5])
    bad = external_references(root)
    check(label + ": SVG refers to nothing outside itself", not bad, str(bad[:5]))

    view = [float(x) for x in root.get("viewBox").split()]
    try:
        size = png_size(png_path.read_bytes())
        want = (math.ceil(view[2] * PNG_SCALE), math.ceil(view[3] * PNG_SCALE))
        check(label + ": PNG decodes to %dx%d" % want, size == want, str(size))
    except (AssertionError, zlib.error, struct.error, TypeError) as e:
        check(label + ": PNG decodes", False, repr(e))


def check_cli(topos, samples, tmp):
    readme = str(samples / "readme.tape")
    r = run(topos, "--svg")
    check("--svg without a file is a usage error (2)", r.returncode == 2)
    r = run(topos, "--png")
    check("--png without a file is a usage error (2)", r.returncode == 2)

    refused = tmp / "refused.tape"
    refused.write_text("x = input [2]\ny = x + z\n")
    out = tmp / "refused.svg"
    r = run(topos, "--svg", str(out), str(refused))
    check("a refused program exits 1 and writes no picture",
          r.returncode == 1 and not out.exists() and b"error" in r.stderr)

    r = run(topos, "--png", str(tmp / "no-such-dir" / "x.png"), readme)
    check("an unwritable output exits 2", r.returncode == 2, str(r.stderr))

    out = tmp / "both.svg"
    r = run(topos, "--reading", "dot", "--svg", str(out), readme)
    dot = run(topos, "--reading", "dot", readme).stdout
    check("--reading dot with --svg prints the DOT and writes the SVG",
          r.returncode == 0 and r.stdout == dot and out.exists()
          and dot.startswith(b"digraph topos {"))


def main():
    topos, samples = sys.argv[1], pathlib.Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        for name, args in SAMPLES:
            check_sample(topos, samples, name, args, tmp)
        check_cli(topos, samples, tmp)
    print("1..%d" % len(results))
    failed = 0
    for n, (name, ok, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", n, name))
        if not ok:
            failed += 1
            print("# " + detail)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
