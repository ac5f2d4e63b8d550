#!/usr/bin/env python3
# Prints the constant tables of engine/tp-fmt.c (exact Python integers).
# They were pasted there from this script's output; tests/fmt/meson.build
# runs it with --check to prove the pasted tables still match.
#
#   tp_pow5[j]  = 5^j exactly, j = 0 .. 47, as { high 64 bits, low 64 bits }
#   tp_inv5[q]  = ceil (2^(127 + L) / 5^q), q = 1 .. 29, where L is the bit
#                 length of 5^q, so that 2^127 < tp_inv5[q] < 2^128
#                 (entry 0 is unused and zero).
#   tp_inv5_shift[q] = 127 + L, the power of two tp_inv5[q] is scaled by.
import re
import sys

POW5_MAX = 47
INV5_MAX = 29


def words(x):
    assert 0 <= x < 1 << 128
    return "{ UINT64_C (0x%016x), UINT64_C (0x%016x) }" % (x >> 64, x & ((1 << 64) - 1))


def tables():
    out = ["static const uint64_t tp_pow5[%d][2] = {" % (POW5_MAX + 1)]
    for j in range(POW5_MAX + 1):
        out.append("  %s," % words(5 ** j))
    out.append("};")
    out.append("")
    out.append("static const uint64_t tp_inv5[%d][2] = {" % (INV5_MAX + 1))
    out.append("  %s," % words(0))
    shifts = [0]
    for q in range(1, INV5_MAX + 1):
        p = 5 ** q
        bits = p.bit_length()
        inv = -((-(1 << (127 + bits))) // p)
        assert (1 << 127) < inv < (1 << 128)
        out.append("  %s," % words(inv))
        shifts.append(127 + bits)
    out.append("};")
    out.append("")
    out.append("static const uint8_t tp_inv5_shift[%d] = {" % (INV5_MAX + 1))
    for i in range(0, len(shifts), 10):
        out.append("  " + " ".join("%d," % v for v in shifts[i:i + 10]))
    out.append("};")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    text = tables()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2], encoding="utf-8") as f:
            source = f.read()
        if text not in source:
            sys.stderr.write("tables in %s differ from gen-fmt-tables.py output\n" % sys.argv[2])
            sys.exit(1)
        print("tables match")
    else:
        sys.stdout.write(text)
