#!/usr/bin/env python3
"""Runs `topos-playground --screenshot OUT.png` (the README sample) and
checks the PNG: it exists, it is a PNG, it is window-sized, and it is not
blank.  The PNG stays in the build tree as the test's artifact."""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

exe, out = sys.argv[1], sys.argv[2]
print("1..1")
env = dict(os.environ)
env["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="topos-shot-")
if os.path.exists(out):
    os.unlink(out)
proc = subprocess.run([exe, "--screenshot", out], env=env, timeout=90,
                      capture_output=True, text=True)
problems = []
if proc.returncode != 0:
    problems.append("exit status %d: %s" % (proc.returncode, proc.stderr.strip()))
if proc.stderr.strip():
    problems.append("stderr: " + proc.stderr.strip())
if not os.path.exists(out):
    problems.append("no PNG written")
else:
    data = open(out, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        problems.append("not a PNG")
    else:
        width, height = struct.unpack(">II", data[16:24])
        if width < 1000 or height < 600:
            problems.append("window too small: %dx%d" % (width, height))
        idat, i = b"", 8
        while i + 8 <= len(data):
            length, kind = struct.unpack(">I4s", data[i:i + 8])
            if kind == b"IDAT":
                idat += data[i + 8:i + 8 + length]
            i += 12 + length
        raw = zlib.decompress(idat) if idat else b""
        if len(set(raw[: 200000])) < 16:
            problems.append("the picture is (nearly) blank")
if problems:
    print("not ok 1 - screenshot\n# " + "\n# ".join(problems))
    sys.exit(1)
print("ok 1 - screenshot %s (%dx%d)" % (out, width, height))
